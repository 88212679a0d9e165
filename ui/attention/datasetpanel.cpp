#include "ui/attention/datasetpanel.h"

#include "engine/attention/trainingconfig.h"
#include "engine/core/corpusdefaults.h"
#include "engine/core/dataset.h"
#include "engine/core/vocabulary.h"
#include "ui/core/configmap.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace {

constexpr int kPreviewPairs = 5;

std::vector<std::string> parseWords(const QString &text)
{
    std::vector<std::string> words;
    const QStringList parts = text.split(QRegularExpression(QStringLiteral("[\\s,]+")), Qt::SkipEmptyParts);
    for (const QString &part : parts) {
        const std::string word = part.toStdString();
        if (std::find(words.begin(), words.end(), word) == words.end())
            words.push_back(word);
    }
    return words;
}

QString joinWords(const std::vector<std::string> &words)
{
    QStringList list;
    for (const std::string &word : words)
        list << QString::fromStdString(word);
    return list.join(QLatin1Char(' '));
}

QString tokensHtml(const std::vector<std::string> &tokens)
{
    QStringList list;
    for (const std::string &token : tokens)
        list << QString::fromStdString(token).toHtmlEscaped();
    return list.join(QLatin1Char(' '));
}

QString pairsHtml(const std::vector<SentencePair> &pairs)
{
    QString html = QStringLiteral("<table cellspacing='0' cellpadding='1'>");
    for (const SentencePair &pair : pairs)
        html += QStringLiteral("<tr><td>%1</td><td>&nbsp;&rarr;&nbsp;</td><td><b>%2</b></td></tr>")
                    .arg(tokensHtml(pair.source), tokensHtml(pair.target));
    return html + QStringLiteral("</table>");
}

}

DatasetPanel::DatasetPanel(QWidget *parent) : QWidget(parent), m_fields(datasetConfigFields(), this)
{
    auto *task = m_fields.widget<QComboBox>("task");
    task->setItemText(int(Task::Reverse), tr("Reverse the word order"));
    task->setItemText(int(Task::Copy), tr("Copy the sentence"));

    m_fromWords = new QRadioButton(tr("Random sentences from a word list"));
    m_fromWords->setToolTip(tr("Sentences are drawn word by word, uniformly at random, from the list below."));
    m_fromCorpus = new QRadioButton(tr("Sentences from a text file"));
    m_fromCorpus->setToolTip(tr("One sentence per line; lines outside the length range are skipped."));

    m_words = new QPlainTextEdit;
    m_words->setTabChangesFocus(true);
    m_words->setToolTip(tr("Words separated by spaces, commas or new lines. Duplicates are ignored."));
    m_words->setFixedHeight(m_words->fontMetrics().lineSpacing() * 5 + 12);
    m_wordCount = new QLabel;
    m_resetWords = new QPushButton(tr("Default words"));
    m_resetWords->setToolTip(tr("Restore the 34 words of the reference assignment."));
    m_digitWords = new QPushButton(tr("Digits"));
    m_digitWords->setObjectName(QStringLiteral("digitWords"));
    m_digitWords->setToolTip(tr("The ten digits 0–9: the course's toy exercise, reversing sequences such as 3 1 4 1 5."));

    m_corpusPath = new QLineEdit;
    m_corpusPath->setPlaceholderText(tr("Choose a .txt file…"));
    m_corpusPath->setClearButtonEnabled(true);
    m_corpusPath->setToolTip(QString::fromStdString(m_fields.field("corpus").help));
    m_browse = new QPushButton(tr("Browse…"));

    m_problem = new QLabel;
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("QLabel { color: #b00020; }"));
    m_problem->hide();
    m_preview = new QLabel;
    m_preview->setObjectName(QStringLiteral("datasetPreview"));
    m_preview->setWordWrap(true);
    m_preview->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_preview->setToolTip(tr("The first sentences of the training split, as the model will see them."));

    auto *taskForm = new QFormLayout;
    m_fields.addRow(taskForm, "task");

    auto *wordsButtons = new QHBoxLayout;
    wordsButtons->addWidget(m_wordCount, 1);
    wordsButtons->addWidget(m_resetWords);
    wordsButtons->addWidget(m_digitWords);
    auto *corpusRow = new QHBoxLayout;
    corpusRow->addWidget(m_corpusPath, 1);
    corpusRow->addWidget(m_browse);
    auto *sourceBox = new QGroupBox(tr("Sentences"));
    auto *sourceLayout = new QVBoxLayout(sourceBox);
    sourceLayout->addWidget(m_fromWords);
    sourceLayout->addWidget(m_words);
    sourceLayout->addLayout(wordsButtons);
    sourceLayout->addWidget(m_fromCorpus);
    sourceLayout->addLayout(corpusRow);
    sourceLayout->addWidget(m_fields.widget("keep-case"));

    auto *lengthRow = new QHBoxLayout;
    lengthRow->addWidget(m_fields.widget("min-len"));
    lengthRow->addWidget(new QLabel(tr("to")));
    lengthRow->addWidget(m_fields.widget("max-len"));
    lengthRow->addWidget(new QLabel(tr("words")), 1);
    auto *splitBox = new QGroupBox(tr("Size and split"));
    auto *splitForm = new QFormLayout(splitBox);
    splitForm->addRow(tr("Length:"), lengthRow);
    for (const char *key : {"train", "val", "test", "val-fraction", "test-fraction", "data-seed"})
        m_fields.addRow(splitForm, key);

    auto *vocabularyBox = new QGroupBox(tr("Vocabulary"));
    auto *vocabularyForm = new QFormLayout(vocabularyBox);
    m_fields.addRow(vocabularyForm, "max-vocabulary");
    m_fields.addRow(vocabularyForm, "min-count");

    auto *previewBox = new QGroupBox(tr("Preview"));
    auto *previewLayout = new QVBoxLayout(previewBox);
    previewLayout->addWidget(m_preview);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(taskForm);
    layout->addWidget(sourceBox);
    layout->addWidget(splitBox);
    layout->addWidget(vocabularyBox);
    layout->addWidget(m_problem);
    layout->addWidget(previewBox);
    layout->addStretch(1);

    m_previewTimer = new QTimer(this);
    m_previewTimer->setSingleShot(true);
    m_previewTimer->setInterval(150);
    connect(m_previewTimer, &QTimer::timeout, this, &DatasetPanel::refreshPreview);

    connect(m_browse, &QPushButton::clicked, this, &DatasetPanel::browseCorpus);
    connect(m_resetWords, &QPushButton::clicked, this,
            [this] { m_words->setPlainText(joinWords(DatasetConfig::defaultWords())); });
    connect(m_digitWords, &QPushButton::clicked, this,
            [this] { m_words->setPlainText(joinWords(DatasetConfig::digitWords())); });
    m_fields.onChanged(this, [this] { changed(); });
    connect(m_fromWords, &QRadioButton::toggled, this, &DatasetPanel::changed);
    connect(m_words, &QPlainTextEdit::textChanged, this, &DatasetPanel::changed);
    connect(m_corpusPath, &QLineEdit::textChanged, this, &DatasetPanel::changed);

    setConfig(DatasetConfig{});
}

