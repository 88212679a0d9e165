#include "ui/attention/modeltext.h"

#include <QLocale>
#include <QObject>

#include <algorithm>

QString percent(double share)
{
    return QLocale().toString(share * 100, 'f', 1) + QStringLiteral(" %");
}

QString threeDigits(double value)
{
    return QLocale().toString(value, 'g', 3);
}

QString describeEpoch(const EpochStats &stats)
{
    return QObject::tr("epoch %1 · validation loss %2 · exact match %3")
        .arg(stats.epoch)
        .arg(threeDigits(stats.valLoss), percent(stats.valExactMatch));
}

QString describeModel(const Seq2SeqModel &model, const QString &origin)
{
    const ModelConfig &c = model.config();
    QString text = QObject::tr("%1 — %2 parameters, %3 words, %4 hidden size %5, %n layer(s)", nullptr, c.layers)
                       .arg(origin, QLocale().toString(qlonglong(model.parameterCount())))
                       .arg(model.vocabulary().size())
                       .arg(QString::fromLatin1(cellName(c.cell)).toUpper())
                       .arg(c.hiddenSize);
    if (!model.history.empty()) {
        const auto best = std::min_element(model.history.begin(), model.history.end(),
                                           [](const EpochStats &a, const EpochStats &b) { return a.valLoss < b.valLoss; });
        text += QObject::tr("; best of %n epoch(s): validation exact match %1", nullptr, int(model.history.size()))
                    .arg(percent(best->valExactMatch));
    }
    return text;
}
