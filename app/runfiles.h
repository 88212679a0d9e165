#pragma once

#include <QString>

#include <string>

class Seq2SeqModel;
struct DecodedSentence;
struct EvaluationReport;
struct TrainingConfig;
struct TrainingOutcome;

// The files `attnscope train` leaves in its output folder, next to model.ckpt.
namespace runfiles {
bool writeMetrics(const QString &path, const Seq2SeqModel &model, const TrainingConfig &training,
                  const TrainingOutcome &outcome, const EvaluationReport &test, QString *error);
bool writeText(const QString &path, const std::string &text, QString *error);
// The heatmap as the GUI draws it, rendered offscreen.
bool writeHeatmap(const QString &path, const DecodedSentence &sentence, QString *error);
QString decodedJson(const DecodedSentence &sentence, bool replaceUnknown);
}
