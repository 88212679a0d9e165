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
        for (int64_t b = 0; b < batch; ++b) {
            const float *qb = q + b * query.stride(0);
            float *wb = w + b * positions;
            float highest = -std::numeric_limits<float>::infinity();
            for (int64_t s = 0; s < positions; ++s) {
                const float *ks = k + (b * positions + s) * a;
                float *es = e + (b * positions + s) * a;
                float score = 0;
#pragma omp simd reduction(+ : score)
                for (int64_t i = 0; i < a; ++i) {
                    es[i] = fastTanh(ks[i] + qb[i]);
                    score += es[i] * vw[i];
                }
                wb[s] = score + bias[b * positions + s];
                highest = std::max(highest, wb[s]);
            }
            float sum = 0;
            for (int64_t s = 0; s < positions; ++s)
                sum += (wb[s] = std::exp(wb[s] - highest));
            float *cb = c + b * h;
            for (int64_t s = 0; s < positions; ++s) {
                wb[s] /= sum;
                const float *xs = x + (b * positions + s) * h;
#pragma omp simd
                for (int64_t i = 0; i < h; ++i)
                    cb[i] += wb[s] * xs[i];
            }
        }
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
        for (int64_t b = 0; b < batch; ++b) {
            const float *dcb = dc + b * h, *wb = w + b * positions;
            float weighted = 0;
            for (int64_t s = 0; s < positions; ++s) {
                const float *xs = x + (b * positions + s) * h;
                float *dxs = dx + (b * positions + s) * h;
                float g = dw[b * positions + s];
#pragma omp simd reduction(+ : g)
                for (int64_t i = 0; i < h; ++i) {
                    g += dcb[i] * xs[i];
                    dxs[i] = wb[s] * dcb[i];
                }
                dScore[std::size_t(s)] = g;
                weighted += wb[s] * g;
            }
            float *dqb = dq + b * a;
            for (int64_t s = 0; s < positions; ++s) {
                const float ds = wb[s] * (dScore[std::size_t(s)] - weighted);
                const float *es = e + (b * positions + s) * a;
                float *dks = dk + (b * positions + s) * a;
#pragma omp simd
                for (int64_t i = 0; i < a; ++i) {
                    const float de = ds * vw[i] * (1.0f - es[i] * es[i]);
                    dks[i] = de;
                    dqb[i] += de;
                    dv[i] += ds * es[i];
                }
            }
        }
        return {dQuery, dKeys, dValues, dV.view_as(v), torch::Tensor()};
    }
};

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
