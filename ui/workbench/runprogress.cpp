#include "ui/workbench/runprogress.h"

#include "engine/core/epochstats.h"

#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QStatusBar>

#include <algorithm>

namespace {

QString duration(qint64 seconds)
{
    if (seconds < 60)
        return QObject::tr("%1 s").arg(seconds);
    if (seconds < 3600)
        return QObject::tr("%1 min %2 s").arg(seconds / 60).arg(seconds % 60, 2, 10, QLatin1Char('0'));
    return QObject::tr("%1 h %2 min").arg(seconds / 3600).arg((seconds % 3600) / 60, 2, 10, QLatin1Char('0'));
}

// The labels change twenty times a second while training. Each keeps a fixed size that only grows
// with its text: a label whose size may change makes the status bar, and so the window, lay out
// and repaint again on every report.
void setTextInFixedSize(QLabel *label, const QString &text)
{
    const int width = label->fontMetrics().horizontalAdvance(text) + 2 * (label->margin() + label->frameWidth());
    if (width > label->minimumWidth())
        label->setFixedWidth(width);
    label->setText(text);
}

}

RunProgress::RunProgress(QStatusBar *statusBar, QObject *parent)
    : QObject(parent), m_label(new QLabel), m_bar(new QProgressBar), m_speed(new QLabel), m_eta(new QLabel)
{
    m_bar->setObjectName(QStringLiteral("trainingProgress"));
    m_bar->setRange(0, 1000);
    m_bar->setMaximumWidth(220);
    m_bar->setTextVisible(true);
    m_bar->setFormat(QStringLiteral("%p %"));
    m_eta->setToolTip(tr("Time left if every epoch runs; early stopping may end training sooner."));
    for (QLabel *label : {m_label, m_speed, m_eta})
        label->setFixedHeight(label->fontMetrics().height() + 2 * (label->margin() + label->frameWidth()));
    for (QWidget *widget : std::initializer_list<QWidget *>{m_label, m_bar, m_speed, m_eta})
        statusBar->addPermanentWidget(widget);
    setVisible(false);
}

void RunProgress::setVisible(bool visible)
{
    for (QWidget *widget : std::initializer_list<QWidget *>{m_label, m_bar, m_speed, m_eta})
        widget->setVisible(visible);
}

void RunProgress::setRun(int epochs, const QString &unit)
{
    m_epochs = epochs;
    m_unit = unit;
}

void RunProgress::start()
{
    m_epochs = 0;
    m_bar->setValue(0);
    for (QLabel *label : {m_label, m_speed, m_eta}) {
        label->setFixedWidth(0);
        label->clear();
    }
    setTextInFixedSize(m_label, tr("Preparing"));
    m_pausedMs = 0;
    m_pauseClock.invalidate();
    m_runClock.start();
}

void RunProgress::setPaused(bool paused)
{
    if (paused && !m_pauseClock.isValid()) {
        m_pauseClock.start();
    } else if (!paused && m_pauseClock.isValid()) {
        m_pausedMs += m_pauseClock.elapsed();
        m_pauseClock.invalidate();
    }
}

void RunProgress::showBatch(const BatchProgress &progress)
{
    if (progress.batchesPerEpoch <= 0)
        return;
    // After an epoch's last batch the trainer scores the validation split before reporting again.
    if (progress.batch == progress.batchesPerEpoch)
        setTextInFixedSize(m_label, tr("Epoch %1/%2 · validating").arg(progress.epoch).arg(m_epochs));
    else
        setTextInFixedSize(m_label, tr("Epoch %1/%2 · batch %3/%4")
                                        .arg(progress.epoch)
                                        .arg(m_epochs)
                                        .arg(progress.batch)
                                        .arg(progress.batchesPerEpoch));
    setTextInFixedSize(m_speed, tr("%1 %2/s").arg(QLocale().toString(progress.samplesPerSecond, 'f', 0), m_unit));

    const double done = progress.epochsDone() / std::max(1, m_epochs);
    m_bar->setValue(int(done * m_bar->maximum()));
    qint64 activeMs = m_runClock.elapsed() - m_pausedMs;
    if (m_pauseClock.isValid())
        activeMs -= m_pauseClock.elapsed();
    if (done <= 0 || activeMs <= 0)
        return;
    const qint64 remaining = qint64(double(activeMs) * (1 - done) / done / 1000);
    setTextInFixedSize(m_eta, tr("ETA %1").arg(duration(remaining)));
}

void RunProgress::finish()
{
    m_bar->setValue(m_bar->maximum());
}
