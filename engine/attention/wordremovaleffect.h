#pragma once

#include "engine/attention/decodedsentence.h"
#include "engine/core/attributionmethods.h"
#include "engine/core/rankcorrelation.h"
#include "engine/core/sentencepair.h"

#include <string>
#include <vector>

class Seq2SeqModel;

// Does attention explain the output? (Jain & Wallace 2019; Serrano & Smith 2019.) Each input word
// is taken out in turn and the model's own greedy output y is scored again: if the words the model
// attends to most are the ones it needs, removing them costs y the most log-probability. The
// ways of taking a word out (RemovalMode) are occlusion's, in engine/core/attributionmethods.h.

// What taking out one input word does.
struct WordRemoval {
    std::string word;
    double attention = 0;     // the weight the word received in y's decode, summed over y's steps
    double peakAttention = 0; // its largest weight at any one step
    // log P(y | source) - log P(y | changed source), y scored by teacher forcing. y is scored as
    // it is, the removed word included: in drop mode the model must then write a word that is no
    // longer in its input, and how much that costs is the point.
    double logProbFall = 0;
    std::vector<std::string> changedOutput;  // the greedy output of the changed source (words)
    bool changedOutputExpected = false;      // it is what the task asks of the changed source
    bool outputUnchanged = false;            // it is y
};

struct WordRemovalEffect {
    RemovalMode mode = RemovalMode::Drop;
    DecodedSentence original;  // y: the greedy decode of the sentence, with its attention
    double logProb = 0;        // log P(y | source)
    std::vector<WordRemoval> words;  // one per input word, in input order
    // Spearman's rank correlation between `attention` and `logProbFall` over the words. NaN when
    // it is undefined: fewer than kMinimumCorrelatedWords words, or either side all equal.
    double spearman = 0;
};

// The effect of removing each word of `words` (cut to Seq2SeqModel::kMaxInputTokens, as decoding
// cuts it). The n changed sources are scored in one batch and decoded in another. Throws
// std::invalid_argument for a model without attention (there is no attention to compare) and for
// fewer than two words (removing the only word leaves nothing to read).
WordRemovalEffect measureWordRemoval(const Seq2SeqModel &model, const std::vector<std::string> &words,
                                     RemovalMode mode);

// The measurement over a set of sentences (their sources), in data order; as above.
std::vector<WordRemovalEffect> measureWordRemovalOnSentences(const Seq2SeqModel &model,
                                                             const std::vector<SentencePair> &data, RemovalMode mode);

// Over many sentences: how the per-sentence correlations are spread, and how often removing a
// word changes the output.
struct WordRemovalSummary {
    int sentences = 0;
    int words = 0;
    int correlatedSentences = 0;       // with a defined correlation
    double meanSpearman = 0;           // over those; NaN without any
    double medianSpearman = 0;         // over those; NaN without any
    double meanLogProbFall = 0;        // over every word; NaN without words
    int changedOutputs = 0;            // words whose removal changes the greedy output from y
    int expectedOutputs = 0;           // words whose changed source decodes to what the task asks of it
};

WordRemovalSummary summarizeWordRemoval(const std::vector<WordRemovalEffect> &effects);
