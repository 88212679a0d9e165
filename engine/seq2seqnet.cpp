#include "seq2seqnet.h"

#include "vocabulary.h"

Seq2SeqNetImpl::Seq2SeqNetImpl(int vocabularySize, const ModelConfig &config)
    : encoder(vocabularySize, config)
    , decoder(vocabularySize, config)
{
    register_module("encoder", encoder);
    register_module("decoder", decoder);
}

DecoderMemory Seq2SeqNetImpl::encode(const torch::Tensor &source, const torch::Tensor &lengths, torch::Tensor *hidden)
{
    auto encoded = encoder(source, lengths);
    *hidden = encoded.hidden;
    return {encoded.outputs, decoder->attention->keys(encoded.outputs), source != Vocabulary::kPad};
}

torch::Tensor Seq2SeqNetImpl::forward(const torch::Tensor &source, const torch::Tensor &lengths,
                                      const torch::Tensor &target, const std::function<bool()> &teacherForce)
{
    torch::Tensor hidden;
    const DecoderMemory memory = encode(source, lengths, &hidden);
    torch::Tensor input = target.select(1, 0);
    std::vector<torch::Tensor> logits;
    const int64_t steps = target.size(1) - 1;
    for (int64_t t = 1; t <= steps; ++t) {
        auto step = decoder(input, hidden, memory);
        hidden = step.hidden;
        logits.push_back(step.logits);
        if (t < steps)
            input = teacherForce() ? target.select(1, t) : step.logits.argmax(1);
    }
    return torch::stack(logits, 1);
}

GreedyOutput Seq2SeqNetImpl::greedy(const torch::Tensor &source, const torch::Tensor &lengths, int maxSteps)
{
    torch::Tensor hidden;
    const DecoderMemory memory = encode(source, lengths, &hidden);
    const int64_t batch = source.size(0);
    torch::Tensor input = torch::full({batch}, Vocabulary::kSos, torch::kLong);
    torch::Tensor done = torch::zeros({batch}, torch::kBool);
    std::vector<torch::Tensor> tokens, weights;
    for (int t = 0; t < maxSteps; ++t) {
        auto step = decoder(input, hidden, memory);
        hidden = step.hidden;
        input = step.logits.argmax(1);
        tokens.push_back(input);
        weights.push_back(step.weights);
        done = done.logical_or(input == Vocabulary::kEos);
        if (done.all().item<bool>())
            break;
    }
    return {torch::stack(tokens, 1), torch::stack(weights, 1)};
}
