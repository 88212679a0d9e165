#pragma once

#include "engine/core/dataset.h"
#include "engine/core/datasetconfig.h"
#include "engine/core/vocabulary.h"

#include <vector>

// What the data settings left on "auto" (0: max-len, min-count, max-vocabulary) come to. Generated
// sentences keep the values the default task was tuned with; a corpus file gets values that fit
// real text: its long tail of lengths, its words seen once, its many rare words.

// Generated sentences: up to 10 words, the reference assignment's range.
constexpr int kGeneratedMaxLength = 10;
// A corpus: lines up to the 99th percentile of its token lengths. Real text has a long, thin tail
// (a paragraph on one line): cutting it keeps the batches short, and 99% keeps nearly all the data
// (Debian's fortunes: 16 tokens, 102 of 11,288 lines left out, against 3,687 at 10).
constexpr int kCorpusLengthPercentile = 99;
// A corpus: a word seen once in training becomes <UNK>. Its embedding would be trained on one
// sentence, and on real text such words are half the vocabulary and most of the output layer.
constexpr int kCorpusMinCount = 2;
// A corpus: at most this many words in the vocabulary. The model and its training memory grow with
// the vocabulary (docs/model.md, "Real text: the corpus defaults"); capped, they stop growing with
// the corpus, and the pointer still reverses the words beyond the cap by copying them.
constexpr int kCorpusMaxVocabulary = 10000;

// The nearest-rank `percentile` (1-100) of `lengths`: the smallest length that at least that share
// of them does not exceed. 0 for no lengths.
int lengthPercentile(std::vector<int> lengths, int percentile);

// The longest generated sentence: config.maxLength, or on auto kGeneratedMaxLength (never below
// the minimum length). A corpus's limit comes from its lengths: Dataset::maxLength.
int generatedMaxLength(const DatasetConfig &config);

// The data a config makes, in one line, for telling runs on other data apart: "reverse, the 34
// default words, 3-10 long, 8000/1000/1000 sentences, seed 42", or the corpus file's name.
std::string describeData(const DatasetConfig &config);

// The longest corpus line kept: config.maxLength, or on auto the kCorpusLengthPercentile of the
// lengths of the file's non-blank lines (never below the minimum length, nor above kLongestSentence).
int corpusMaxLength(const DatasetConfig &config, const std::vector<int> &lineLengths);

// The vocabulary's minimum word count: config.minCount, or on auto kCorpusMinCount for a corpus
// and 1 for generated sentences (whose words are all meant to be known).
int effectiveMinCount(const DatasetConfig &config);

// The vocabulary's largest size: config.maxVocabulary, or on auto kCorpusMaxVocabulary for a corpus
// and no limit (0) for generated sentences.
int effectiveMaxVocabulary(const DatasetConfig &config);

// The vocabulary of `data`'s training split under `config`'s minimum count and size limit.
Vocabulary vocabularyFor(const Dataset &data, const DatasetConfig &config);
