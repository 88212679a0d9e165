#pragma once

#include "ui/attention/metatypes.h"

#include <QWidget>

#include <memory>
#include <vector>

class EpochReplay;
class QLabel;
class QPushButton;
class QSlider;
class QTimer;
class WeightHistory;

// The run's history under the Reverse page: a slider over the epochs whose weights are kept, Play
// (about two epochs a second, stopping at the last; Alt+P), the epoch shown, and Latest (Alt+L),
// which goes back to the live model. Without a history (a model opened from a file) it says why and
// is disabled. It only chooses the epoch; its owner shows it (epochShown) with replay().
class HistoryScrubber : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kPlayIntervalMs = 500;

    explicit HistoryScrubber(QWidget *parent = nullptr);

    // The kept epochs changed (one added, a new run, a history loaded). `like` is a model of the run
    // (configuration, vocabulary) for the weights to go into. An epoch shown that is still kept stays
    // shown, on the new replay; otherwise the live model is.
    void setHistory(const WeightHistory &history, const ModelSnapshot &like);
    // Why the history is empty: shown while it is.
    void setEmptyMessage(const QString &message);

    std::shared_ptr<EpochReplay> replay() const { return m_replay; }  // null without a history
    int shownEpoch() const { return m_shownEpoch; }  // 0: the live model
    void showEpoch(int epoch);  // a kept epoch; others are ignored
    void showLatest();
    void setPlaying(bool playing);
    bool playing() const;

    QSlider *slider() const { return m_slider; }
    QPushButton *playButton() const { return m_play; }
    QPushButton *latestButton() const { return m_latest; }
    QString label() const;

signals:
    void epochShown(int epoch);  // 0: the live model again

private:
    void step();
    void updateControls();
    void showIndex(int index);
    QString textFor(int epoch) const;  // the label while `epoch` (0: the live model) is shown

    QSlider *m_slider;
    QPushButton *m_play;
    QPushButton *m_latest;
    QLabel *m_label;
    QTimer *m_timer;
    std::shared_ptr<EpochReplay> m_replay;
    std::vector<int> m_epochs;
    int m_shownEpoch = 0;
    QString m_emptyMessage;
};
