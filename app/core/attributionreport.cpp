#include "app/core/attributionreport.h"

#include "ui/core/plotexport.h"

#include <QJsonDocument>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

namespace attributionformat {

// A figure, or "-" where it is undefined.
std::string figure(double value, const char *format)
{
    if (std::isnan(value))
        return "-";
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, format, value);
    return buffer;
}

QJsonValue figureJson(double value)
{
    return std::isfinite(value) ? QJsonValue(value) : QJsonValue(QJsonValue::Null);
}

QString figureCsv(double value)
{
    return std::isfinite(value) ? QString::number(value, 'g', 9) : QString();
}

QJsonArray figuresJson(const std::vector<double> &values)
{
    QJsonArray array;
    for (double value : values)
        array.append(figureJson(value));
    return array;
}

QJsonArray stringsJson(const std::vector<std::string> &items)
{
    QJsonArray array;
    for (const std::string &item : items)
        array.append(QString::fromStdString(item));
    return array;
}

QJsonObject attributionOptionsJson(const AttributionOptions &options)
{
    return QJsonObject{{"integration_steps", options.integrationSteps},
                       {"baseline", integrationBaselineName(options.baseline)},
                       {"occlusion", removalModeName(options.occlusion)}};
}

QString csvText(const std::string &text)
{
    return csvField(QString::fromStdString(text));
}

QString jsonDocument(const QJsonObject &root)
{
    return QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Indented));
}

}  // namespace attributionformat

using namespace attributionformat;

namespace {

constexpr int kNumberWidth = 8;

int columnWidth(const std::string &heading)
{
    return std::max(kNumberWidth, int(heading.size()));
}

std::string methodDescription(AttributionMethod method, const AttributionOptions &options,
                              const std::string &attentionMeaning)
{
    switch (method) {
    case AttributionMethod::Attention:
        return attentionMeaning;
    case AttributionMethod::Saliency:
        return "the norm of the gradient of log P(y_t) with respect to the word's embedding";
    case AttributionMethod::InputTimesGradient:
        return "the word's embedding times the gradient of log P(y_t) with respect to it";
    case AttributionMethod::IntegratedGradients:
        return std::to_string(options.integrationSteps) + " steps from the " +
               integrationBaselineName(options.baseline) +
               " baseline; f(x)-f(x') is what the row should add up to, gap how far it is from that";
    case AttributionMethod::Occlusion:
        return std::string("the fall in log P(y_t) when the word is ") +
               (options.occlusion == RemovalMode::Drop ? "left out" : "replaced by <UNK>");
    case AttributionMethod::Rollout:
        return "the share of y_t flowing from the word through every layer's attention, each layer mixed half and "
               "half with its residual (Abnar & Zuidema 2020)";
    }
    return {};
}

void printStepScores(const ExplainedSentence &explained, int labelWidth)
{
    std::printf("Step scores: log P of each output word, the entropy of the step's distribution (nats) and the\n"
                "margin in log P to the likeliest other word.\n");
    std::printf("%4s  %-*s %9s %8s %8s  %s\n", "step", labelWidth, "output", "log P", "entropy", "margin", "runner-up");
    for (std::size_t t = 0; t < explained.steps.size(); ++t) {
        const StepScore &s = explained.steps[t];
        std::printf("%4zu  %-*s %9.3f %8.3f %8.3f  %s\n", t + 1, labelWidth,
                    explained.outputTokens[t].c_str(), s.logProb, s.entropy, s.margin, s.runnerUp.c_str());
    }
}

void printMap(const ExplainedSentence &explained, const AttributionMap &map, const AttributionOptions &options,
              const std::string &attentionMeaning, int labelWidth)
{
    const bool integrated = map.method == AttributionMethod::IntegratedGradients;
    std::printf("\n%s (%s): %s\n", attributionMethodTitle(map.method), attributionMethodName(map.method),
                methodDescription(map.method, options, attentionMeaning).c_str());
    std::printf("%-*s", labelWidth, "");
    for (const std::string &word : explained.words)
        std::printf(" %*s", columnWidth(word), word.c_str());
    if (integrated)
        std::printf(" %10s %8s", "f(x)-f(x')", "gap");
    std::printf("\n");
    for (int row = 0; row < map.rows; ++row) {
        std::printf("%-*s", labelWidth, explained.outputTokens[std::size_t(row)].c_str());
        for (int column = 0; column < map.columns; ++column)
            std::printf(" %*.3f", columnWidth(explained.words[std::size_t(column)]), map.at(row, column));
        if (integrated)
            std::printf(" %10.3f %8.4f", explained.integrationDelta[std::size_t(row)],
                        explained.completenessGap[std::size_t(row)]);
        std::printf("\n");
    }
}

}  // namespace

