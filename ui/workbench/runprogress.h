#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QString>

struct BatchProgress;
class QLabel;
class QProgressBar;
class QStatusBar;

// The training run in the status bar: epoch and batch, a progress bar, the rate and an ETA that
// leaves out the time spent paused. Shown only while a run trains.
class RunProgress : public QObject
{
    Q_OBJECT
public:
    RunProgress(QStatusBar *statusBar, QObject *parent = nullptr);

    void setVisible(bool visible);
    void start();  // a run begins: clocks reset, "Preparing"
    // What the run turned out to be, once its data is ready: the rate is shown in `unit` per second.
    void setRun(int epochs, const QString &unit);
    void setPaused(bool paused);
    void showBatch(const BatchProgress &progress);
    void finish();

    QProgressBar *bar() const { return m_bar; }

private:
    QLabel *m_label;
    QProgressBar *m_bar;
    QLabel *m_speed;
    QLabel *m_eta;
    int m_epochs = 0;
    QString m_unit;
    QElapsedTimer m_runClock;
    QElapsedTimer m_pauseClock;
    qint64 m_pausedMs = 0;
};
