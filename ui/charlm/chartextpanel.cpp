#include "ui/charlm/chartextpanel.h"

#include "engine/charlm/builtintexts.h"
#include "ui/core/configmap.h"
#include "ui/core/textsourcepicker.h"

#include <QDoubleSpinBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace {

// A file of at most the longest text the lab takes, in UTF-8's widest characters.
constexpr std::size_t kMaxFileBytes = std::size_t(kMaxCharTextLength) * 4;

QString localeNumber(qlonglong n)
{
    return QLocale().toString(n);
}

QString learningRate(double lr)
{
    return QLocale().toString(lr, 'g', 6);
}

}

CharTextPanel::CharTextPanel(QWidget *parent)
    : QWidget(parent), m_modelEditor(charModelFields(), this), m_trainingEditor(charTrainingFields(), this),
      m_picker(new TextSourcePicker({{tr("Short sentence (a pangram)"), builtInShortText},
                                     {tr("Longer text (Shakespeare)"), builtInLongText}},
                                    kMaxFileBytes, tr("Type or paste the text to learn."))),
      m_note(new QLabel), m_undo(new QPushButton(tr("Undo"))), m_preview(new QLabel), m_warnings(new QLabel)
{
    m_picker->setChoice(int(Source::LongText));
    m_picker->sourceBox()->setObjectName(QStringLiteral("textSource"));
    m_picker->sourceBox()->setToolTip(tr("What the model learns to write. The short sentence is learnt by heart in "
                                         "seconds; the longer text teaches words, spaces and punctuation, with a "
                                         "held-out tail to validate on."));
    m_picker->typedBox()->setObjectName(QStringLiteral("typedText"));
    m_note->setObjectName(QStringLiteral("settingsNote"));
    m_note->setWordWrap(true);
    m_note->setStyleSheet(QStringLiteral("background: #eef4fb; border: 1px solid #b9cfe8; border-radius: 3px; padding: 4px;"));
    m_undo->setObjectName(QStringLiteral("undoTextSettings"));
    m_undo->setToolTip(tr("Put back the epochs and learning rate there were before."));
    m_preview->setObjectName(QStringLiteral("textPreview"));
    m_preview->setWordWrap(true);
    m_preview->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_warnings->setObjectName(QStringLiteral("textWarnings"));
    m_warnings->setWordWrap(true);
    m_warnings->setStyleSheet(QStringLiteral("color: #b35900;"));

    auto *textBox = new QGroupBox(tr("Training text"));
    auto *textLayout = new QVBoxLayout(textBox);
    textLayout->addWidget(m_picker);
    textLayout->addWidget(m_note);
    auto *undoRow = new QHBoxLayout;
    undoRow->addStretch(1);
    undoRow->addWidget(m_undo);
    textLayout->addLayout(undoRow);
    textLayout->addWidget(m_preview);
    textLayout->addWidget(m_warnings);

    auto *modelBox = new QGroupBox(tr("Model"));
    auto *modelForm = new QFormLayout(modelBox);
    for (const char *key : {"cell", "hidden", "layers", "embed"})
        m_modelEditor.addRow(modelForm, key);
    auto *trainingBox = new QGroupBox(tr("Training"));
    auto *trainingForm = new QFormLayout(trainingBox);
    for (const char *key : {"seq-len", "batch", "whole-text", "epochs", "lr", "optimizer", "momentum", "clip", "val",
                            "seed", "threads"})
        m_trainingEditor.addRow(trainingForm, key);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(textBox);
    layout->addWidget(modelBox);
    layout->addWidget(trainingBox);
    layout->addStretch(1);

    m_modelEditor.write(CharModelConfig());
    m_trainingEditor.write(CharTrainingConfig());
    m_note->hide();
    m_undo->hide();
    connect(m_picker, &TextSourcePicker::chosen, this, &CharTextPanel::sourceChosen);
    connect(m_picker, &TextSourcePicker::changed, this, &CharTextPanel::readText);
    connect(m_undo, &QPushButton::clicked, this, &CharTextPanel::undoShortTextSettings);
    m_modelEditor.onChanged(this, [this] { updatePreview(); });
    m_trainingEditor.onChanged(this, [this] {
        const CharTrainingConfig training = trainingConfig();
        if (training.val != m_readValidation || training.seqLen != m_readSeqLen)
            readText();  // the split depends on them
        else
            updatePreview();
    });
    readText();
}

CharModelConfig CharTextPanel::modelConfig() const
{
    return m_modelEditor.value();
}

CharTrainingConfig CharTextPanel::trainingConfig() const
{
    return m_trainingEditor.value();
}

void CharTextPanel::setConfigs(const CharModelConfig &model, const CharTrainingConfig &training)
{
    m_modelEditor.write(model);
    m_trainingEditor.write(training);
}

CharTextPanel::Source CharTextPanel::source() const
{
    return Source(m_picker->choice());
}

void CharTextPanel::chooseSource(Source source)
{
    m_picker->setChoice(int(source));
    sourceChosen();
}

CharTextPanel::Preset CharTextPanel::currentPreset() const
{
    const CharTrainingConfig training = trainingConfig();
    return {training.epochs, training.lr};
}

void CharTextPanel::setPreset(const Preset &preset)
{
    CharTrainingConfig training = trainingConfig();
    training.epochs = preset.epochs;
    training.lr = preset.lr;
    m_trainingEditor.write(training);
}

