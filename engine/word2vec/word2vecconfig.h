#pragma once

#include "engine/core/configfield.h"

#include <cstdint>
#include <string>
#include <vector>

enum class Word2VecArchitecture { SkipGram, Cbow };

// How the corpus becomes training data: which words are kept and how often frequent ones are.
struct CorpusConfig {
    int minCount = 1;          // words seen fewer times are dropped from the corpus
    int maxVocabulary = 0;     // the most frequent words kept; 0: no limit
    double sample = 0;         // subsampling threshold t; 0: off (on a toy corpus 1e-3 drops most tokens)
    bool punctuation = false;  // . , ! ? ; : are words of their own instead of separators
};

// Skip-gram / CBOW with negative sampling, named as gensim and word2vec.c name them.
struct Word2VecConfig {
    Word2VecArchitecture architecture = Word2VecArchitecture::SkipGram;
    int dimensions = 50;
    int window = 4;              // the largest; each position draws its own from 1..window
    bool wholeWindow = false;    // every position takes the whole window instead
    int negatives = 5;           // noise words per positive pair
    double noiseExponent = 0.75; // noise drawn from count^exponent: 1 unigram, 0 uniform
    int epochs = 100;
    double alpha = 0.025;        // start learning rate, decayed linearly to alpha * 1e-4
    bool constantRate = false;   // alpha throughout instead
    double initStd = 0;          // 0: word2vec.c's start (inputs uniform in ±0.5/dim, outputs 0); else both N(0, initStd)
    uint64_t seed = 1;
    int threads = 2;             // 0: all cores (resolvedThreads())
};

const std::vector<ConfigField<CorpusConfig>> &corpusFields();
const std::vector<ConfigField<Word2VecConfig>> &word2vecFields();

// Empty when every field is in range, otherwise the message engine, UI and CLI all show.
std::string validate(const CorpusConfig &config);
std::string validate(const Word2VecConfig &config);
