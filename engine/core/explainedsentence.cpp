#include "engine/core/explainedsentence.h"

#include "engine/core/tokenizer.h"

#include <stdexcept>

void ExplainedSentence::setTokens(const std::vector<std::string> &source, const std::vector<std::string> &output)
{
    if (source.size() < 3)
        throw std::invalid_argument("a sentence of fewer than two words has nothing to compare one word with; "
                                    "give at least two");
    sourceTokens = source;
    outputTokens = output;
    words.assign(source.begin(), source.end() - 1);
}

const AttributionMap *ExplainedSentence::map(AttributionMethod method) const
{
    for (const AttributionMap &m : maps)
        if (m.method == method)
            return &m;
    return nullptr;
}

std::string ExplainedSentence::inputText() const
{
    return joinTokens(words);
}

std::string ExplainedSentence::outputText() const
{
    std::vector<std::string> output = outputTokens;
    if (!output.empty() && output.back() == "<EOS>")
        output.pop_back();
    return joinTokens(output);
}
