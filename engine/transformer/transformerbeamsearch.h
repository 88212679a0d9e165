#pragma once

#include "engine/core/beamsearch.h"
#include "engine/transformer/transformerinference.h"

#include <vector>

// One hypothesis of a Transformer's beam search.
struct TransformerHypothesis {
    DecodedIds decoded;  // its tokens (<EOS> last when said) and, when recorded, the attention taken on the way
    double logProb = 0;  // sum of log P(y_t | y_<t)
    double score = 0;    // logProb / |y|^alpha
};

struct TransformerBeam {
    std::vector<TransformerHypothesis> nbest;  // best score first
    std::vector<BeamStep> steps;               // the hypotheses kept at each step, as token ids
};

// Beam search (engine/core/beamsearch.h: options, length normalisation, n-best, ties) over
// `inference` with its key/value cache: each step runs the live hypotheses together as rows, each
// row extending its own copy of its parent's cached keys and values. Width 1 is
// inference.decode(), token for token. At most maxSteps tokens. Throws std::invalid_argument for
// invalid options or maxSteps below 1, std::out_of_range as TransformerInference::start() does.
TransformerBeam transformerBeamSearch(const TransformerInference &inference, const std::vector<int> &sourceIds,
                                      const BeamOptions &options, int maxSteps, bool recordAttention);