void printAttribution(const ExplainedSentence &explained, const AttributionOptions &options,
                      const std::string &attentionMeaning)
{
    std::printf("Input:  %s\nOutput: %s\n\n", explained.inputText().c_str(), explained.outputText().c_str());
    int labelWidth = int(std::string("output").size());
    for (const std::string &token : explained.outputTokens)
        labelWidth = std::max(labelWidth, int(token.size()));
    printStepScores(explained, labelWidth);
    std::printf("\nEach table explains log P(y_t), one row per output step y_t and one column per source word;\n"
                "higher puts more of y_t down to the word.\n");
    for (const AttributionMap &map : explained.maps)
        printMap(explained, map, options, attentionMeaning, labelWidth);
}

namespace runfiles {

QString attributionJson(const ExplainedSentence &explained, const AttributionOptions &options)
{
    QJsonArray steps;
    for (std::size_t t = 0; t < explained.steps.size(); ++t) {
        const StepScore &s = explained.steps[t];
        steps.append(QJsonObject{{"output", QString::fromStdString(explained.outputTokens[t])},
                                 {"log_prob", figureJson(s.logProb)},
                                 {"entropy", figureJson(s.entropy)},
                                 {"margin", figureJson(s.margin)},
                                 {"runner_up", QString::fromStdString(s.runnerUp)}});
    }
    QJsonArray methods;
    for (const AttributionMap &map : explained.maps) {
        QJsonArray rows;
        for (int row = 0; row < map.rows; ++row)
            rows.append(figuresJson(map.row(row)));
        methods.append(QJsonObject{{"method", attributionMethodName(map.method)},
                                   {"title", attributionMethodTitle(map.method)},
                                   {"scores", rows}});
    }
    QJsonObject root{{"input", QString::fromStdString(explained.inputText())},
                     {"output", QString::fromStdString(explained.outputText())},
                     {"words", stringsJson(explained.words)},
                     {"outputs", stringsJson(explained.outputTokens)},
                     {"options", attributionOptionsJson(options)},
                     {"steps", steps},
                     {"methods", methods}};
    if (explained.map(AttributionMethod::IntegratedGradients)) {
        root.insert("integration_delta", figuresJson(explained.integrationDelta));
        root.insert("completeness_gap", figuresJson(explained.completenessGap));
    }
    return jsonDocument(root);
}

QString attributionCsv(const ExplainedSentence &explained)
{
    QString csv = QStringLiteral("method,step,output,position,word,score\n");
    for (const AttributionMap &map : explained.maps)
        for (int row = 0; row < map.rows; ++row)
            for (int column = 0; column < map.columns; ++column)
                csv += QStringLiteral("%1,%2,%3,%4,%5,%6\n")
                           .arg(QString::fromLatin1(attributionMethodName(map.method)), QString::number(row + 1),
                                csvText(explained.outputTokens[std::size_t(row)]), QString::number(column + 1),
                                csvText(explained.words[std::size_t(column)]), figureCsv(map.at(row, column)));
    return csv;
}

}  // namespace runfiles

void writeAttribution(const ExplainedSentence &explained, const AttributionOptions &options,
                      const std::string &attentionMeaning, bool json, bool csv)
{
    if (json)
        std::cout << runfiles::attributionJson(explained, options).toStdString();
    else if (csv)
        std::cout << runfiles::attributionCsv(explained).toStdString();
    else
        printAttribution(explained, options, attentionMeaning);
}
