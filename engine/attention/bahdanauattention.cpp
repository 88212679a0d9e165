#include "engine/attention/bahdanauattention.h"

#include "engine/fast/fastmath.h"

#include <cmath>
#include <limits>

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

namespace {

// Attention for one decoder step in loops over the rows: energy, scores, softmax and context
// forwards, their gradients backwards, where autograd recorded ten ops and a broadcast per step.
// `omp simd` (no threads) lets the sums vectorise in a fixed order; the buffers never overlap.
struct AdditiveAttention : torch::autograd::Function<AdditiveAttention> {
    static variable_list forward(AutogradContext *ctx, const torch::Tensor &queryIn, const torch::Tensor &keysIn,
                                 const torch::Tensor &valuesIn, const torch::Tensor &vIn, const torch::Tensor &maskBiasIn)
    {
        const auto query = queryIn.stride(1) == 1 ? queryIn : queryIn.contiguous();
        const auto keys = keysIn.contiguous(), values = valuesIn.contiguous();
        const auto v = vIn.contiguous(), maskBias = maskBiasIn.contiguous();
        const int64_t batch = keys.size(0), positions = keys.size(1), a = keys.size(2), h = values.size(2);
        auto energy = torch::empty({batch, positions, a}, keys.options());
        auto weights = torch::empty({batch, positions}, keys.options());
        auto context = torch::zeros({batch, h}, keys.options());
        const float *q = query.data_ptr<float>(), *k = keys.data_ptr<float>(), *x = values.data_ptr<float>();
        const float *vw = v.data_ptr<float>(), *bias = maskBias.data_ptr<float>();
        float *e = energy.data_ptr<float>(), *w = weights.data_ptr<float>(), *c = context.data_ptr<float>();
        for (int64_t b = 0; b < batch; ++b)
            additiveAttentionRow(q + b * query.stride(0), k + b * positions * a, x + b * positions * h, vw,
                                 bias + b * positions, e + b * positions * a, w + b * positions, c + b * h, positions, a,
                                 h);
        ctx->save_for_backward({energy, weights, values, v});
        return {context, weights};
    }

    static variable_list backward(AutogradContext *ctx, variable_list gradients)
    {
        const auto saved = ctx->get_saved_variables();
        const torch::Tensor &energy = saved[0], &weights = saved[1], &values = saved[2], &v = saved[3];
        const auto dContext = gradients[0].contiguous(), dWeights = gradients[1].contiguous();
        const int64_t batch = energy.size(0), positions = energy.size(1), a = energy.size(2), h = values.size(2);
        auto dQuery = torch::zeros({batch, a}, energy.options());
        auto dKeys = torch::empty({batch, positions, a}, energy.options());
        auto dValues = torch::empty({batch, positions, h}, energy.options());
        auto dV = torch::zeros({a}, energy.options());
        const float *e = energy.data_ptr<float>(), *w = weights.data_ptr<float>(), *x = values.data_ptr<float>();
        const float *vw = v.data_ptr<float>(), *dc = dContext.data_ptr<float>(), *dw = dWeights.data_ptr<float>();
        float *dq = dQuery.data_ptr<float>(), *dk = dKeys.data_ptr<float>(), *dx = dValues.data_ptr<float>();
        float *dv = dV.data_ptr<float>();
        std::vector<float> dScore(static_cast<std::size_t>(positions));
        for (int64_t b = 0; b < batch; ++b)
            additiveAttentionRowBackward(w + b * positions, e + b * positions * a, x + b * positions * h, vw,
                                         dc + b * h, dw + b * positions, dx + b * positions * h, dk + b * positions * a,
                                         dq + b * a, dv, /*accumulate=*/false, dScore.data(), positions, a, h);
        return {dQuery, dKeys, dValues, dV.view_as(v), torch::Tensor()};
    }
};

}