DatasetConfig DatasetPanel::config() const
{
    DatasetConfig c = m_fields.value();
    c.words = parseWords(m_words->toPlainText());
    if (m_fromCorpus->isChecked())
        c.corpusPath = m_corpusPath->text().trimmed().toStdString();
    return c;
}

void DatasetPanel::setConfig(const DatasetConfig &c)
{
    m_updating = true;
    m_fields.write(c);
    m_words->setPlainText(joinWords(c.words));
    if (!c.corpusPath.empty())
        m_corpusPath->setText(QString::fromStdString(c.corpusPath));
    m_fromCorpus->setChecked(!c.corpusPath.empty());
    m_fromWords->setChecked(c.corpusPath.empty());
    m_updating = false;
    changed();
}

QString DatasetPanel::problem() const
{
    const DatasetConfig c = config();
    if (m_fromCorpus->isChecked() && c.corpusPath.empty())
        return tr("Choose a text file, or switch to a word list.");
    const std::string problem = validate(c);
    if (problem.empty())
        return {};
    QString text = QString::fromStdString(problem);
    text[0] = text[0].toUpper();
    return text + QLatin1Char('.');
}

void DatasetPanel::saveSettings(QSettings &settings) const
{
    // The file's name is kept while the word list is in use, as the line edit keeps it.
    DatasetConfig c = config();
    c.corpusPath = m_corpusPath->text().toStdString();
    settings.beginGroup(QStringLiteral("dataset"));
    writeSettingsMap(settings, toVariantMap(c, datasetConfigFields()));
    settings.setValue(QStringLiteral("words"), m_words->toPlainText());
    settings.setValue(QStringLiteral("use_corpus"), m_fromCorpus->isChecked());
    settings.endGroup();
}

void DatasetPanel::restoreSettings(QSettings &settings)
{
    DatasetConfig c;
    settings.beginGroup(QStringLiteral("dataset"));
    readVariantMap(settingsMap(settings), c, datasetConfigFields());
    if (settings.contains(QStringLiteral("words")))
        c.words = parseWords(settings.value(QStringLiteral("words")).toString());
    const QString corpus = QString::fromStdString(c.corpusPath);
    if (!settings.value(QStringLiteral("use_corpus"), false).toBool())
        c.corpusPath.clear();
    settings.endGroup();
    m_corpusPath->setText(corpus);
    setConfig(c);
}

void DatasetPanel::browseCorpus()
{
    const QString start = m_corpusPath->text().isEmpty() ? QString() : QFileInfo(m_corpusPath->text()).path();
    const QString path = QFileDialog::getOpenFileName(this, tr("Choose a Corpus"), start,
                                                      tr("Text files (*.txt);;All files (*)"));
    if (path.isEmpty())
        return;
    m_corpusPath->setText(path);
    m_fromCorpus->setChecked(true);
}

