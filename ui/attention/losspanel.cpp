#include "ui/attention/losspanel.h"

#include "ui/attention/modeltext.h"
#include "ui/core/lossplot.h"

#include <QLabel>
#include <QVBoxLayout>

LossPanel::LossPanel(QWidget *parent) : QWidget(parent), m_plot(new LossPlot), m_summary(new QLabel)
{
    m_plot->setObjectName(QStringLiteral("lossPlot"));
    m_plot->setMinimumSize(240, 160);
    m_plot->setAccessibleName(tr("Loss plot"));
    m_plot->setAccessibleDescription(tr("Loss per batch and per epoch for training and validation, validation exact "
                                        "match on the right axis, the best epoch marked."));
    m_summary->setObjectName(QStringLiteral("lossSummary"));
    m_summary->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_plot, 1);
}

QString LossPanel::summary() const
{
    return m_summary->text();
}

void LossPanel::start(int epochs, const QString &message)
{
    m_epochs = epochs;
    m_history.clear();
    m_bestEpoch = 0;
    m_plot->clear();
    m_summary->setText(message);
}

void LossPanel::setMessage(const QString &message)
{
    m_summary->setText(message);
}

void LossPanel::addBatch(const BatchProgress &progress)
{
    if (progress.batchesPerEpoch > 0)
        m_plot->addBatch(progress);
}

void LossPanel::addEpoch(const EpochStats &stats, bool isBest)
{
    m_history.push_back(stats);
    m_plot->addEpoch(stats, isBest);
    if (isBest)
        m_bestEpoch = stats.epoch;
    updateSummary();
}

void LossPanel::setHistory(const std::vector<EpochStats> &history)
{
    m_plot->setHistory(history);
    m_history = history;
    m_epochs = int(history.size());
    m_bestEpoch = 0;
    double bestLoss = 0;
    for (const EpochStats &stats : history)
        if (m_bestEpoch == 0 || stats.valLoss < bestLoss) {
            m_bestEpoch = stats.epoch;
            bestLoss = stats.valLoss;
        }
    if (history.empty())
        m_summary->setText(tr("This model has no training history."));
    else
        updateSummary();
}

bool LossPanel::hasData() const
{
    return m_plot->epochPointCount() > 0 || m_plot->batchPointCount() > 0;
}

void LossPanel::updateSummary()
{
    if (m_history.empty())
        return;
    const EpochStats &last = m_history.back();
    QString text = tr("Epoch %1 of %2: training loss %3, validation loss %4, validation exact match <b>%5</b>.")
                       .arg(last.epoch)
                       .arg(m_epochs)
                       .arg(threeDigits(last.trainLoss), threeDigits(last.valLoss), percent(last.valExactMatch));
    if (m_bestEpoch > 0 && m_bestEpoch != last.epoch)
        text += QLatin1Char(' ') + tr("Best: epoch %1.").arg(m_bestEpoch);
    m_summary->setText(text);
}
