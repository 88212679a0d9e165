#include "engine/selfattention/partsofspeech.h"

#include "engine/selfattention/attentionreflection.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <stdexcept>

const std::vector<PartOfSpeech> &partsOfSpeech()
{
    static const std::vector<PartOfSpeech> parts = {PartOfSpeech::Untagged, PartOfSpeech::Noun,
                                                    PartOfSpeech::Pronoun,  PartOfSpeech::Verb,
                                                    PartOfSpeech::Adverb,   PartOfSpeech::Adjective,
                                                    PartOfSpeech::Other};
    return parts;
}

const std::vector<std::string> &courseSentences()
{
    static const std::vector<std::string> sentences = {"I love AI", "AI loves me", "Birds can fly",
                                                       "Students learn quickly"};
    return sentences;
}

const char *partName(PartOfSpeech part)
{
    switch (part) {
    case PartOfSpeech::Noun: return "noun";
    case PartOfSpeech::Pronoun: return "pronoun";
    case PartOfSpeech::Verb: return "verb";
    case PartOfSpeech::Adverb: return "adverb";
    case PartOfSpeech::Adjective: return "adjective";
    case PartOfSpeech::Other: return "other";
    case PartOfSpeech::Untagged: break;
    }
    return "untagged";
}

PartOfSpeech courseTag(const std::string &word)
{
    static const std::map<std::string, PartOfSpeech> course = {
        {"i", PartOfSpeech::Pronoun},      {"me", PartOfSpeech::Pronoun},   {"love", PartOfSpeech::Verb},
        {"loves", PartOfSpeech::Verb},     {"ai", PartOfSpeech::Noun},      {"birds", PartOfSpeech::Noun},
        {"can", PartOfSpeech::Verb},       {"fly", PartOfSpeech::Verb},     {"students", PartOfSpeech::Noun},
        {"learn", PartOfSpeech::Verb},     {"quickly", PartOfSpeech::Adverb}, {"deeply", PartOfSpeech::Adverb}};
    std::string lower = word;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    const auto found = course.find(lower);
    return found == course.end() ? PartOfSpeech::Untagged : found->second;
}

std::vector<PartAttention> attentionByPart(const Matrix &weights, const std::vector<PartOfSpeech> &tags)
{
    const int n = weights.rows;
    if (n != weights.columns || int(tags.size()) != n)
        throw std::invalid_argument("one part of speech per word of a square attention matrix");
    std::vector<PartAttention> parts;
    for (PartOfSpeech part : partsOfSpeech()) {
        if (part == PartOfSpeech::Untagged)
            continue;
        PartAttention p;
        p.part = part;
        for (int i = 0; i < n; ++i) {
            if (tags[std::size_t(i)] != part)
                continue;
            ++p.words;
            p.meanEntropy += entropyNats(weights, i);
            p.meanSelf += weights.at(i, i);
            for (int q = 0; q < n; ++q)
                p.meanReceived += weights.at(q, i) / n;
        }
        if (p.words == 0)
            continue;
        p.meanEntropy /= p.words;
        p.meanSelf /= p.words;
        p.meanReceived /= p.words;
        parts.push_back(p);
    }
    return parts;
}