void DatasetPanel::updateEnabled()
{
    const bool corpus = m_fromCorpus->isChecked();
    m_words->setEnabled(!corpus);
    m_resetWords->setEnabled(!corpus);
    m_digitWords->setEnabled(!corpus);
    m_wordCount->setEnabled(!corpus);
    m_corpusPath->setEnabled(corpus);
    m_browse->setEnabled(true);
    m_fields.widget("keep-case")->setEnabled(corpus);
    // A file is split by shares of its lines; generated data by counts.
    for (const char *key : {"train", "val", "test"})
        m_fields.widget(key)->setEnabled(!corpus);
    for (const char *key : {"val-fraction", "test-fraction"})
        m_fields.widget(key)->setEnabled(corpus);
}

void DatasetPanel::changed()
{
    if (m_updating)
        return;
    updateEnabled();
    const int words = int(parseWords(m_words->toPlainText()).size());
    m_wordCount->setText(tr("%n distinct word(s)", nullptr, words));
    const QString message = problem();
    m_problem->setText(message);
    m_problem->setVisible(!message.isEmpty());
    m_previewTimer->start();
    emit configChanged();
}

void DatasetPanel::showAutoValues(const QString &maxLength, const QString &minCount)
{
    for (const auto &[key, text] : {std::pair{"max-len", maxLength}, std::pair{"min-count", minCount}}) {
        auto *box = m_fields.widget<QSpinBox>(key);
        box->setSpecialValueText(text);
        box->updateGeometry();  // the size hint fits the special text, which the layout must be told of
    }
}

void DatasetPanel::refreshPreview()
{
    showAutoValues(tr("Auto"), tr("Auto"));
    if (!problem().isEmpty()) {
        m_preview->setText(tr("<i>No preview: fix the settings above.</i>"));
        return;
    }
    const DatasetConfig c = config();
    // What auto stands for, shown in the spin boxes whenever they are turned down to it.
    DatasetConfig onAuto = c;
    onAuto.maxLength = 0;
    onAuto.minCount = 0;
    if (c.corpusPath.empty()) {
        showAutoValues(tr("Auto (%1)").arg(generatedMaxLength(onAuto)), tr("Auto (%1)").arg(effectiveMinCount(onAuto)));
        m_preview->setText(pairsHtml(previewPairs(c, kPreviewPairs)));
        return;
    }
    // Reading the file also tells how many lines it gives, why others were left out, and what the
    // settings on auto come to, before anything is trained.
    try {
        const Dataset data = Dataset::build(c);
        const int minCount = effectiveMinCount(c);
        const int vocabularySize = vocabularyFor(data, c).size();
        // The auto limit is known only while max-len is on auto; the entry is shown only then. The
        // preview below says which percentile it is: the box has room for a number.
        showAutoValues(data.lengthPercentile > 0 ? tr("Auto (%1)").arg(data.maxLength) : tr("Auto"),
                       tr("Auto (%1)").arg(effectiveMinCount(onAuto)));
        const QLocale locale;
        QStringList lines;
        lines << tr("%1 training, %2 validation, %3 test sentences.")
                     .arg(locale.toString(qlonglong(data.train.size())),
                          locale.toString(qlonglong(data.val.size())),
                          locale.toString(qlonglong(data.test.size())));
        const QString limit = data.lengthPercentile > 0
                                  ? tr("Lengths %1 to %2 tokens (auto: the %3th percentile of the file's lines).")
                                        .arg(c.minLength)
                                        .arg(data.maxLength)
                                        .arg(data.lengthPercentile)
                                  : tr("Lengths %1 to %2 tokens.").arg(c.minLength).arg(data.maxLength);
        lines << limit + QLatin1Char(' ')
                     + tr("Skipped %1 blank, %2 too long and %3 too short lines.")
                           .arg(locale.toString(data.skippedBlank), locale.toString(data.skippedTooLong),
                                locale.toString(data.skippedTooShort));
        lines << tr("Vocabulary: %1 words, minimum count %2%3, at most %4%5.")
                     .arg(locale.toString(vocabularySize), locale.toString(minCount),
                          c.minCount == 0 ? tr(" (auto)") : QString(), locale.toString(effectiveMaxVocabulary(c)),
                          c.maxVocabulary == 0 ? tr(" (auto)") : QString());
        lines << tr("A learning-rate decay per epoch on auto is x%1 for a file (0.5 for generated sentences), and "
                    "halving after an epoch that does not improve the validation loss.")
                     .arg(locale.toString(kCorpusEpochDecay));
        std::vector<SentencePair> first(data.train.begin(),
                                        data.train.begin() + std::min<std::ptrdiff_t>(kPreviewPairs, std::ptrdiff_t(data.train.size())));
        QString html = pairsHtml(first);
        for (const QString &line : lines)
            html += QStringLiteral("<p>%1</p>").arg(line.toHtmlEscaped());
        m_preview->setText(html);
    } catch (const std::exception &error) {
        m_preview->setText(QStringLiteral("<span style='color:#b00020'>%1</span>")
                               .arg(QString::fromStdString(error.what()).toHtmlEscaped()));
    }
}
