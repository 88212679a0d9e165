#include "app/attention/attributionfiles.h"

#include "engine/attention/faithfulness.h"
#include "engine/core/tokenizer.h"
#include "ui/core/plotexport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace runfiles {
namespace {

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

QJsonObject optionsJson(const AttributionOptions &options)
{
    return QJsonObject{{"integration_steps", options.integrationSteps},
                       {"baseline", integrationBaselineName(options.baseline)},
                       {"occlusion", removalModeName(options.occlusion)}};
}

QString csvText(const std::string &text)
{
    return csvField(QString::fromStdString(text));
}

QString document(const QJsonObject &root)
{
    return QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Indented));
}

}

QString attributionJson(const SentenceAttribution &explained, const AttributionOptions &options)
{
    QJsonArray steps;
    for (std::size_t t = 0; t < explained.steps.size(); ++t) {
        const StepScore &s = explained.steps[t];
        steps.append(QJsonObject{{"output", QString::fromStdString(explained.sentence.outputTokens[t])},
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
    const std::vector<std::string> &source = explained.sentence.sourceTokens;
    const std::string input = joinTokens(std::vector<std::string>(source.begin(), source.end() - 1));
    QJsonObject root{{"input", QString::fromStdString(input)},
                     {"output", QString::fromStdString(explained.sentence.text())},
                     {"words", stringsJson(explained.words)},
                     {"outputs", stringsJson(explained.sentence.outputTokens)},
                     {"options", optionsJson(options)},
                     {"steps", steps},
                     {"methods", methods}};
    if (explained.map(AttributionMethod::IntegratedGradients)) {
        root.insert("integration_delta", figuresJson(explained.integrationDelta));
        root.insert("completeness_gap", figuresJson(explained.completenessGap));
    }
    return document(root);
}

QString attributionCsv(const SentenceAttribution &explained)
{
    QString csv = QStringLiteral("method,step,output,position,word,score\n");
    for (const AttributionMap &map : explained.maps)
        for (int row = 0; row < map.rows; ++row)
            for (int column = 0; column < map.columns; ++column)
                csv += QStringLiteral("%1,%2,%3,%4,%5,%6\n")
                           .arg(QString::fromLatin1(attributionMethodName(map.method)), QString::number(row + 1),
                                csvText(explained.sentence.outputTokens[std::size_t(row)]), QString::number(column + 1),
                                csvText(explained.words[std::size_t(column)]), figureCsv(map.at(row, column)));
    return csv;
}

QString faithfulnessJson(const FaithfulnessReport &report, const AttributionOptions &options)
{
    const std::size_t count = report.methods.size();
    QJsonArray names;
    QJsonObject agreement, topAnswer;
    for (std::size_t i = 0; i < count; ++i) {
        const QString name = QString::fromLatin1(attributionMethodName(report.methods[i]));
        names.append(name);
        QJsonObject against;
        for (std::size_t j = 0; j < count; ++j)
            against.insert(QString::fromLatin1(attributionMethodName(report.methods[j])),
                           figureJson(report.agreement[i * count + j]));
        agreement.insert(name, against);
        topAnswer.insert(name, figureJson(report.topAnswerAgreement[i]));
    }
    QJsonArray curves;
    for (const ErasureCurve &curve : report.curves)
        curves.append(QJsonObject{{"name", QString::fromStdString(curve.name)},
                                  {"comprehensiveness", figuresJson(curve.comprehensiveness)},
                                  {"sufficiency", figuresJson(curve.sufficiency)}});
    return document(QJsonObject{{"sentences", report.sentences},
                                {"steps", report.steps},
                                {"answered_steps", report.answeredSteps},
                                {"options", optionsJson(options)},
                                {"methods", names},
                                {"fractions", figuresJson(erasureFractions())},
                                {"agreement", agreement},
                                {"top_answer_agreement", topAnswer},
                                {"curves", curves}});
}

QString faithfulnessCsv(const FaithfulnessReport &report)
{
    QString csv = QStringLiteral("measure,method,against,k,value\n");
    const auto row = [&csv](const char *measure, const std::string &method, const std::string &against,
                            const QString &k, double value) {
        csv += QStringLiteral("%1,%2,%3,%4,%5\n")
                   .arg(QString::fromLatin1(measure), csvText(method), csvText(against), k, figureCsv(value));
    };
    const std::size_t count = report.methods.size();
    for (std::size_t i = 0; i < count; ++i)
        for (std::size_t j = 0; j < count; ++j)
            row("agreement", attributionMethodName(report.methods[i]), attributionMethodName(report.methods[j]), {},
                report.agreement[i * count + j]);
    for (std::size_t i = 0; i < count; ++i)
        row("top_answer_agreement", attributionMethodName(report.methods[i]), {}, {}, report.topAnswerAgreement[i]);
    const std::vector<double> &fractions = erasureFractions();
    for (const ErasureCurve &curve : report.curves)
        for (std::size_t f = 0; f < fractions.size(); ++f) {
            row("comprehensiveness", curve.name, {}, QString::number(fractions[f]), curve.comprehensiveness[f]);
            row("sufficiency", curve.name, {}, QString::number(fractions[f]), curve.sufficiency[f]);
        }
    return csv;
}

}
