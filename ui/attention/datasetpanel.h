#pragma once

#include "engine/attention/datasetconfig.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QRadioButton;
class QSettings;
class QSpinBox;
class QTimer;

// Where training sentences come from: task, word list or corpus file, lengths, split sizes and
// seed, with a live preview and an inline message for settings the engine would reject.
class DatasetPanel : public QWidget
{
    Q_OBJECT
public:
    explicit DatasetPanel(QWidget *parent = nullptr);

    DatasetConfig config() const;
    void setConfig(const DatasetConfig &config);
    QString problem() const;  // empty when the engine accepts config()

    void saveSettings(QSettings &settings) const;
    void restoreSettings(QSettings &settings);

signals:
    void configChanged();

private:
    void browseCorpus();
    void updateEnabled();
    void changed();
    void refreshPreview();

    QComboBox *m_task;
    QRadioButton *m_fromWords;
    QRadioButton *m_fromCorpus;
    QPlainTextEdit *m_words;
    QLabel *m_wordCount;
    QPushButton *m_resetWords;
    QLineEdit *m_corpusPath;
    QPushButton *m_browse;
    QCheckBox *m_lowercase;
    QSpinBox *m_minLength;
    QSpinBox *m_maxLength;
    QSpinBox *m_trainSize;
    QSpinBox *m_valSize;
    QSpinBox *m_testSize;
    QDoubleSpinBox *m_valFraction;
    QDoubleSpinBox *m_testFraction;
    QSpinBox *m_seed;
    QSpinBox *m_maxVocabulary;
    QSpinBox *m_minCount;
    QLabel *m_problem;
    QLabel *m_preview;
    QTimer *m_previewTimer;
    bool m_updating = false;
};
