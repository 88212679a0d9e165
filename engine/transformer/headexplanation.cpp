#include "engine/transformer/headexplanation.h"

#include "engine/core/vocabulary.h"
#include "engine/transformer/transformermodel.h"

#include <stdexcept>
#include <string>

namespace {

std::vector<int> headTokenIds(const std::vector<std::string> &tokens, const Vocabulary &vocabulary)
{
    std::vector<int> ids;
    for (const std::string &token : tokens)
        ids.push_back(vocabulary.id(token));
    return ids;
}

// The sentence through `inference` again, its outputs read back: what each attention projected from.
AttentionInputs replayedInputs(const TransformerInference &inference, const Vocabulary &vocabulary,
                               const TransformerOutput &output)
{
    if (output.sourceTokens.empty() || output.sourceTokens.back() != vocabulary.word(Vocabulary::kEos))
        throw std::invalid_argument("the sentence is not one this model decoded: its source does not end in <EOS>");
    AttentionInputs inputs;
    inference.teacherForced(headTokenIds(output.sourceTokens, vocabulary), headTokenIds(output.outputTokens, vocabulary), inputs);
    return inputs;
}

// rows (count x d_model) W + b, in double: count x d_k.
std::vector<double> projectRows(const std::vector<float> &rows, const std::vector<float> &weight,
                            const std::vector<float> &bias, int modelSize)
{
    const std::size_t dK = bias.size();
    const std::size_t count = rows.size() / std::size_t(modelSize);
    std::vector<double> projected(count * dK);
    for (std::size_t r = 0; r < count; ++r)
        for (std::size_t c = 0; c < dK; ++c) {
            double sum = bias[c];
            for (std::size_t i = 0; i < std::size_t(modelSize); ++i)
                sum += double(rows[r * std::size_t(modelSize) + i]) * double(weight[i * dK + c]);
            projected[r * dK + c] = sum;
        }
    return projected;
}

std::vector<double> headInputRow(const std::vector<float> &rows, int width, int r)
{
    const auto first = rows.begin() + std::ptrdiff_t(r) * width;
    return std::vector<double>(first, first + width);
}

std::vector<double> asDoubles(const std::vector<float> &values)
{
    return std::vector<double>(values.begin(), values.end());
}

const char *transformerKindName(TransformerAttentionKind kind)
{
    switch (kind) {
    case TransformerAttentionKind::EncoderSelf: return "the encoder's self-attention";
    case TransformerAttentionKind::DecoderSelf: return "the decoder's self-attention";
    case TransformerAttentionKind::Cross: break;
    }
    return "the cross-attention";
}

}  // namespace

HeadExplanation explainHead(const TransformerInference &inference, const Vocabulary &vocabulary,
                            const TransformerOutput &output, TransformerAttentionKind kind, int layer, int head,
                            int query, int key)
{
    const HeadProjections p = inference.headProjections(kind, layer, head);
    const AttentionInputs inputs = replayedInputs(inference, vocabulary, output);
    const std::size_t l = std::size_t(layer);
    const std::vector<float> &queryRows = kind == TransformerAttentionKind::EncoderSelf ? inputs.encoderSelf[l]
                                          : kind == TransformerAttentionKind::DecoderSelf ? inputs.decoderSelf[l]
                                                                                          : inputs.crossQueries[l];
    const std::vector<float> &keyRows = kind == TransformerAttentionKind::EncoderSelf ? inputs.encoderSelf[l]
                                        : kind == TransformerAttentionKind::DecoderSelf ? inputs.decoderSelf[l]
                                                                                        : inputs.memory;
    const int queries = int(queryRows.size()) / p.modelSize;
    const int keys = int(keyRows.size()) / p.modelSize;
    if (query < 0 || query >= queries || key < 0 || key >= keys)
        throw std::invalid_argument("no cell (" + std::to_string(query + 1) + ", " + std::to_string(key + 1) + ") in " +
                                    transformerKindName(kind) + " of this sentence, " + std::to_string(queries) + " x " +
                                    std::to_string(keys));

    HeadExplanation e;
    e.kind = kind;
    e.layer = layer;
    e.head = head;
    e.preNorm = inference.preNorm();
    e.modelSize = p.modelSize;
    e.queryInput = headInputRow(queryRows, p.modelSize, query);
    e.keyInput = headInputRow(keyRows, p.modelSize, key);
    e.queryBias = asDoubles(p.bq);
    e.keyBias = asDoubles(p.bk);
    e.valueBias = asDoubles(p.bv);
    const std::vector<double> queriesProjected = projectRows(queryRows, p.wq, p.bq, p.modelSize);
    const auto q = queriesProjected.begin() + std::ptrdiff_t(query) * p.headSize;
    // A decoder step sees itself and the steps before it; the rest of its row is masked.
    const int visible = kind == TransformerAttentionKind::DecoderSelf ? query + 1 : keys;
    e.attention = explainScaledDot(std::vector<double>(q, q + p.headSize), projectRows(keyRows, p.wk, p.bk, p.modelSize),
                                   projectRows(keyRows, p.wv, p.bv, p.modelSize), keys, query, key, visible);
    return e;
}

AttentionHead encoderSelfAttentionHead(const TransformerInference &inference, const Vocabulary &vocabulary,
                                       const TransformerOutput &output, int layer, int head)
{
    AttentionHead shared;
    shared.projections = inference.headProjections(TransformerAttentionKind::EncoderSelf, layer, head);
    shared.x = replayedInputs(inference, vocabulary, output).encoderSelf[std::size_t(layer)];
    shared.tokens = output.sourceTokens;
    return shared;
}