void CharTextPanel::sourceChosen()
{
    const Preset shortText{kShortTextEpochs, kShortTextLearningRate};
    if (source() == Source::ShortText) {
        const Preset before = currentPreset();
        if (before.epochs != shortText.epochs || before.lr != shortText.lr) {
            m_beforeShortText = before;
            setPreset(shortText);
            const QString changed = before.lr == shortText.lr
                                        ? tr("epochs set to %1 (were %2)").arg(localeNumber(shortText.epochs), localeNumber(before.epochs))
                                        : tr("epochs set to %1 and the learning rate to %2 (were %3 and %4)")
                                              .arg(localeNumber(shortText.epochs), learningRate(shortText.lr),
                                                   localeNumber(before.epochs), learningRate(before.lr));
            m_note->setText(tr("The short sentence is one window an epoch, so it needs many: %1, enough to learn it "
                               "by heart in a few seconds.").arg(changed));
            m_note->show();
            m_undo->show();
        }
    } else if (m_beforeShortText) {
        // Leaving the short sentence with its settings untouched: the longer texts get theirs back.
        const Preset now = currentPreset();
        if (now.epochs == shortText.epochs && now.lr == shortText.lr) {
            setPreset(*m_beforeShortText);
            m_note->setText(tr("Epochs and learning rate put back to %1 and %2.")
                                .arg(localeNumber(m_beforeShortText->epochs), learningRate(m_beforeShortText->lr)));
            m_note->show();
        } else {
            m_note->hide();
        }
        m_undo->hide();
        m_beforeShortText.reset();
    } else {
        m_note->hide();
    }
    readText();
}

void CharTextPanel::undoShortTextSettings()
{
    if (m_beforeShortText)
        setPreset(*m_beforeShortText);
    m_beforeShortText.reset();
    m_note->hide();
    m_undo->hide();
}

QString CharTextPanel::settingsNote() const
{
    return m_note->isHidden() ? QString() : m_note->text();
}

void CharTextPanel::setTypedText(const QString &text)
{
    m_picker->setTypedText(text);
}

void CharTextPanel::setFile(const QString &path)
{
    const bool another = source() != Source::File;
    m_picker->setFile(path);
    if (another)
        sourceChosen();
}

QString CharTextPanel::previewText() const
{
    return m_preview->text();
}

QString CharTextPanel::warningText() const
{
    return m_warnings->text();
}

void CharTextPanel::readText()
{
    const CharTrainingConfig training = trainingConfig();
    m_readValidation = training.val;
    m_readSeqLen = training.seqLen;
    m_text.reset();
    m_problem = m_picker->problem();
    try {
        if (m_problem.isEmpty())
            m_text = std::make_shared<const CharText>(buildCharText(m_picker->text(), training.val, training.seqLen));
    } catch (const std::invalid_argument &e) {
        m_problem = QString::fromStdString(e.what());
    }
    updatePreview();
}

void CharTextPanel::updatePreview()
{
    if (!m_text) {
        m_preview->setText(m_problem);
        m_warnings->clear();
        emit changed();
        return;
    }
    const CharTextPreview p = previewCharText(*m_text, modelConfig(), trainingConfig());
    QString text = tr("%1 characters, %2 distinct.").arg(localeNumber(p.characters), localeNumber(p.alphabet));
    if (p.validationCharacters > 0)
        text += QLatin1Char('\n') + tr("Training on the first %1, validating on the last %2.")
                                        .arg(localeNumber(p.trainCharacters), localeNumber(p.validationCharacters));
    else
        text += QLatin1Char('\n') + QString::fromStdString(p.validationNote);
    const CharStreams &s = p.streams;
    text += QLatin1Char('\n') + (s.streams == 1 ? tr("Read as 1 stream of %1 characters").arg(localeNumber(s.streamLength))
                                                : tr("Read as %1 streams of %2 characters").arg(s.streams).arg(localeNumber(s.streamLength)));
    text += s.windowsPerEpoch == 1 ? tr(": 1 window an epoch.") : tr(": %1 windows an epoch.").arg(localeNumber(s.windowsPerEpoch));
    text += QLatin1Char('\n') + tr("Parameters: %1.").arg(localeNumber(p.parameters));
    m_preview->setText(text);
    QStringList warnings;
    for (const std::string &w : p.warnings)
        warnings << QStringLiteral("⚠ ") + QString::fromStdString(w);
    m_warnings->setText(warnings.join(QLatin1Char('\n')));
    emit changed();
}

void CharTextPanel::saveSettings(QSettings &settings) const
{
    m_picker->saveSettings(settings);
    writeSettingsMap(settings, toVariantMap(modelConfig(), charModelFields()));
    writeSettingsMap(settings, toVariantMap(trainingConfig(), charTrainingFields()));
}

void CharTextPanel::restoreSettings(QSettings &settings)
{
    const QVariantMap map = settingsMap(settings);
    CharModelConfig model;
    readVariantMap(map, model, charModelFields());
    CharTrainingConfig training;
    readVariantMap(map, training, charTrainingFields());
    setConfigs(model, training);
    m_picker->restoreSettings(settings, int(Source::LongText));  // as it was left: no settings brought
    m_note->hide();
    m_undo->hide();
    m_beforeShortText.reset();
    readText();
}
