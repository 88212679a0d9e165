#include "ui/attention/historyscrubber.h"

#include "engine/attention/epochreplay.h"
#include "engine/attention/weighthistory.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>
#include <QTimer>

#include <algorithm>

HistoryScrubber::HistoryScrubber(QWidget *parent)
    : QWidget(parent), m_slider(new QSlider(Qt::Horizontal)), m_play(new QPushButton), m_latest(new QPushButton),
      m_label(new QLabel), m_timer(new QTimer(this)),
      m_emptyMessage(tr("No history yet: each epoch of a run is kept here as it ends."))
{
    auto *title = new QLabel(tr("Histor&y:"));
    title->setBuddy(m_slider);
    m_slider->setObjectName(QStringLiteral("historySlider"));
    m_slider->setFocusPolicy(Qt::StrongFocus);
    m_slider->setPageStep(5);
    m_slider->setTickPosition(QSlider::TicksBelow);
    m_slider->setAccessibleName(tr("Epoch of the training history"));
    m_slider->setToolTip(tr("Replay the run: the output, the heatmap, the embeddings and a marker on the loss "
                            "plot follow the epoch chosen here."));
    m_play->setObjectName(QStringLiteral("historyPlay"));
    m_play->setToolTip(tr("Play the run epoch by epoch, about two a second (Alt+P)"));
    m_latest->setObjectName(QStringLiteral("historyLatest"));
    m_latest->setText(tr("&Latest"));
    m_latest->setIcon(style()->standardIcon(QStyle::SP_MediaSkipForward));
    m_latest->setToolTip(tr("Back to the live model (Alt+L)"));
    m_label->setObjectName(QStringLiteral("historyEpoch"));
    m_timer->setInterval(kPlayIntervalMs);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(title);
    layout->addWidget(m_play);
    layout->addWidget(m_slider, 1);
    layout->addWidget(m_label);
    layout->addWidget(m_latest);

    connect(m_slider, &QSlider::valueChanged, this, &HistoryScrubber::showIndex);
    connect(m_play, &QPushButton::clicked, this, [this] { setPlaying(!playing()); });
    connect(m_latest, &QPushButton::clicked, this, &HistoryScrubber::showLatest);
    connect(m_timer, &QTimer::timeout, this, &HistoryScrubber::step);
    updateControls();
}

void HistoryScrubber::setHistory(const WeightHistory &history, const ModelSnapshot &like)
{
    m_epochs = like ? history.epochs() : std::vector<int>{};
    m_replay = m_epochs.empty() ? nullptr : std::make_shared<EpochReplay>(history, like);
    if (m_shownEpoch != 0 && std::find(m_epochs.begin(), m_epochs.end(), m_shownEpoch) == m_epochs.end()) {
        showLatest();
        return;
    }
    updateControls();
    if (m_shownEpoch != 0)
        emit epochShown(m_shownEpoch);  // the same epoch, from the new replay
}

void HistoryScrubber::setEmptyMessage(const QString &message)
{
    m_emptyMessage = message;
    updateControls();
}

void HistoryScrubber::showEpoch(int epoch)
{
    if (epoch == m_shownEpoch || std::find(m_epochs.begin(), m_epochs.end(), epoch) == m_epochs.end())
        return;
    m_shownEpoch = epoch;
    updateControls();
    emit epochShown(epoch);
}

void HistoryScrubber::showLatest()
{
    m_timer->stop();
    const bool changed = m_shownEpoch != 0;
    m_shownEpoch = 0;
    updateControls();
    if (changed)
        emit epochShown(0);
}

bool HistoryScrubber::playing() const
{
    return m_timer->isActive();
}

void HistoryScrubber::setPlaying(bool playing)
{
    if (playing && !m_epochs.empty()) {
        // From the start unless a replay is under way and can go on.
        if (m_shownEpoch == 0 || m_shownEpoch == m_epochs.back())
            showEpoch(m_epochs.front());
        m_timer->start();
    } else {
        m_timer->stop();
    }
    updateControls();
}

void HistoryScrubber::step()
{
    const auto at = std::find(m_epochs.begin(), m_epochs.end(), m_shownEpoch);
    if (at == m_epochs.end() || at + 1 == m_epochs.end()) {
        setPlaying(false);
        return;
    }
    showEpoch(*(at + 1));
    if (m_shownEpoch == m_epochs.back())
        setPlaying(false);
}

void HistoryScrubber::showIndex(int index)
{
    if (index >= 0 && index < int(m_epochs.size()))
        showEpoch(m_epochs[std::size_t(index)]);
}

QString HistoryScrubber::label() const
{
    return textFor(m_shownEpoch);
}

QString HistoryScrubber::textFor(int epoch) const
{
    if (m_epochs.empty())
        return m_emptyMessage;
    if (epoch == 0)
        return tr("Live model · %n epoch(s) kept", nullptr, int(m_epochs.size()));
    return tr("Epoch %1 of %2").arg(epoch).arg(m_epochs.back());
}

void HistoryScrubber::updateControls()
{
    const bool any = !m_epochs.empty();
    const int last = int(m_epochs.size()) - 1;
    {
        const QSignalBlocker blocker(m_slider);  // placing the handle is not the user's choice of an epoch
        m_slider->setRange(0, std::max(0, last));
        const auto at = std::find(m_epochs.begin(), m_epochs.end(), m_shownEpoch);
        m_slider->setValue(at == m_epochs.end() ? std::max(0, last) : int(at - m_epochs.begin()));
    }
    m_slider->setEnabled(any);
    // Without epochs the message takes the slider's room, wrapped in a narrow window; the epoch
    // shown is never wrapped.
    m_slider->setVisible(any);
    m_label->setWordWrap(!any);
    // As wide as its widest text for these epochs, so the slider keeps its length while it plays.
    const QFontMetrics metrics = m_label->fontMetrics();
    m_label->setMinimumWidth(any ? std::max(metrics.horizontalAdvance(textFor(0)),
                                            metrics.horizontalAdvance(textFor(m_epochs.back())))
                                 : 0);
    static_cast<QHBoxLayout *>(layout())->setStretchFactor(m_label, any ? 0 : 1);
    m_play->setEnabled(any);
    m_play->setText(playing() ? tr("&Pause") : tr("&Play"));
    m_play->setIcon(style()->standardIcon(playing() ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    m_latest->setEnabled(m_shownEpoch != 0);
    m_label->setText(label());
}
