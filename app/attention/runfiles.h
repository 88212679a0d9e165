#pragma once

#include "engine/attention/alignmentscore.h"

#include <QJsonObject>
#include <QString>

#include <string>

#include <vector>

class Seq2SeqModel;
class Vocabulary;
struct BeamDecoded;
struct BeamOptions;
struct Dataset;
struct DatasetConfig;
struct DecodedSentence;
struct ExperimentResult;
struct EvaluationReport;
struct TrainingConfig;
struct TrainingOutcome;
struct WordRemovalEffect;
struct WordRemovalSummary;
enum class RemovalMode;

// The files `attnscope train` and `attnscope compare` leave in their output folder.
namespace runfiles {
// metrics.json of `attnscope train`. `alignment`: per epoch, for a model with attention (see alignmentscore.h); empty otherwise, and
// each epoch's alignment keys are then null. `data`: what the model trained on, for the settings
// that took effect where a field says auto ("effective_settings").
QJsonObject metricsJson(const Seq2SeqModel &model, const Dataset &data, const TrainingConfig &training,
                        const TrainingOutcome &outcome, const EvaluationReport &test,
                        const std::vector<EpochAlignment> &alignment);
bool writeText(const QString &path, const std::string &text, QString *error);
// The heatmap as the GUI draws it, rendered offscreen.
bool writeHeatmap(const QString &path, const DecodedSentence &sentence, QString *error);
QString decodedJson(const DecodedSentence &sentence, bool replaceUnknown);
// decodedJson() of the best hypothesis, plus "beam" (the options), "nbest" (tokens, output, score,
// log_prob, best first) and "beam_steps" (the hypotheses kept at each step, in vocabulary words).
// `decoded.nbest` must not be empty.
QString beamJson(const BeamDecoded &decoded, const BeamOptions &options, const Vocabulary &vocabulary,
                 bool replaceUnknown);
// What `attnscope explain --json` prints: "mode", "summary" (the figures of WordRemovalSummary) and
// "sentences", each with its input, output, log_prob, spearman and, per word, attention,
// peak_attention, log_prob_fall, output_without and whether that is the expected or the same
// output. A correlation that is undefined is null.
QString wordRemovalJson(RemovalMode mode, const std::vector<WordRemovalEffect> &effects,
                        const WordRemovalSummary &summary);

// What `attnscope compare` leaves: every run's scores side by side, and exact match by length.
bool writeComparison(const QString &path, const std::vector<ExperimentResult> &results, const DatasetConfig &dataset,
                     const TrainingConfig &training, int probeMaxLength, int probeSentences, QString *error);
bool writeLengthPlot(const QString &path, const std::vector<ExperimentResult> &results, int trainedMin,
                     int trainedMax, QString *error);
}
