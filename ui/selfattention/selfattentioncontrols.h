#pragma once

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QSettings;
class QSpinBox;

// What the self-attention exercise is asked to compute: the sentence, where X comes from,
// d_model, d_k, the seed, whether positions are added, and whether the weights stay hidden until a
// prediction is checked.
class SelfAttentionControls : public QWidget
{
    Q_OBJECT
public:
    enum class Source { Random, Trained };
    static constexpr int kMinDimension = 3;
    static constexpr int kMaxDimension = 8;

    explicit SelfAttentionControls(QWidget *parent = nullptr);

    QString sentence() const;
    void setSentence(const QString &sentence);
    Source source() const;
    void setSource(Source source);
    int dModel() const;
    void setDModel(int dModel);
    int dK() const;
    void setDK(int dK);
    int seed() const;
    void setSeed(int seed);
    bool predictFirst() const;
    void setPredictFirst(bool predictFirst);
    bool positions() const;  // sinusoidal positions added to X
    void setPositions(bool positions);

    // In the group "selfAttention".
    void saveSettings(QSettings &settings) const;
    void restoreSettings(QSettings &settings);

signals:
    void changed();  // any of the inputs

private:
    QLineEdit *m_sentence;
    QComboBox *m_source;
    QSpinBox *m_dModel;
    QSpinBox *m_dK;
    QSpinBox *m_seed;
    QCheckBox *m_predictFirst;
    QCheckBox *m_positions;
};
