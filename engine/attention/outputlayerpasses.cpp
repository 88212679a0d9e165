#include "engine/attention/outputlayerpasses.h"

#include "engine/attention/pointermixture.h"
#include "engine/core/maskedloss.h"
#include "engine/core/vocabulary.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace outputlayerpasses {

namespace {

int64_t realTokens(const torch::Tensor &target)
{
    return (target != Vocabulary::kPad).sum().item<int64_t>();
}

int64_t vocabularySizeOf(Seq2SeqNet &net)
{
    return net->decoder->embedding->weight.size(0);
}

}

StepTargets StepTargets::range(int64_t begin, int64_t end) const
{
    return {target.slice(1, begin, end), targetExtended.defined() ? targetExtended.slice(1, begin, end) : targetExtended,
            sourceExtended};
}

int64_t stepsPerPass(int64_t rows, int64_t vocabularySize, int64_t floats)
{
    return std::max<int64_t>(1, floats / std::max<int64_t>(1, rows * vocabularySize));
}

torch::Tensor meanTokenLoss(const TeacherForcedOutput &out, const StepTargets &targets)
{
    if (!out.copyGate.defined())
        return maskedCrossEntropy(out.logits, targets.target);
    return maskedPointerLoss(out.logits, out.weights, out.copyGate, targets.sourceExtended, targets.targetExtended);
}

torch::Tensor predictions(const TeacherForcedOutput &out, const StepTargets &targets)
{
    if (!out.copyGate.defined())
        return out.logits.argmax(2);
    return pointerDistribution(out.logits, out.weights, out.copyGate, targets.sourceExtended).argmax(2);
}

double backwardTokenLoss(Seq2SeqNet &net, const FusedDecoderWeights &w, const DecoderStates &states,
                         const StepTargets &targets, double batchTokens, int64_t floats)
{
    const int64_t steps = states.steps();
    const int64_t perPass = stepsPerPass(states.output.size(0), vocabularySizeOf(net), floats);
    if (perPass >= steps) {
        const auto loss = meanTokenLoss(net->outputs(w, states), targets) * (double(realTokens(targets.target)) / batchTokens);
        const double value = loss.item<double>();
        if (std::isfinite(value))
            loss.backward();
        return value;
    }
    // The output layer reads detached copies of the states. Each range's gradients, for those
    // copies and for the output layer's own weights, are summed here in order; then one backward
    // pass carries them through the decoder and adds them to the weights. So every weight takes one
    // sum from each shard, as with a single pass, and a run on two threads repeats exactly: the
    // other shard's sum may be added first or second, and a sum of two is the same either way.
    const DecoderStates leaves = states.detachedLeaves();
    const std::vector<torch::Tensor> decoder = states.tensors();
    std::vector<torch::Tensor> inputs = leaves.tensors();
    for (const torch::Tensor &p : net->decoder->out->parameters())
        inputs.push_back(p);
    if (net->decoder->hasPointer())
        for (const torch::Tensor &p : net->decoder->copyGate->parameters())
            inputs.push_back(p);
    std::vector<torch::Tensor> sums(inputs.size());
    double total = 0;
    for (int64_t begin = 0; begin < steps; begin += perPass) {
        const int64_t end = std::min(steps, begin + perPass);
        const StepTargets part = targets.range(begin, end);
        const int64_t tokens = realTokens(part.target);
        if (tokens == 0)
            continue;
        const auto loss = meanTokenLoss(net->outputs(w, leaves.range(begin, end)), part) * (double(tokens) / batchTokens);
        const double value = loss.item<double>();
        total += value;
        if (!std::isfinite(value))
            return total;
        const std::vector<torch::Tensor> gradients =
            torch::autograd::grad({loss}, inputs, {}, /*retain_graph=*/false, /*create_graph=*/false, /*allow_unused=*/true);
        for (std::size_t i = 0; i < inputs.size(); ++i)
            if (gradients[i].defined())
                sums[i] = sums[i].defined() ? sums[i] + gradients[i] : gradients[i];
    }
    std::vector<torch::Tensor> roots, gradients;
    for (std::size_t i = 0; i < inputs.size(); ++i)
        if (sums[i].defined()) {
            roots.push_back(i < decoder.size() ? decoder[i] : inputs[i]);
            gradients.push_back(sums[i]);
        }
    torch::autograd::backward(roots, gradients);
    return total;
}

FreeRunningScore scoreFreeRunning(Seq2SeqNet &net, const FusedDecoderWeights &w, const DecoderStates &states,
                                  const StepTargets &targets, int64_t floats)
{
    torch::NoGradGuard noGrad;
    const int64_t rows = states.output.size(0), steps = states.steps();
    const int64_t perPass = stepsPerPass(rows, vocabularySizeOf(net), floats);
    FreeRunningScore score;
    torch::Tensor wrong = torch::zeros({rows}, torch::kBool);
    for (int64_t begin = 0; begin < steps; begin += perPass) {
        const int64_t end = std::min(steps, begin + perPass);
        const StepTargets part = targets.range(begin, end);
        const TeacherForcedOutput out = net->outputs(w, states.range(begin, end));
        // Without the pointer an <UNK> predicted for an unknown word counts as right: decoding
        // replaces it by the source word attended to most.
        const torch::Tensor &target = out.copyGate.defined() ? part.targetExtended : part.target;
        const auto real = target != Vocabulary::kPad;
        const int64_t tokens = real.sum().item<int64_t>();
        if (tokens == 0)
            continue;
        score.lossSum += meanTokenLoss(out, part).item<double>() * double(tokens);
        score.tokens += tokens;
        // A row matches when every real target position (words and <EOS>) is predicted.
        wrong.logical_or_(predictions(out, part).ne(target).logical_and(real).any(1));
    }
    score.exactRows = rows - wrong.sum().item<int64_t>();
    return score;
}

}
