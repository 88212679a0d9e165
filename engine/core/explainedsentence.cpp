#include "engine/core/explainedsentence.h"

#include "engine/core/tokenizer.h"

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
