#include "engine/core/vocabulary.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace {
const std::vector<std::string> kSpecials = {"<PAD>", "<SOS>", "<EOS>", "<UNK>"};
}

Vocabulary::Vocabulary() : Vocabulary(std::vector<std::string>{}) {}

Vocabulary::Vocabulary(const std::vector<std::string> &words)
{
    m_words = kSpecials;
    for (const auto &w : words)
        if (std::find(kSpecials.begin(), kSpecials.end(), w) == kSpecials.end())
            m_words.push_back(w);
    for (int i = 0; i < int(m_words.size()); ++i)
        if (!m_ids.emplace(m_words[i], i).second)
            throw std::invalid_argument("duplicate word in vocabulary: " + m_words[i]);
}

Vocabulary Vocabulary::build(const std::vector<SentencePair> &pairs, int maxSize, int minCount)
{
    std::map<std::string, int> counts;
    // The source side only: a target holds the same words again, and counting both would keep a
    // word seen once at a minimum count of 2.
    for (const auto &p : pairs)
        for (const auto &w : p.source)
            ++counts[w];
    std::vector<std::pair<std::string, int>> sorted(counts.begin(), counts.end());
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const auto &a, const auto &b) { return a.second > b.second; });
    std::vector<std::string> words;
    for (const auto &[word, count] : sorted) {
        if (count < minCount || (maxSize > 0 && int(words.size()) >= maxSize))
            break;
        if (std::find(kSpecials.begin(), kSpecials.end(), word) == kSpecials.end())
            words.push_back(word);
    }
    return Vocabulary(words);
}

int Vocabulary::id(const std::string &word) const
{
    auto it = m_ids.find(word);
    return it == m_ids.end() ? kUnk : it->second;
}

const std::string &Vocabulary::word(int id) const
{
    return m_words.at(std::size_t(id));
}
