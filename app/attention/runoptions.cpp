#include "app/attention/runoptions.h"

#include "app/core/commandline.h"

#include <algorithm>
#include <fstream>

namespace {

std::vector<std::string> readWords(const std::string &path, std::string *error)
{
    std::ifstream in(path);
    if (!in) {
        *error = "cannot open words file '" + path + "'";
        return {};
    }
    std::vector<std::string> words;
    std::string word;
    while (in >> word)
        if (std::find(words.begin(), words.end(), word) == words.end())
            words.push_back(word);
    if (words.empty())
        *error = "words file '" + path + "' has no words";
    return words;
}

}

void addRunOptions(CommandLine &cl)
{
    cl.addValueOption("out");
    cl.addValueOption("words-file");
    cl.addValueOption("words");
    cl.addFields(datasetConfigFields());
    cl.addFields(modelConfigFields());
    cl.addFields(trainingConfigFields());
}

RunOptions readRunOptions(CommandLine &cl, const std::set<std::string> &skip)
{
    RunOptions o;
    if (cl.has("words")) {
        const std::string words = cl.text("words");
        if (cl.has("words-file"))
            cl.fail("give --words or --words-file, not both");
        else if (words == "digits")
            o.dataset.words = DatasetConfig::digitWords();
        else if (words != "default")
            cl.fail("--words takes digits or default, got '" + words + "' (a list of your own: --words-file FILE)");
    } else if (cl.has("words-file")) {
        std::string error;
        o.dataset.words = readWords(cl.text("words-file"), &error);
        if (!error.empty())
            cl.fail(error);
    }
    cl.readFields(o.dataset, datasetConfigFields(), skip);
    cl.readFields(o.model, modelConfigFields(), skip);
    cl.readFields(o.training, trainingConfigFields(), skip);
    if (!cl.has("data-seed"))
        o.dataset.seed = o.training.seed;
    o.out = cl.text("out");
    if (o.out.empty())
        cl.fail("--out DIR is required (the folder for the model files and the reports)");
    if (!cl.positional().empty())
        cl.fail("unexpected argument '" + cl.positional().front() + "'");
    for (const std::string &problem : {validate(o.dataset), validate(o.model), validate(o.training)})
        if (!problem.empty())
            cl.fail(problem);
    return o;
}
