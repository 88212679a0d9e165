#include "engine/transformer/greedydecoding.h"

#include "engine/core/vocabulary.h"

namespace {

// Each layer's per-step weights joined along the steps; the self-attention's rows, one longer per
// step, padded with zeros to the last step's length first.
std::vector<torch::Tensor> joinSteps(const std::vector<std::vector<torch::Tensor>> &steps, bool pad)
{
    std::vector<torch::Tensor> joined;
    if (steps.empty())
        return joined;
    for (size_t layer = 0; layer < steps.front().size(); ++layer) {
        std::vector<torch::Tensor> rows;
        const int64_t width = steps.back()[layer].size(3);
        for (const std::vector<torch::Tensor> &step : steps) {
            const torch::Tensor &row = step[layer];
            rows.push_back(pad ? torch::constant_pad_nd(row, {0, width - row.size(3)}) : row);
        }
        joined.push_back(torch::cat(rows, 2));
    }
    return joined;
}

}  // namespace

GreedyDecoding greedyDecode(TransformerNetImpl &net, const torch::Tensor &source, const torch::Tensor &sourceMask,
                            int maxSteps, bool recordAttention)
{
    torch::NoGradGuard noGrad;
    GreedyDecoding result;
    const EncodedSource encoded = net.encode(source, sourceMask, recordAttention ? &result.attention : nullptr);
    const int64_t batch = source.size(0);
    torch::Tensor previous = torch::full({batch}, int64_t(Vocabulary::kSos), torch::kInt64);
    torch::Tensor done = torch::zeros({batch}, torch::kBool);
    std::vector<DecoderLayerCache> caches;
    std::vector<torch::Tensor> tokens;
    std::vector<std::vector<torch::Tensor>> selfSteps, crossSteps;
    for (int step = 0; step < maxSteps; ++step) {
        TransformerAttention stepAttention;
        const torch::Tensor logits =
            net.decodeStep(encoded, previous, step, caches, recordAttention ? &stepAttention : nullptr);
        torch::Tensor next = logits.argmax(-1).masked_fill(done, int64_t(Vocabulary::kPad));
        tokens.push_back(next);
        selfSteps.push_back(std::move(stepAttention.decoderSelf));
        crossSteps.push_back(std::move(stepAttention.cross));
        done = done.logical_or(next == Vocabulary::kEos);
        previous = next;
        if (done.all().item<bool>())
            break;
    }
    result.tokens = tokens.empty() ? torch::zeros({batch, 0}, torch::kInt64) : torch::stack(tokens, 1);
    if (recordAttention) {
        result.attention.decoderSelf = joinSteps(selfSteps, true);
        result.attention.cross = joinSteps(crossSteps, false);
    }
    return result;
}
