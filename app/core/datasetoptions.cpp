#include "app/core/datasetoptions.h"

#include "app/core/commandline.h"
#include "app/core/helpformat.h"

#include <algorithm>
#include <fstream>

namespace {

std::vector<std::string> readWordsFile(const std::string &path, std::string *error)
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

void addDatasetOptions(CommandLine &cl)
{
    cl.addValueOption("words-file");
    cl.addValueOption("words");
    cl.addFields(datasetConfigFields());
}

DatasetConfig readDatasetOptions(CommandLine &cl, const std::set<std::string> &skip)
{
    DatasetConfig dataset;
    if (cl.has("words")) {
        const std::string words = cl.text("words");
        if (cl.has("words-file"))
            cl.fail("give --words or --words-file, not both");
        else if (words == "digits")
            dataset.words = DatasetConfig::digitWords();
        else if (words != "default")
            cl.fail("--words takes digits or default, got '" + words + "' (a list of your own: --words-file FILE)");
    } else if (cl.has("words-file")) {
        std::string error;
        dataset.words = readWordsFile(cl.text("words-file"), &error);
        if (!error.empty())
            cl.fail(error);
    }
    cl.readFields(dataset, datasetConfigFields(), skip);
    return dataset;
}

std::string datasetOptionLines()
{
    return optionLine("--words-file FILE", "Words for generated sentences, separated by white space (default: the "
                                           "34 reference words).") +
           optionLine("--words digits|default", "Built-in words instead: the ten digits 0-9 (the course's toy "
                                                "exercise) or the 34 reference words.") +
           fieldLines(datasetConfigFields(), {{"data-seed", "--seed"}});
}
