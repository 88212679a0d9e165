#include "engine/attention/decodedsentence.h"

#include "engine/core/tokenizer.h"

std::vector<std::string> DecodedSentence::words() const
{
    std::vector<std::string> out = outputTokens;
    if (!out.empty() && out.back() == "<EOS>")
        out.pop_back();
    return out;
}

std::string DecodedSentence::text() const
{
    return joinTokens(words());
}
