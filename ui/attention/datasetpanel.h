#pragma once

#include "engine/core/datasetconfig.h"
#include "ui/core/configeditor.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QRadioButton;
class QSettings;
class QTimer;

// Where training sentences come from: task, word list or corpus file, lengths, split sizes and
// seed, with a live preview and an inline message for settings the engine would reject. The number,
// flag and choice widgets are made from datasetConfigFields() (objectName: the field's key).
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
    // The auto entries of max-len and min-count name the values they stand for on this data.
    void showAutoValues(const QString &maxLength, const QString &minCount);

    ConfigEditor<DatasetConfig> m_fields;
    QRadioButton *m_fromWords;
    QRadioButton *m_fromCorpus;
    QPlainTextEdit *m_words;
    QLabel *m_wordCount;
    QPushButton *m_resetWords;
    QPushButton *m_digitWords;
    QLineEdit *m_corpusPath;
    QPushButton *m_browse;
    QLabel *m_problem;
    QLabel *m_preview;
    QTimer *m_previewTimer;
    bool m_updating = false;
};
