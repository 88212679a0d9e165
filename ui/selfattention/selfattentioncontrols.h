#pragma once

#include <QList>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QSettings;
class QSpinBox;
class QToolButton;

// What the self-attention exercise is asked to compute: the sentence, where X comes from,
// d_model, d_k, the seed, whether positions are added, and whether the weights stay hidden until a
// prediction is checked. A trained head (another lab's) fixes the sentence, X and the projections:
// while it is the source, its words stand in the sentence field, disabled, and the sizes, seed and
// positions are hidden.
class SelfAttentionControls : public QWidget
{
    Q_OBJECT
public:
    enum class Source { Random, Trained, Head };
    static constexpr int kMinDimension = 3;
    static constexpr int kMaxDimension = 8;

    explicit SelfAttentionControls(QWidget *parent = nullptr);

    QString sentence() const;  // as typed, also while a head's words are shown
    void setSentence(const QString &sentence);
    Source source() const;
    void setSource(Source source);
    // Adds the source Head, named after the head's `description`, or renames it; `words` are the
    // head's sentence.
    void offerHead(const QString &description, const QString &words);
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
    void showSource();

    QLineEdit *m_sentence;
    QToolButton *m_course;
    QList<QWidget *> m_randomOnly;  // the sizes, the seed and positions: a head fixes them
    QString m_typed;                // the sentence typed, kept while the head's words are shown
    QString m_headWords;
    bool m_showingHead = false;
    QComboBox *m_source;
    QSpinBox *m_dModel;
    QSpinBox *m_dK;
    QSpinBox *m_seed;
    QCheckBox *m_predictFirst;
    QCheckBox *m_positions;
};
