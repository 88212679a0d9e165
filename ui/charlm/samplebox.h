#pragma once

#include "engine/charlm/charsampling.h"

#include <QWidget>

#include <memory>

class CharValueText;
class QLabel;
class QLineEdit;
class QPushButton;
class QSettings;
class QSlider;
class QSpinBox;
class QTimer;

// The sample box: text drawn from a snapshot of the model with a temperature, top-k, a prime and a
// length, and beneath each character the entropy of the distribution it was drawn from, so low
// temperature is seen to loop (certain: dark) and high temperature to babble (unsure: yellow).
// Moving the temperature or top-k draws again with the same seed; Sample draws with a new one.
class SampleBox : public QWidget
{
    Q_OBJECT
public:
    explicit SampleBox(QWidget *parent = nullptr);

    // The weights to sample from; null: none yet.
    void setNet(std::shared_ptr<const CharInferenceNet> net);
    void sample();

    double temperature() const;
    void setTemperature(double temperature);
    void setTopK(int k);
    void setPrime(const QString &prime);
    void setLength(int length);

    bool hasSample() const { return m_hasSample; }
    const SampledText &result() const { return m_result; }
    QString plainText() const;  // the prime and what followed it
    double meanEntropy() const;
    CharValueText *view() const { return m_view; }

    void saveSettings(QSettings &settings) const;
    void restoreSettings(QSettings &settings);

signals:
    void sampled();

private:
    void draw();
    void updateTemperatureLabel();
    void updateLegend();

    std::shared_ptr<const CharInferenceNet> m_net;
    QSlider *m_temperature;
    QLabel *m_temperatureLabel;
    QSpinBox *m_topK;
    QLineEdit *m_prime;
    QSpinBox *m_length;
    QPushButton *m_sample;
    CharValueText *m_view;
    QLabel *m_legend;
    QLabel *m_summary;
    QTimer *m_redraw;
    SampledText m_result;
    bool m_hasSample = false;
    uint64_t m_seed = 1;
};
