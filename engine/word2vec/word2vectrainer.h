#pragma once

#include "engine/word2vec/sgnsupdate.h"
#include "engine/word2vec/wordcorpus.h"
#include "engine/word2vec/wordvectors.h"

#include <atomic>
#include <functional>

// What training has done so far, reported between rounds (about every 0.1 s of training).
struct Word2VecProgress {
    int epoch = 0;              // 1-based
    int epochs = 0;
    int64_t wordsDone = 0;      // corpus tokens processed (before subsampling), all epochs
    int64_t wordsTotal = 0;
    double loss = 0;            // mean negative-sampling loss per positive pair since the last report,
                                // measured on one centre word in eight (every one in a small corpus)
    double wordsPerSecond = 0;  // over the run so far
    double alpha = 0;           // current learning rate
};

struct Word2VecEpoch {
    int epoch = 0;
    double loss = 0;            // mean over the epoch's pairs (one centre word in eight measured; all in a small corpus)
    double seconds = 0;
    double wordsPerSecond = 0;
    int64_t tokensKept = 0;     // after subsampling
    int64_t pairs = 0;
};

// Skip-gram or CBOW with negative sampling, trained by hand-written updates (no autograd) over
// `threads` threads (Hogwild, as word2vec.c and gensim) that take the corpus in jobs of about
// 10,000 words, in order, as gensim's workers do.
class Word2VecTrainer
{
public:
    struct Callbacks {
        std::function<void(const Word2VecProgress &)> onProgress;  // from the calling thread
        std::function<void(const Word2VecEpoch &)> onEpoch;
    };

    Word2VecTrainer(const WordCorpus &corpus, const CorpusConfig &corpusConfig, const Word2VecConfig &config);

    // Trains until the epochs are done or *stop is set; returns the epochs completed. The threads
    // train in rounds; onProgress runs on the calling thread between them, while the others wait
    // (so it may block to pause), and *stop is read after each.
    std::vector<Word2VecEpoch> train(const Callbacks &callbacks, const std::atomic<bool> *stop = nullptr);

    // The input vectors (what people call the embeddings), copied; safe between callbacks.
    WordVectors vectors() const;
    const WordCorpus &corpus() const { return m_corpus; }
    const Word2VecConfig &config() const { return m_config; }

private:
    const WordCorpus &m_corpus;
    CorpusConfig m_corpusConfig;
    Word2VecConfig m_config;
    PaddedRows m_input;   // vocabulary x dimensions: v, the embeddings
    PaddedRows m_output;  // vocabulary x dimensions: u, the context vectors
};
