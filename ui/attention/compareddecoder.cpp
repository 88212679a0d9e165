#include "ui/attention/compareddecoder.h"

#include "ui/workbench/shareddecoder.h"

#include <utility>

namespace {

DecodedSentence decodedFromShared(SharedDecoding decoding)
{
    DecodedSentence sentence;
    sentence.sourceTokens = std::move(decoding.sourceTokens);
    sentence.sourceKnown = std::move(decoding.sourceKnown);
    sentence.outputTokens = std::move(decoding.outputTokens);
    sentence.outputCopied.assign(sentence.outputTokens.size(), false);
    sentence.attention = std::move(decoding.attention);
    return sentence;
}

}  // namespace

ComparedModel comparedDecoder(const SharedDecoder &decoder)
{
    ComparedModel compared;
    compared.decode = [decode = decoder.decode](const std::string &sentence) {
        return decodedFromShared(decode(sentence));
    };
    compared.decodeAlong = [decodeAlong = decoder.decodeAlong](const DecodedSentence &along) {
        std::vector<std::string> words = along.sourceTokens;
        if (!words.empty() && words.back() == "<EOS>")
            words.pop_back();
        return decodedFromShared(decodeAlong(words, along.outputTokens));
    };
    compared.vocabulary = decoder.vocabulary;
    compared.lowercase = decoder.lowercase;
    compared.hasAttention = true;
    return compared;
}
