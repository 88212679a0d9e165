#include "app/transformer/transformerreport.h"

#include "app/core/epochline.h"
#include "engine/core/tokenizer.h"

#include <cstdio>
#include <set>

std::string outputText(const TransformerOutput &output)
{
    std::vector<std::string> words = output.outputTokens;
    if (!words.empty() && words.back() == "<EOS>")
        words.pop_back();
    return joinTokens(words);
}

std::string exampleLine(const TransformerModel &model, const SentencePair &pair)
{
    const TransformerOutput output = model.decode(pair.source);
    std::vector<std::string> expected = pair.target;
    expected.push_back("<EOS>");
    return "Input: \"" + joinTokens(pair.source) + "\"  Output: \"" + outputText(output) + "\"  Reference: \"" +
           joinTokens(pair.target) + "\"  " + (output.outputTokens == expected ? "match" : "no match");
}

std::string scoreText(const std::string &what, const TransformerScore &score, int trainedMax)
{
    std::string text = what + " exact match: " + percentText(score.exactMatch()) + " (" +
                       std::to_string(score.sentences) + " sentences, greedy, in padded batches) | token accuracy: " +
                       percentText(score.tokenAccuracy()) + "\nBy length:";
    for (const auto &[length, counts] : score.byLength)
        text += "  " + std::to_string(length) + (length > trainedMax ? "*" : "") + ": " +
                percentText(double(counts.correct) / counts.total);
    return text + "\n";
}

std::string lengthTable(const std::vector<std::string> &labels, const std::vector<const TransformerScore *> &scores,
                        int trainedMax)
{
    char cell[64];
    std::string text;
    std::snprintf(cell, sizeof cell, "%-7s", "length");
    text += cell;
    for (const std::string &label : labels) {
        std::snprintf(cell, sizeof cell, " %14s", label.c_str());
        text += cell;
    }
    text += "\n";
    std::set<int> lengths;
    for (const TransformerScore *score : scores)
        for (const auto &entry : score->byLength)
            lengths.insert(entry.first);
    for (int length : lengths) {
        std::snprintf(cell, sizeof cell, "%-7s", (std::to_string(length) + (length > trainedMax ? "*" : "")).c_str());
        text += cell;
        for (const TransformerScore *score : scores) {
            const auto found = score->byLength.find(length);
            const std::string value = found == score->byLength.end() || found->second.total == 0
                                          ? "-"
                                          : percentText(double(found->second.correct) / found->second.total);
            std::snprintf(cell, sizeof cell, " %14s", value.c_str());
            text += cell;
        }
        text += "\n";
    }
    return text;
}
