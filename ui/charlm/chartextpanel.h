#pragma once

#include "engine/charlm/charlmconfig.h"
#include "engine/charlm/chartext.h"
#include "ui/core/configeditor.h"

#include <QWidget>

#include <memory>
#include <optional>

class QLabel;
class QPushButton;
class QSettings;
class TextSourcePicker;

// The character lab's setup: the training text (the built-in short sentence or longer text, a
// file, or typed text), what the settings make of it (length, alphabet, the split, streams and
// windows, parameters, warnings), and the model and training settings. Choosing the short sentence
// sets the epochs and learning rate it needs (it is one window an epoch), says so, and can undo it.
class CharTextPanel : public QWidget
{
    Q_OBJECT
public:
    enum class Source { ShortText, LongText, File, Typed };
    // What the short sentence needs to be learnt by heart in seconds, slowly enough that the samples
    // show it coming (a faster rate learns it before the second sample).
    static constexpr int kShortTextEpochs = 300;
    static constexpr double kShortTextLearningRate = 0.002;

    explicit CharTextPanel(QWidget *parent = nullptr);

    CharModelConfig modelConfig() const;
    CharTrainingConfig trainingConfig() const;
    // Shows the settings an opened model was trained with.
    void setConfigs(const CharModelConfig &model, const CharTrainingConfig &training);

    // The text as the settings read it; null when there is none (problem() says why).
    std::shared_ptr<const CharText> text() const { return m_text; }
    QString problem() const { return m_problem; }

    Source source() const;
    // As the user's choice in the list: the short sentence brings its settings.
    void chooseSource(Source source);
    void setFile(const QString &path);
    void setTypedText(const QString &text);
    QString previewText() const;
    QString warningText() const;
    QString settingsNote() const;  // what choosing the short sentence changed, while it shows

    void saveSettings(QSettings &settings) const;
    void restoreSettings(QSettings &settings);

signals:
    void changed();  // the text, the settings or the preview changed

private:
    struct Preset {
        int epochs = 0;
        double lr = 0;
    };
    void sourceChosen();
    void undoShortTextSettings();
    void readText();
    void updatePreview();
    void setPreset(const Preset &preset);
    Preset currentPreset() const;

    ConfigEditor<CharModelConfig> m_modelEditor;
    ConfigEditor<CharTrainingConfig> m_trainingEditor;
    TextSourcePicker *m_picker;
    QLabel *m_note;
    QPushButton *m_undo;
    QLabel *m_preview;
    QLabel *m_warnings;
    std::shared_ptr<const CharText> m_text;
    double m_readValidation = -1;  // the settings m_text was read with
    int m_readSeqLen = -1;
    QString m_problem;
    std::optional<Preset> m_beforeShortText;  // the settings the short sentence replaced
};
