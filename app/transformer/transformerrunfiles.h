#pragma once

#include "app/transformer/transformerrun.h"
#include "engine/core/epochstats.h"
#include "engine/transformer/transformermodel.h"

#include <QJsonObject>
#include <QString>

#include <string>
#include <vector>

struct Dataset;

// What the Transformer's commands write, with the RNN's keys where the two mean the same.
namespace transformerrunfiles {

// A score as the RNN's metrics.json gives its test split: "sentences", "exact_match",
// "token_accuracy", "decoding" and "by_length" (per length: "correct", "total", "exact_match").
QJsonObject scoreJson(const TransformerScore &score);
QJsonObject byLengthJson(const TransformerScore &score);
// metrics.json of `attnscope train --architecture transformer`: "architecture", "epochs" (with
// "learning_rate", "gradient_norm" and "val_exact_fall" where validation fell), "best_epoch",
// "status", "message", "test", "config" ("model" with "parameters", "training", "dataset" with
// "vocabulary_size") and "effective_settings" (what the data settings on auto came to).
QJsonObject metricsJson(const TransformerModel &model, const Dataset &data, const DatasetConfig &dataset,
                        const TransformerTrainingConfig &training, const TransformerRunEnd &end,
                        const TransformerScore &test);
// loss_curve.csv: one row per batch, "epochs_done" (2.5: halfway through the third epoch) first.
std::string lossCurveCsv(const std::vector<BatchProgress> &batches);
// What `attnscope reverse --architecture transformer --json` prints: the RNN's keys ("attention" is
// the last decoder layer's cross-attention, the mean of its heads), then "decoder_input_tokens",
// "layers", "heads" and every layer's and head's weights: "encoder_self_attention",
// "decoder_self_attention" and "cross_attention", each [layer][head][row][column].
QString decodedJson(const TransformerOutput &output, const std::vector<bool> &sourceKnown, bool inputTruncated);
// decodedJson() of the best hypothesis, plus the RNN's beam keys: "beam" (the options), "nbest"
// (tokens, output, score, log_prob, best first) and "beam_steps" (the hypotheses each step kept).
QString beamJson(const TransformerBeamOutput &decoded, const BeamOptions &options, const Vocabulary &vocabulary,
                 const std::vector<bool> &sourceKnown, bool inputTruncated);

}  // namespace transformerrunfiles
