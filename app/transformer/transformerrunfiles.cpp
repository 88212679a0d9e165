#include "app/transformer/transformerrunfiles.h"

#include "app/core/runjson.h"
#include "engine/core/corpusdefaults.h"
#include "engine/core/dataset.h"
#include "engine/core/tokenizer.h"
#include "engine/core/validationfall.h"
#include "ui/core/configmap.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cstdio>

namespace transformerrunfiles {
namespace {

// [layer][head][row][column].
QJsonArray layeredJson(const LayeredAttention &attention)
{
    QJsonArray layers;
    for (const auto &heads : attention.weights) {
        QJsonArray headsJson;
        for (const std::vector<float> &matrix : heads) {
            QJsonArray rows;
            for (int r = 0; r < attention.rows; ++r) {
                QJsonArray row;
                for (int c = 0; c < attention.columns; ++c)
                    row.append(double(matrix[std::size_t(r * attention.columns + c)]));
                rows.append(row);
            }
            headsJson.append(rows);
        }
        layers.append(headsJson);
    }
    return layers;
}

// The last layer's weights, the mean of its heads: one output x source matrix, as the RNN has.
QJsonArray lastLayerMean(const LayeredAttention &attention)
{
    QJsonArray rows;
    if (attention.weights.empty() || attention.weights.back().empty())
        return rows;
    const auto &heads = attention.weights.back();
    for (int r = 0; r < attention.rows; ++r) {
        QJsonArray row;
        for (int c = 0; c < attention.columns; ++c) {
            double sum = 0;
            for (const std::vector<float> &matrix : heads)
                sum += matrix[std::size_t(r * attention.columns + c)];
            row.append(sum / double(heads.size()));
        }
        rows.append(row);
    }
    return rows;
}

QJsonArray epochsJson(const std::vector<EpochStats> &history)
{
    QJsonArray epochs;
    for (std::size_t i = 0; i < history.size(); ++i) {
        const EpochStats &e = history[i];
        QJsonObject epoch = epochStatsJson(e);
        epoch.insert("learning_rate", e.learningRate);
        epoch.insert("gradient_norm", e.gradientNorm > 0 ? QJsonValue(e.gradientNorm) : QJsonValue());
        if (i > 0)
            if (const std::string fall = validationFall(history[i - 1], e); !fall.empty())
                epoch.insert("val_exact_fall", QString::fromStdString(fall));
        epochs.append(epoch);
    }
    return epochs;
}


}  // namespace

QJsonObject byLengthJson(const TransformerScore &score)
{
    QJsonObject out;
    for (const auto &[length, counts] : score.byLength)
        out.insert(QString::number(length), QJsonObject{{"correct", counts.correct},
                                                         {"total", counts.total},
                                                         {"exact_match", double(counts.correct) / counts.total}});
    return out;
}

QJsonObject scoreJson(const TransformerScore &score)
{
    return QJsonObject{{"sentences", score.sentences},
                       {"exact_match", score.exactMatch()},
                       {"token_accuracy", score.tokenAccuracy()},
                       {"decoding", "greedy, batched"},
                       {"by_length", byLengthJson(score)}};
}

QJsonObject metricsJson(const TransformerModel &model, const Dataset &data, const DatasetConfig &dataset,
                        const TransformerTrainingConfig &training, const TransformerRunEnd &end,
                        const TransformerScore &test)
{
    QJsonObject modelJson = toJson(model.config(), transformerConfigFields());
    modelJson.insert("parameters", double(model.parameterCount()));
    QJsonObject datasetObject = datasetJson(dataset);
    datasetObject.insert("vocabulary_size", model.vocabulary().size());
    return QJsonObject{
        {"architecture", "transformer"},
        {"epochs", epochsJson(model.history)},
        {"best_epoch", end.bestEpoch},
        {"status", end.statusName()},
        {"message", QString::fromStdString(end.message)},
        {"test", scoreJson(test)},
        {"config", QJsonObject{{"model", modelJson},
                               {"training", toJson(training, transformerTrainingConfigFields())},
                               {"dataset", datasetObject}}},
        {"effective_settings", effectiveDataJson(data, dataset, model.vocabulary().size())}};
}

std::string lossCurveCsv(const std::vector<BatchProgress> &batches)
{
    std::string csv = "epochs_done,epoch,batch,train_loss,samples_per_second\n";
    char line[160];
    for (const BatchProgress &b : batches) {
        std::snprintf(line, sizeof line, "%.6f,%d,%d,%.6f,%.1f\n", b.epochsDone(), b.epoch, b.batch, b.loss,
                      b.samplesPerSecond);
        csv += line;
    }
    return csv;
}

QJsonObject decodedObject(const TransformerOutput &output, const std::vector<bool> &sourceKnown, bool inputTruncated)
{
    std::vector<std::string> words = output.outputTokens;
    if (!words.empty() && words.back() == "<EOS>")
        words.pop_back();
    std::vector<std::string> decoderInput = {"<SOS>"};
    if (output.outputTokens.size() > 1)  // each step reads the token the step before put out
        decoderInput.insert(decoderInput.end(), output.outputTokens.begin(), output.outputTokens.end() - 1);
    QJsonArray known, copied;
    for (bool k : sourceKnown)
        known.append(k);
    for (std::size_t i = 0; i < output.outputTokens.size(); ++i)
        copied.append(false);  // the Transformer puts out its vocabulary's words only
    const int layers = int(output.cross.weights.size());
    const QJsonObject root{{"architecture", "transformer"},
                           {"output", QString::fromStdString(joinTokens(words))},
                           {"source_tokens", stringArray(output.sourceTokens)},
                           {"source_known", known},
                           {"output_tokens", stringArray(output.outputTokens)},
                           {"output_copied", copied},
                           {"attention", lastLayerMean(output.cross)},
                           {"unk_replacement", false},
                           {"unk_replacement_used", false},
                           {"input_truncated", inputTruncated},
                           {"decoder_input_tokens", stringArray(decoderInput)},
                           {"layers", layers},
                           {"heads", layers > 0 ? int(output.cross.weights.front().size()) : 0},
                           {"encoder_self_attention", layeredJson(output.encoderSelf)},
                           {"decoder_self_attention", layeredJson(output.decoderSelf)},
                           {"cross_attention", layeredJson(output.cross)}};
    return root;
}

QString decodedJson(const TransformerOutput &output, const std::vector<bool> &sourceKnown, bool inputTruncated)
{
    return QString::fromUtf8(
        QJsonDocument(decodedObject(output, sourceKnown, inputTruncated)).toJson(QJsonDocument::Indented));
}

QString beamJson(const TransformerBeamOutput &decoded, const BeamOptions &options, const Vocabulary &vocabulary,
                 const std::vector<bool> &sourceKnown, bool inputTruncated)
{
    QJsonObject root = decodedObject(decoded.nbest.front().output, sourceKnown, inputTruncated);
    root.insert("beam", QJsonObject{{"width", options.width}, {"alpha", options.alpha}, {"nbest", options.nbest}});
    QJsonArray nbest;
    for (const ScoredTransformerOutput &h : decoded.nbest) {
        std::vector<std::string> words = h.output.outputTokens;
        if (!words.empty() && words.back() == "<EOS>")
            words.pop_back();
        nbest.append(QJsonObject{{"tokens", stringArray(h.output.outputTokens)},
                                 {"output", QString::fromStdString(joinTokens(words))},
                                 {"score", h.score},
                                 {"log_prob", h.logProb}});
    }
    root.insert("nbest", nbest);
    QJsonArray steps;
    for (std::size_t t = 0; t < decoded.steps.size(); ++t) {
        QJsonArray kept;
        for (const BeamStepEntry &e : decoded.steps[t].kept) {
            QJsonArray tokens;
            for (int id : e.tokens)
                tokens.append(QString::fromStdString(vocabulary.word(id)));
            kept.append(QJsonObject{
                {"tokens", tokens}, {"score", e.score}, {"log_prob", e.logProb}, {"finished", e.finished}});
        }
        steps.append(QJsonObject{{"step", int(t) + 1}, {"kept", kept}});
    }
    root.insert("beam_steps", steps);
    return QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Indented));
}

}  // namespace transformerrunfiles
