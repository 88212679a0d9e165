#pragma once

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

// The words a sentence gives a vocabulary. A token list gives itself; a lab whose sentences are of
// another type declares vocabularyTokens() for it beside the type, and Vocabulary::build() finds it
// by argument-dependent lookup.
inline const std::vector<std::string> &vocabularyTokens(const std::vector<std::string> &tokens)
{
    return tokens;
}

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

    // The words of the sentences, most frequent first (ties alphabetical), kept when they occur at
    // least `minCount` times, at most `maxSize` words in all (0: no limit).
    template <typename Sentence = std::vector<std::string>>
    static Vocabulary build(const std::vector<Sentence> &sentences, int maxSize = 0, int minCount = 1)
    {
        std::map<std::string, int> counts;
        for (const Sentence &sentence : sentences)
            for (const std::string &word : vocabularyTokens(sentence))
                ++counts[word];
        return fromCounts(counts, maxSize, minCount);
    }

    int id(const std::string &word) const;  // kUnk when unknown
    const std::string &word(int id) const;
    bool contains(const std::string &word) const { return m_ids.count(word) != 0; }
    int size() const { return int(m_words.size()); }
    const std::vector<std::string> &words() const { return m_words; }  // includes specials

    bool operator==(const Vocabulary &other) const { return m_words == other.m_words; }

private:
    static Vocabulary fromCounts(const std::map<std::string, int> &counts, int maxSize, int minCount);

    std::vector<std::string> m_words;
    std::unordered_map<std::string, int> m_ids;
};
