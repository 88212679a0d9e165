#pragma once

#include "engine/core/explainedsentence.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include <string>
#include <vector>

// What `attnscope explain --method` prints for one sentence, as text, JSON or CSV, whatever the
// model. A figure that is undefined is "-" in text, null in JSON and an empty field in CSV; steps
// and word positions count from 1.

// One table per method of output step x source word, after the step scores. `attentionMeaning`
// says which attention the model's "attention" map is.
void printAttribution(const ExplainedSentence &explained, const AttributionOptions &options,
                      const std::string &attentionMeaning);
// The report on standard output: JSON with `json`, else CSV with `csv`, else printAttribution's tables.
void writeAttribution(const ExplainedSentence &explained, const AttributionOptions &options,
                      const std::string &attentionMeaning, bool json, bool csv);

namespace runfiles {
// "input", "output", "words" (the columns), "outputs" (the rows), "options" (steps, baseline,
// occlusion), "steps" (per output step: output, log_prob, entropy, margin, runner_up), "methods"
// (per method: method, title, scores as rows of columns) and, with integrated gradients,
// "integration_delta" and "completeness_gap" per step.
QString attributionJson(const ExplainedSentence &explained, const AttributionOptions &options);
// method,step,output,position,word,score: one row per method, output step and source word.
QString attributionCsv(const ExplainedSentence &explained);
}

// The formatting the attribution reports share.
namespace attributionformat {
std::string figure(double value, const char *format = "%.3f");
QJsonValue figureJson(double value);
QString figureCsv(double value);
QJsonArray figuresJson(const std::vector<double> &values);
QJsonArray stringsJson(const std::vector<std::string> &items);
QJsonObject attributionOptionsJson(const AttributionOptions &options);
QString csvText(const std::string &text);
QString jsonDocument(const QJsonObject &root);
}
