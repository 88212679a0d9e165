#pragma once

#include <memory>
#include <vector>

class TransformerNetImpl;

// One attention's weights in every layer and head: weights[layer][head] is a rows x columns
// matrix, row-major.
struct LayeredAttention {
    int rows = 0;
    int columns = 0;
    std::vector<std::vector<std::vector<float>>> weights;
};

// One sentence decoded greedily: the output ids (<EOS> included when the model said it) and,
// when asked for, every attention taken on the way.
struct DecodedIds {
    std::vector<int> output;
    LayeredAttention encoderSelf;  // source x source
    LayeredAttention decoderSelf;  // output x output, 0 above the diagonal
    LayeredAttention cross;        // output x source
};

// Greedy decoding of one sentence written out over plain float arrays, on the calling thread: the
// arithmetic of greedyDecode() with the key/value cache, without LibTorch's cost per op, which
// is most of a step's time when each product has one row. Built from a copy of the network's
// weights; const after that, so threads may share one.
class TransformerInference
{
public:
    explicit TransformerInference(TransformerNetImpl &net);
    ~TransformerInference();

    // sourceIds: the sentence's ids, <EOS> last. At most maxSteps tokens.
    DecodedIds decode(const std::vector<int> &sourceIds, int maxSteps, bool recordAttention) const;

private:
    struct Weights;
    std::unique_ptr<const Weights> m_weights;
};
