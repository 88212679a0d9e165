#pragma once

#include "engine/word2vec/word2vecconfig.h"

#include <cstdint>
#include <string>
#include <vector>

// Lower-cased words of a line as gensim's measuring script reads them: runs of a-z with an
// optional inner apostrophe ("don't"); everything else separates. With `punctuation` each of
// . , ! ? ; : is a word of its own too.
std::vector<std::string> corpusWords(const std::string &line, bool punctuation = false);

// A corpus as word2vec trains on it: the kept vocabulary, most frequent first (ties alphabetical),
// and every line as ids into it; words below the minimum count or past the cap are dropped from
// the lines, as word2vec.c does. Lines left empty are dropped, and lines of more than 10,000 kept
// words are cut into pieces of 10,000 (training shares lines among threads and rounds).
struct WordCorpus {
    std::vector<std::string> words;
    std::vector<int64_t> counts;         // per word, in the whole text
    std::vector<int32_t> tokens;         // all lines' kept words, one after another
    std::vector<int64_t> lineStarts;     // index into tokens of each line's first word; size lines+1
    int64_t rawTokens = 0;               // words in the text before the vocabulary cut
    int64_t distinctWords = 0;           // before the cut

    int lines() const { return int(lineStarts.size()) - 1; }
    int vocabularySize() const { return int(words.size()); }
    int index(const std::string &word) const;  // -1 when not in the vocabulary
};

// Reads `text`, one sentence or paragraph a line. Throws std::invalid_argument with a message a
// user can act on for text that is empty, binary (a NUL byte, or mostly not text) or leaves no
// word after the vocabulary cut.
WordCorpus buildWordCorpus(const std::string &text, const CorpusConfig &config);

// What a corpus and a setting make of each other, shown before training.
struct CorpusPreview {
    int64_t rawTokens = 0;
    int64_t distinctWords = 0;
    int vocabulary = 0;           // after min count and cap
    int64_t keptTokens = 0;       // in the vocabulary
    double expectedAfterSampling = 0;  // tokens expected to survive subsampling per epoch
    double pairsPerEpoch = 0;     // expected (centre, context) pairs per epoch
    int64_t parameters = 0;       // 2 x vocabulary x dimensions
    std::vector<std::string> warnings;  // plain sentences: most data thrown away, model >> data ...
};
CorpusPreview previewCorpus(const WordCorpus &corpus, const CorpusConfig &corpusConfig,
                            const Word2VecConfig &config);
