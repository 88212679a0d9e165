#pragma once

#include <vector>

// The Transformer's layers as TransformerInference runs them: plain float arrays, row-major, and
// the few products, norms and attentions a decoding step is made of.
namespace floatlayers {

// A linear layer as the products read it: the weight transposed (in x out, row-major) and the bias.
struct Linear {
    int in = 0;
    int out = 0;
    std::vector<float> transposed;
    std::vector<float> bias;
};

struct Norm {
    std::vector<float> gamma;
    std::vector<float> beta;
};

struct Attention {
    Linear in;  // out = 3d: the queries', keys' and values' projections side by side
    Linear out;
};

struct Layer {
    Attention self;
    Attention cross;  // decoder layers only
    Linear feedForward1;
    Linear feedForward2;
    Norm norm1, norm2, norm3;  // norm3: decoder layers only
};

// Where attend() reads a matrix: rows `stride` floats apart.
struct Rows {
    const float *data;
    int stride;
};

// y (rows x count) = x (rows x in) W^T + b over the output columns [first, first + count).
void apply(const Linear &layer, const float *x, int rows, float *y, int first, int count);
void apply(const Linear &layer, const float *x, int rows, float *y);

// Rows of `width` normalised, then scaled and shifted. In place is fine: a row's statistics are
// taken before it is written.
void layerNorm(const Norm &norm, const float *x, int rows, int width, float *y);

// Per head: out = softmax(q k^T / sqrt(d_k)) v for `queries` queries over `keys` keys, all keys
// visible. out is queries x (heads * d_k). With headWeights, head h's weight of query i on key j
// goes to headWeights[h][i * keys + j].
void attend(Rows q, Rows k, Rows v, int queries, int keys, int heads, int headSize, float *out,
            float *const *headWeights);

// x (width) = the token's row of `table` times sqrt(width) plus its position's row of `positions`.
// Throws std::out_of_range for an id outside the table.
void embedToken(const std::vector<float> &table, const std::vector<float> &positions, int width, int id, int position,
                float *x);

// The pattern every sublayer follows (residual() in sublayers.h), with its scratch space.
class Sublayers
{
public:
    Sublayers(int width, bool preNorm) : m_width(width), m_preNorm(preNorm) {}

    // x (rows x width) += f(x), normed before f (pre-LN) or after the sum (post-LN), in place.
    // f(in, out) writes rows x width to `out`.
    template <typename Function>
    void run(std::vector<float> &x, int rows, const Norm &norm, const Function &f)
    {
        m_normed.resize(x.size());
        m_change.resize(x.size());
        if (m_preNorm) {
            layerNorm(norm, x.data(), rows, m_width, m_normed.data());
            f(m_normed.data(), m_change.data());
        } else {
            f(x.data(), m_change.data());
        }
        for (std::size_t i = 0; i < x.size(); ++i)
            x[i] += m_change[i];
        if (!m_preNorm)
            layerNorm(norm, x.data(), rows, m_width, x.data());
    }

    // The feed-forward sublayer of `layer`: two linear layers with a ReLU between.
    void feedForward(std::vector<float> &x, int rows, const Layer &layer, const Norm &norm);

private:
    int m_width;
    bool m_preNorm;
    std::vector<float> m_normed, m_change, m_hidden;
};

}  // namespace floatlayers
