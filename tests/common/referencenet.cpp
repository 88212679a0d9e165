#include "tests/common/referencenet.h"

#include "engine/core/vocabulary.h"

#include <limits>

EncoderOutput referenceEncode(Encoder &encoder, const torch::Tensor &source, const torch::Tensor &lengths)
{
    namespace rnn = torch::nn::utils::rnn;
    const int64_t batch = source.size(0);
    const int64_t layers = encoder->gru->options.num_layers();
    const int64_t directions = encoder->gru->options.bidirectional() ? 2 : 1;
    const auto packed = rnn::pack_padded_sequence(encoder->embedding(source), lengths, /*batch_first=*/true,
                                                  /*enforce_sorted=*/false);
    auto [packedOut, hidden] = encoder->gru->forward_with_packed_input(packed);
    const auto outputs = std::get<0>(rnn::pad_packed_sequence(packedOut, /*batch_first=*/true, /*padding_value=*/0.0,
                                                              /*total_length=*/source.size(1)));
    hidden = hidden.view({layers, directions, batch, -1}).permute({0, 2, 1, 3}).reshape({layers, batch, -1});
    return {outputs, encoder->bridge ? torch::tanh(encoder->bridge(hidden)) : torch::zeros_like(hidden)};
}

std::pair<torch::Tensor, torch::Tensor> referenceAttention(BahdanauAttention &attention, const torch::Tensor &state,
                                                           const torch::Tensor &keys, const torch::Tensor &values,
                                                           const torch::Tensor &mask)
{
    const auto energy = torch::tanh(keys + attention->W_s(state).unsqueeze(1));
    const auto scores = attention->v(energy).squeeze(2).masked_fill(mask.logical_not(),
                                                                    -std::numeric_limits<float>::infinity());
    const auto weights = torch::softmax(scores, 1);
    return {torch::bmm(weights.unsqueeze(1), values).squeeze(1), weights};
}

ReferenceStep referenceStep(Decoder &decoder, const torch::Tensor &token, const torch::Tensor &hidden,
                            const DecoderMemory &memory)
{
    const auto embedded = decoder->dropout(decoder->embedding(token));
    auto [context, weights] = referenceAttention(decoder->attention, hidden[-1], memory.keys, memory.values, memory.mask);
    auto [output, next] = decoder->gru(torch::cat({embedded, context}, 1).unsqueeze(1), hidden);
    return {decoder->out(torch::cat({output.squeeze(1), context, embedded}, 1)), next, weights};
}

torch::Tensor referenceUnroll(Seq2SeqNet &net, const torch::Tensor &source, const torch::Tensor &lengths,
                              const torch::Tensor &target, const std::vector<bool> &coins)
{
    torch::Tensor hidden;
    const DecoderMemory memory = net->encode(source, lengths, &hidden);
    torch::Tensor input = target.select(1, 0);
    std::vector<torch::Tensor> logits;
    const int64_t steps = target.size(1) - 1;
    std::size_t coin = 0;
    for (int64_t t = 1; t <= steps; ++t) {
        const ReferenceStep step = referenceStep(net->decoder, input, hidden, memory);
        hidden = step.hidden;
        logits.push_back(step.logits);
        if (t < steps)
            input = coins[coin++] ? target.select(1, t) : step.logits.argmax(1);
    }
    return torch::stack(logits, 1);
}

GreedyOutput referenceGreedy(Seq2SeqNet &net, const torch::Tensor &source, const torch::Tensor &lengths, int steps)
{
    const EncoderOutput encoded = referenceEncode(net->encoder, source, lengths);
    const DecoderMemory memory{encoded.outputs, net->decoder->keys(encoded.outputs), source != Vocabulary::kPad, {}};
    torch::Tensor hidden = encoded.hidden;
    torch::Tensor input = torch::full({source.size(0)}, Vocabulary::kSos, torch::kLong);
    std::vector<torch::Tensor> tokens, weights;
    for (int t = 0; t < steps; ++t) {
        const ReferenceStep step = referenceStep(net->decoder, input, hidden, memory);
        hidden = step.hidden;
        input = step.logits.argmax(1);
        tokens.push_back(input);
        weights.push_back(step.weights);
    }
    return {torch::stack(tokens, 1), torch::stack(weights, 1)};
}
