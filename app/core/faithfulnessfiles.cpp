#include "app/core/faithfulnessfiles.h"

#include "app/core/attributionreport.h"
#include "engine/core/faithfulnessreport.h"

#include <QJsonArray>
#include <QJsonObject>

namespace runfiles {

using namespace attributionformat;

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
    return jsonDocument(QJsonObject{{"sentences", report.sentences},
                                {"steps", report.steps},
                                {"answered_steps", report.answeredSteps},
                                {"options", attributionOptionsJson(options)},
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
