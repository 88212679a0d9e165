#include "engine/word2vec/wordevaluation.h"

#include "engine/core/rankcorrelation.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace {

std::vector<std::string> splitFields(const std::string &line)
{
    std::istringstream in(line);
    std::vector<std::string> out;
    for (std::string field; in >> field;)
        out.push_back(field);
    return out;
}

std::string lowerAscii(std::string text)
{
    for (char &c : text)
        if (c >= 'A' && c <= 'Z')
            c = char(c - 'A' + 'a');
    return text;
}

// Lines of `text` with their 1-based numbers, blank lines and '#' comments left out.
template <typename OnLine>
void forEachLine(const std::string &text, OnLine &&onLine)
{
    std::istringstream in(text);
    int number = 0;
    for (std::string line; std::getline(in, line);) {
        ++number;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        const std::size_t first = line.find_first_not_of(" \t");
        if (first == std::string::npos || line[first] == '#')
            continue;
        onLine(line.substr(first), number);
    }
}

}

AnalogyResult evaluateAnalogies(const VectorIndex &vectors, const std::string &questionsText)
{
    AnalogyResult result;
    forEachLine(questionsText, [&](const std::string &line, int number) {
        if (line[0] == ':') {
            const std::vector<std::string> name = splitFields(line.substr(1));
            result.sections.push_back({name.empty() ? std::string() : name.front(), 0, 0});
            return;
        }
        const std::vector<std::string> words = splitFields(lowerAscii(line));
        if (words.size() != 4)
            throw std::invalid_argument("Analogy file, line " + std::to_string(number) +
                                        ": expected \": section\" or four words \"a b c d\"");
        int ids[4];
        for (int i = 0; i < 4; ++i)
            ids[i] = vectors.index(words[std::size_t(i)]);
        if (std::find(ids, ids + 4, -1) != ids + 4) {
            ++result.skipped;
            return;
        }
        if (result.sections.empty())
            result.sections.push_back({"", 0, 0});
        const std::vector<ScoredWord> answer = vectors.analogy(ids[0], ids[1], ids[2], 1);
        const bool right = !answer.empty() && answer.front().index == ids[3];
        ++result.asked;
        result.right += right;
        ++result.sections.back().asked;
        result.sections.back().right += right;
    });
    return result;
}

SimilarityResult evaluateSimilarity(const VectorIndex &vectors, const std::string &pairsText)
{
    SimilarityResult result;
    std::vector<double> human, model;
    forEachLine(pairsText, [&](const std::string &line, int number) {
        const std::vector<std::string> fields = splitFields(lowerAscii(line));
        char *end = nullptr;
        const double score = fields.size() == 3 ? std::strtod(fields[2].c_str(), &end) : 0;
        if (fields.size() != 3 || end == fields[2].c_str() || *end != '\0' || !std::isfinite(score))
            throw std::invalid_argument("Similarity file, line " + std::to_string(number) +
                                        ": expected \"word1 word2 score\"");
        const int a = vectors.index(fields[0]), b = vectors.index(fields[1]);
        if (a < 0 || b < 0) {
            ++result.skipped;
            return;
        }
        human.push_back(score);
        model.push_back(vectors.similarity(a, b));
    });
    result.pairs = int(human.size());
    const double rho = spearmanCorrelation(human, model);
    result.spearman = std::isnan(rho) ? 0 : rho;
    return result;
}
