#include "ui/word2vec/corpuspanel.h"

#include "engine/word2vec/builtincorpus.h"
#include "ui/core/configmap.h"
#include "ui/core/textsourcepicker.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QSettings>
#include <QVBoxLayout>

namespace {

constexpr std::size_t kMaxCorpusBytes = std::size_t(512) << 20;

bool sameCorpusSettings(const CorpusConfig &a, const CorpusConfig &b)
{
    return a.minCount == b.minCount && a.maxVocabulary == b.maxVocabulary;
}

}

CorpusPanel::CorpusPanel(QWidget *parent)
    : QWidget(parent), m_corpusEditor(corpusFields(), this), m_editor(word2vecFields(), this),
      m_picker(new TextSourcePicker({{tr("Built-in corpus (animals, foods, places, …)"), builtInWordCorpus}},
                                    kMaxCorpusBytes, tr("Paste or type text here, one sentence a line."))),
      m_preview(new QLabel), m_warnings(new QLabel)
{
    m_picker->sourceBox()->setObjectName(QStringLiteral("corpusSource"));
    m_picker->sourceBox()->setToolTip(tr("Where the sentences come from: one sentence or paragraph a line."));
    m_picker->typedBox()->setObjectName(QStringLiteral("pastedText"));
    m_preview->setObjectName(QStringLiteral("corpusPreview"));
    m_preview->setWordWrap(true);
    m_preview->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_warnings->setObjectName(QStringLiteral("corpusWarnings"));
    m_warnings->setWordWrap(true);
    m_warnings->setStyleSheet(QStringLiteral("color: #b35900;"));

    auto *corpusBox = new QGroupBox(tr("Corpus"));
    auto *corpusLayout = new QVBoxLayout(corpusBox);
    corpusLayout->addWidget(m_picker, 1);
    auto *corpusForm = new QFormLayout;
    for (const char *key : {"min-count", "max-vocabulary", "sample", "punctuation"})
        m_corpusEditor.addRow(corpusForm, key);
    corpusLayout->addLayout(corpusForm);
    corpusLayout->addWidget(m_preview);
    corpusLayout->addWidget(m_warnings);

    auto *modelBox = new QGroupBox(tr("Model and training"));
    auto *form = new QFormLayout(modelBox);
    for (const char *key : {"cbow", "dim", "window", "whole-window", "negative", "noise-exponent", "epochs", "alpha",
                            "constant-rate", "init-std", "seed", "threads"})
        m_editor.addRow(form, key);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(corpusBox, 1);
    layout->addWidget(modelBox);

    m_corpusEditor.write(CorpusConfig());
    m_editor.write(Word2VecConfig());
    connect(m_picker, &TextSourcePicker::changed, this, &CorpusPanel::readCorpus);
    m_corpusEditor.onChanged(this, [this] {
        if (sameCorpusSettings(corpusConfig(), m_corpusRead))
            updatePreview();
        else
            readCorpus();
    });
    m_editor.onChanged(this, [this] { updatePreview(); });
    readCorpus();
}

CorpusConfig CorpusPanel::corpusConfig() const
{
    return m_corpusEditor.value();
}

Word2VecConfig CorpusPanel::config() const
{
    return m_editor.value();
}

CorpusPanel::Source CorpusPanel::source() const
{
    return Source(m_picker->choice());
}

void CorpusPanel::setConfigs(const CorpusConfig &corpus, const Word2VecConfig &training)
{
    m_corpusEditor.write(corpus);
    m_editor.write(training);
    readCorpus();
}

void CorpusPanel::setSource(Source source)
{
    m_picker->setChoice(int(source));
}

void CorpusPanel::setPastedText(const QString &text)
{
    m_picker->setTypedText(text);
}

void CorpusPanel::setFile(const QString &path)
{
    m_picker->setFile(path);
}

QString CorpusPanel::previewText() const
{
    return m_preview->text();
}

QString CorpusPanel::warningText() const
{
    return m_warnings->text();
}

void CorpusPanel::readCorpus()
{
    m_corpus.reset();
    m_corpusRead = corpusConfig();
    m_problem = m_picker->problem();
    try {
        if (m_problem.isEmpty())
            m_corpus = std::make_shared<const WordCorpus>(buildWordCorpus(m_picker->text(), m_corpusRead));
    } catch (const std::invalid_argument &e) {
        m_problem = QString::fromStdString(e.what());
    }
    updatePreview();
}

void CorpusPanel::updatePreview()
{
    if (!m_corpus) {
        m_preview->setText(m_problem);
        m_warnings->clear();
        emit changed();
        return;
    }
    const QLocale locale;
    const CorpusPreview p = previewCorpus(*m_corpus, corpusConfig(), config());
    m_preview->setText(tr("%1 words, %2 distinct; %3 in the vocabulary (%4 tokens).\n"
                          "Per epoch: about %5 tokens after subsampling, %6 training pairs.\n"
                          "Parameters: %7.")
                           .arg(locale.toString(qlonglong(p.rawTokens)), locale.toString(qlonglong(p.distinctWords)),
                                locale.toString(p.vocabulary), locale.toString(qlonglong(p.keptTokens)),
                                locale.toString(qlonglong(p.expectedAfterSampling)),
                                locale.toString(qlonglong(p.pairsPerEpoch)), locale.toString(qlonglong(p.parameters))));
    QStringList warnings;
    for (const std::string &w : p.warnings)
        warnings << QStringLiteral("⚠ ") + QString::fromStdString(w);
    m_warnings->setText(warnings.join('\n'));
    emit changed();
}

void CorpusPanel::saveSettings(QSettings &settings) const
{
    settings.beginGroup(QStringLiteral("word2vec"));
    m_picker->saveSettings(settings);
    writeSettingsMap(settings, toVariantMap(corpusConfig(), corpusFields()));
    writeSettingsMap(settings, toVariantMap(config(), word2vecFields()));
    settings.endGroup();
}

void CorpusPanel::restoreSettings(QSettings &settings)
{
    settings.beginGroup(QStringLiteral("word2vec"));
    const QVariantMap map = settingsMap(settings);
    CorpusConfig corpus;
    readVariantMap(map, corpus, corpusFields());
    Word2VecConfig training;
    readVariantMap(map, training, word2vecFields());
    m_corpusEditor.write(corpus);
    m_editor.write(training);
    m_picker->restoreSettings(settings, int(Source::BuiltIn));
    settings.endGroup();
    readCorpus();
}
