#include "tests/common/referencenet.h"

#include "engine/core/vocabulary.h"

#include <limits>

EncoderOutput referenceEncode(Encoder &encoder, const torch::Tensor &source, const torch::Tensor &lengths)
{
    namespace rnn = torch::nn::utils::rnn;
    const int64_t batch = source.size(0);
    const int64_t layers = encoder->layers();
    const int64_t directions = encoder->directions();
    const auto packed = rnn::pack_padded_sequence(encoder->embedding(source), lengths, /*batch_first=*/true,
                                                  /*enforce_sorted=*/false);
    const auto run = [&]() -> std::tuple<rnn::PackedSequence, torch::Tensor, torch::Tensor> {
        if (encoder->recurrent.lstm) {
            auto [out, state] = encoder->recurrent.lstm->forward_with_packed_input(packed);
            return {out, std::get<0>(state), std::get<1>(state)};
        }
        auto [out, state] = encoder->recurrent.rnn ? encoder->recurrent.rnn->forward_with_packed_input(packed)
                                         : encoder->recurrent.gru->forward_with_packed_input(packed);
        return {out, state, {}};
    };
    auto [packedOut, hidden, cells] = run();
    const auto outputs = std::get<0>(rnn::pad_packed_sequence(packedOut, /*batch_first=*/true, /*padding_value=*/0.0,
                                                              /*total_length=*/source.size(1)));
    const auto byLayer = [&](const torch::Tensor &t) {
        return t.view({layers, directions, batch, -1}).permute({0, 2, 1, 3}).reshape({layers, batch, -1});
    };
    hidden = byLayer(hidden);
    EncoderOutput out{outputs, encoder->bridge ? torch::tanh(encoder->bridge(hidden)) : torch::zeros_like(hidden), {}};
    if (cells.defined())
        out.cells = encoder->bridge ? byLayer(cells) : torch::zeros_like(hidden);
    return out;
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
                            const DecoderMemory &memory, const torch::Tensor &cells)
{
    const auto embedded = decoder->dropout(decoder->embedding(token));
    auto [context, weights] = referenceAttention(decoder->attention, hidden[-1], memory.keys, memory.values, memory.mask);
    const auto input = torch::cat({embedded, context}, 1).unsqueeze(1);
    torch::Tensor output, next, nextCells;
    if (decoder->recurrent.lstm) {
        std::tuple<torch::Tensor, torch::Tensor> state;
        std::tie(output, state) = decoder->recurrent.lstm(input, std::make_tuple(hidden, cells));
        std::tie(next, nextCells) = state;
    } else if (decoder->recurrent.rnn)
        std::tie(output, next) = decoder->recurrent.rnn(input, hidden);
    else
        std::tie(output, next) = decoder->recurrent.gru(input, hidden);
    return {decoder->out(torch::cat({output.squeeze(1), context, embedded}, 1)), next, weights, nextCells};
}

torch::Tensor referenceUnroll(Seq2SeqNet &net, const torch::Tensor &source, const torch::Tensor &lengths,
                              const torch::Tensor &target, const std::vector<bool> &coins)
{
    DecoderState start;
    const DecoderMemory memory = net->encode(source, lengths, &start);
    torch::Tensor hidden = torch::stack(start.layers);
    torch::Tensor cells = start.cells.empty() ? torch::Tensor() : torch::stack(start.cells);
    torch::Tensor input = target.select(1, 0);
    std::vector<torch::Tensor> logits;
    const int64_t steps = target.size(1) - 1;
    std::size_t coin = 0;
    for (int64_t t = 1; t <= steps; ++t) {
        const ReferenceStep step = referenceStep(net->decoder, input, hidden, memory, cells);
        hidden = step.hidden;
        cells = step.cells;
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
    torch::Tensor hidden = encoded.hidden, cells = encoded.cells;
    torch::Tensor input = torch::full({source.size(0)}, Vocabulary::kSos, torch::kLong);
    std::vector<torch::Tensor> tokens, weights;
    for (int t = 0; t < steps; ++t) {
        const ReferenceStep step = referenceStep(net->decoder, input, hidden, memory, cells);
        hidden = step.hidden;
        cells = step.cells;
        input = step.logits.argmax(1);
        tokens.push_back(input);
        weights.push_back(step.weights);
    }
    return {torch::stack(tokens, 1), torch::stack(weights, 1)};
}