void additiveAttentionRow(const float *query, const float *keys, const float *values, const float *v,
                          const float *maskBias, float *energy, float *weights, float *context, int64_t positions,
                          int64_t attention, int64_t hidden)
{
    float highest = -std::numeric_limits<float>::infinity();
    for (int64_t s = 0; s < positions; ++s) {
        const float *ks = keys + s * attention;
        float *es = energy + s * attention;
        float score = 0;
#pragma omp simd reduction(+ : score)
        for (int64_t i = 0; i < attention; ++i) {
            es[i] = fastTanh(ks[i] + query[i]);
            score += es[i] * v[i];
        }
        weights[s] = score + (maskBias ? maskBias[s] : 0.0f);
        highest = std::max(highest, weights[s]);
    }
    float sum = 0;
    for (int64_t s = 0; s < positions; ++s)
        sum += (weights[s] = std::exp(weights[s] - highest));
    for (int64_t s = 0; s < positions; ++s) {
        weights[s] /= sum;
        const float *xs = values + s * hidden;
#pragma omp simd
        for (int64_t i = 0; i < hidden; ++i)
            context[i] += weights[s] * xs[i];
    }
}

namespace {

// additiveAttentionRowBackward() with its choices made outside the loops, so that they vectorise.
template <bool kAccumulate, bool kScoreWeight>
void rowBackward(const float *weights, const float *energy, const float *values, const float *v, const float *dContext,
                 const float *dWeights, float *dValues, float *dKeys, float *dQuery, float *dV, float *scratch,
                 int64_t positions, int64_t attention, int64_t hidden)
{
    float weighted = 0;
    for (int64_t s = 0; s < positions; ++s) {
        const float *xs = values + s * hidden;
        float *dxs = dValues + s * hidden;
        float g = dWeights ? dWeights[s] : 0.0f;
#pragma omp simd reduction(+ : g)
        for (int64_t i = 0; i < hidden; ++i) {
            g += dContext[i] * xs[i];
            if constexpr (kAccumulate)
                dxs[i] += weights[s] * dContext[i];
            else
                dxs[i] = weights[s] * dContext[i];
        }
        scratch[s] = g;
        weighted += weights[s] * g;
    }
    for (int64_t s = 0; s < positions; ++s) {
        const float ds = weights[s] * (scratch[s] - weighted);
        const float *es = energy + s * attention;
        float *dks = dKeys + s * attention;
#pragma omp simd
        for (int64_t i = 0; i < attention; ++i) {
            const float de = ds * v[i] * (1.0f - es[i] * es[i]);
            if constexpr (kAccumulate)
                dks[i] += de;
            else
                dks[i] = de;
            dQuery[i] += de;
            if constexpr (kScoreWeight)
                dV[i] += ds * es[i];
        }
    }
}

}

void additiveAttentionRowBackward(const float *weights, const float *energy, const float *values, const float *v,
                                  const float *dContext, const float *dWeights, float *dValues, float *dKeys,
                                  float *dQuery, float *dV, bool accumulate, float *scratch, int64_t positions,
                                  int64_t attention, int64_t hidden)
{
    const auto run = accumulate ? (dV ? rowBackward<true, true> : rowBackward<true, false>)
                                : (dV ? rowBackward<false, true> : rowBackward<false, false>);
    run(weights, energy, values, v, dContext, dWeights, dValues, dKeys, dQuery, dV, scratch, positions, attention,
        hidden);
}

BahdanauAttentionImpl::BahdanauAttentionImpl(int encoderSize, int decoderSize, int attentionSize)
    : W_h(torch::nn::LinearOptions(encoderSize, attentionSize).bias(false))
    , W_s(torch::nn::LinearOptions(decoderSize, attentionSize).bias(false))
    , v(torch::nn::LinearOptions(attentionSize, 1).bias(false))
{
    register_module("W_h", W_h);
    register_module("W_s", W_s);
    register_module("v", v);
}

torch::Tensor BahdanauAttentionImpl::keys(const torch::Tensor &encoderOutputs)
{
    return W_h(encoderOutputs);
}

std::pair<torch::Tensor, torch::Tensor> BahdanauAttentionImpl::attend(const torch::Tensor &query, const torch::Tensor &keys,
                                                                      const torch::Tensor &values,
                                                                      const torch::Tensor &maskBias)
{
    return additiveAttention(query, keys, values, v->weight, maskBias);
}

std::pair<torch::Tensor, torch::Tensor> additiveAttention(const torch::Tensor &query, const torch::Tensor &keys,
                                                          const torch::Tensor &values, const torch::Tensor &scoreWeight,
                                                          const torch::Tensor &maskBias)
{
    const auto out = AdditiveAttention::apply(query, keys, values, scoreWeight, maskBias);
    return {out[0], out[1]};
}
