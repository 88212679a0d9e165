#pragma once

#include "engine/attention/sentencepair.h"

#include <string>
#include <unordered_map>
#include <vector>

// Word <-> id map with the four special tokens at fixed ids.
class Vocabulary
{
public:
    static constexpr int kPad = 0;
    static constexpr int kSos = 1;
    static constexpr int kEos = 2;
    static constexpr int kUnk = 3;

    Vocabulary();
    explicit Vocabulary(const std::vector<std::string> &words);  // specials are prepended

    // Words of the training pairs' sources, most frequent first (ties alphabetical), kept when they
    // occur at least `minCount` times, at most `maxSize` words in all (0: no limit). The targets
    // are the sources' words reordered, so they are not counted again.
    static Vocabulary build(const std::vector<SentencePair> &pairs, int maxSize = 0, int minCount = 1);

    int id(const std::string &word) const;  // kUnk when unknown
    const std::string &word(int id) const;
    bool contains(const std::string &word) const { return m_ids.count(word) != 0; }
    int size() const { return int(m_words.size()); }
    const std::vector<std::string> &words() const { return m_words; }  // includes specials

    bool operator==(const Vocabulary &other) const { return m_words == other.m_words; }

private:
    std::vector<std::string> m_words;
    std::unordered_map<std::string, int> m_ids;
};
