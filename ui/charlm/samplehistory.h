#pragma once

#include "ui/charlm/charlmresults.h"

#include <QWidget>

#include <deque>

class QDoubleSpinBox;
class QLabel;
class QSettings;
class QSpinBox;
class QTextEdit;

// Samples over training: every few iterations the training job draws a sample from the weights of
// the moment and it is appended here under its iteration and loss, so the text can be read getting
// better (Karpathy's figure of a char-RNN learning). The controls say how often, how long and how
// hot the samples are; they apply from the next run.
class SampleHistory : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kMaxSamples = 1000;  // older ones are dropped, the first kept

    explicit SampleHistory(QWidget *parent = nullptr);

    CharProbeSettings settings() const;
    void clear();
    void addSample(const CharProbe &probe);
    int sampleCount() const { return int(m_samples.size()); }
    QString plainText() const;  // as the export writes it

    void saveSettings(QSettings &settings) const;
    void restoreSettings(QSettings &settings);

private:
    struct Entry {
        QString heading;
        QString prime;
        QString sample;
    };
    void append(const Entry &entry);
    void render();

    QSpinBox *m_every;
    QSpinBox *m_length;
    QDoubleSpinBox *m_temperature;
    QTextEdit *m_view;
    std::deque<Entry> m_samples;
    bool m_dropped = false;
};
