#include "engine/core/vocabulary.h"

#include <algorithm>
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

Vocabulary Vocabulary::fromCounts(const std::map<std::string, int> &counts, int maxSize, int minCount)
{
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
