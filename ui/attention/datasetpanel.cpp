#include "ui/attention/datasetpanel.h"

#include "engine/attention/dataset.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
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
#include <climits>

namespace {

constexpr int kPreviewPairs = 5;
constexpr int kMaxSplitSize = 10000000;  // the engine's limit
constexpr int kMaxSentenceLength = 100;  // the engine's limit

QSpinBox *spinBox(int minimum, int maximum, const QString &toolTip)
{
    auto *box = new QSpinBox;
    box->setRange(minimum, maximum);
    box->setGroupSeparatorShown(true);
    box->setToolTip(toolTip);
    return box;
}

QDoubleSpinBox *fractionBox(const QString &toolTip)
{
    auto *box = new QDoubleSpinBox;
    box->setRange(0.01, 0.49);
    box->setSingleStep(0.01);
    box->setDecimals(2);
    box->setToolTip(toolTip);
    return box;
}

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

DatasetPanel::DatasetPanel(QWidget *parent) : QWidget(parent)
{
    m_task = new QComboBox;
    m_task->addItem(tr("Reverse the word order"), int(Task::Reverse));
    m_task->addItem(tr("Copy the sentence"), int(Task::Copy));
    m_task->setToolTip(tr("What the model learns to output: the input words in reverse order, or "
                          "the same words unchanged (a control task)."));

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

    m_corpusPath = new QLineEdit;
    m_corpusPath->setPlaceholderText(tr("Choose a .txt file…"));
    m_corpusPath->setClearButtonEnabled(true);
    m_corpusPath->setToolTip(tr("Plain UTF-8 text, one sentence per line."));
    m_browse = new QPushButton(tr("Browse…"));
    m_lowercase = new QCheckBox(tr("Lower-case the text"));
    m_lowercase->setToolTip(tr("Fold ASCII letters to lower case before tokenizing, so \"The\" and "
                               "\"the\" are one word."));

    m_minLength = spinBox(1, kMaxSentenceLength, tr("Shortest sentence, in words."));
    m_maxLength = spinBox(1, kMaxSentenceLength, tr("Longest sentence, in words."));
    m_trainSize = spinBox(1, kMaxSplitSize, tr("Sentences the model learns from."));
    m_valSize = spinBox(1, kMaxSplitSize,
                        tr("Sentences used after each epoch to pick the best model and to stop early."));
    m_testSize = spinBox(1, kMaxSplitSize, tr("Held-out sentences scored once training ends."));
    m_valFraction = fractionBox(tr("Share of the file's sentences used for validation."));
    m_testFraction = fractionBox(tr("Share of the file's sentences held out for the final test."));
    m_seed = spinBox(0, INT_MAX, tr("The same seed and settings always give the same sentences."));
    m_maxVocabulary = spinBox(0, 1000000, tr("Keep only the most frequent words; the rest become "
                                             "<UNK>. 0 keeps every word."));
    m_maxVocabulary->setSpecialValueText(tr("No limit"));
    m_minCount = spinBox(1, 1000, tr("Words seen fewer times than this in the training split become <UNK>."));

    m_problem = new QLabel;
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("QLabel { color: #b00020; }"));
    m_problem->hide();
    m_preview = new QLabel;
    m_preview->setWordWrap(true);
    m_preview->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_preview->setToolTip(tr("The first sentences of the training split, as the model will see them."));

    auto *taskForm = new QFormLayout;
    taskForm->addRow(tr("Task:"), m_task);

    auto *wordsButtons = new QHBoxLayout;
    wordsButtons->addWidget(m_wordCount, 1);
    wordsButtons->addWidget(m_resetWords);
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
    sourceLayout->addWidget(m_lowercase);

    auto *lengthRow = new QHBoxLayout;
    lengthRow->addWidget(m_minLength);
    lengthRow->addWidget(new QLabel(tr("to")));
    lengthRow->addWidget(m_maxLength);
    lengthRow->addWidget(new QLabel(tr("words")), 1);
    auto *splitBox = new QGroupBox(tr("Size and split"));
    auto *splitForm = new QFormLayout(splitBox);
    splitForm->addRow(tr("Length:"), lengthRow);
    splitForm->addRow(tr("Training:"), m_trainSize);
    splitForm->addRow(tr("Validation:"), m_valSize);
    splitForm->addRow(tr("Test:"), m_testSize);
    splitForm->addRow(tr("Validation share:"), m_valFraction);
    splitForm->addRow(tr("Test share:"), m_testFraction);
    splitForm->addRow(tr("Seed:"), m_seed);

    auto *vocabularyBox = new QGroupBox(tr("Vocabulary"));
    auto *vocabularyForm = new QFormLayout(vocabularyBox);
    vocabularyForm->addRow(tr("Largest size:"), m_maxVocabulary);
    vocabularyForm->addRow(tr("Minimum count:"), m_minCount);

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
    connect(m_task, &QComboBox::currentIndexChanged, this, &DatasetPanel::changed);
    connect(m_fromWords, &QRadioButton::toggled, this, &DatasetPanel::changed);
    connect(m_words, &QPlainTextEdit::textChanged, this, &DatasetPanel::changed);
    connect(m_corpusPath, &QLineEdit::textChanged, this, &DatasetPanel::changed);
    connect(m_lowercase, &QCheckBox::toggled, this, &DatasetPanel::changed);
    for (QSpinBox *box : {m_minLength, m_maxLength, m_trainSize, m_valSize, m_testSize, m_seed,
                          m_maxVocabulary, m_minCount})
        connect(box, &QSpinBox::valueChanged, this, &DatasetPanel::changed);
    for (QDoubleSpinBox *box : {m_valFraction, m_testFraction})
        connect(box, &QDoubleSpinBox::valueChanged, this, &DatasetPanel::changed);

    setConfig(DatasetConfig{});
}

DatasetConfig DatasetPanel::config() const
{
    DatasetConfig c;
    c.task = Task(m_task->currentData().toInt());
    c.words = parseWords(m_words->toPlainText());
    if (m_fromCorpus->isChecked())
        c.corpusPath = m_corpusPath->text().trimmed().toStdString();
    c.lowercase = m_lowercase->isChecked();
    c.minLength = m_minLength->value();
    c.maxLength = m_maxLength->value();
    c.trainSize = m_trainSize->value();
    c.valSize = m_valSize->value();
    c.testSize = m_testSize->value();
    c.valFraction = m_valFraction->value();
    c.testFraction = m_testFraction->value();
    c.seed = std::uint64_t(m_seed->value());
    c.maxVocabulary = m_maxVocabulary->value();
    c.minCount = m_minCount->value();
    return c;
}

void DatasetPanel::setConfig(const DatasetConfig &c)
{
    m_updating = true;
    m_task->setCurrentIndex(m_task->findData(int(c.task)));
    m_words->setPlainText(joinWords(c.words));
    if (!c.corpusPath.empty())
        m_corpusPath->setText(QString::fromStdString(c.corpusPath));
    m_fromCorpus->setChecked(!c.corpusPath.empty());
    m_fromWords->setChecked(c.corpusPath.empty());
    m_lowercase->setChecked(c.lowercase);
    m_minLength->setValue(c.minLength);
    m_maxLength->setValue(c.maxLength);
    m_trainSize->setValue(c.trainSize);
    m_valSize->setValue(c.valSize);
    m_testSize->setValue(c.testSize);
    m_valFraction->setValue(c.valFraction);
    m_testFraction->setValue(c.testFraction);
    m_seed->setValue(int(std::min<std::uint64_t>(c.seed, INT_MAX)));
    m_maxVocabulary->setValue(c.maxVocabulary);
    m_minCount->setValue(c.minCount);
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
    const DatasetConfig c = config();
    settings.beginGroup(QStringLiteral("dataset"));
    settings.setValue(QStringLiteral("task"), QString::fromLatin1(taskName(c.task)));
    settings.setValue(QStringLiteral("words"), m_words->toPlainText());
    settings.setValue(QStringLiteral("useCorpus"), m_fromCorpus->isChecked());
    settings.setValue(QStringLiteral("corpusPath"), m_corpusPath->text());
    settings.setValue(QStringLiteral("lowercase"), c.lowercase);
    settings.setValue(QStringLiteral("minLength"), c.minLength);
    settings.setValue(QStringLiteral("maxLength"), c.maxLength);
    settings.setValue(QStringLiteral("trainSize"), c.trainSize);
    settings.setValue(QStringLiteral("valSize"), c.valSize);
    settings.setValue(QStringLiteral("testSize"), c.testSize);
    settings.setValue(QStringLiteral("valFraction"), c.valFraction);
    settings.setValue(QStringLiteral("testFraction"), c.testFraction);
    settings.setValue(QStringLiteral("seed"), quint64(c.seed));
    settings.setValue(QStringLiteral("maxVocabulary"), c.maxVocabulary);
    settings.setValue(QStringLiteral("minCount"), c.minCount);
    settings.endGroup();
}

void DatasetPanel::restoreSettings(QSettings &settings)
{
    const DatasetConfig d;
    DatasetConfig c;
    settings.beginGroup(QStringLiteral("dataset"));
    if (!parseTask(settings.value(QStringLiteral("task")).toString().toStdString(), &c.task))
        c.task = d.task;
    if (settings.contains(QStringLiteral("words")))
        c.words = parseWords(settings.value(QStringLiteral("words")).toString());
    const QString corpus = settings.value(QStringLiteral("corpusPath")).toString();
    if (settings.value(QStringLiteral("useCorpus"), false).toBool() && !corpus.isEmpty())
        c.corpusPath = corpus.toStdString();
    c.lowercase = settings.value(QStringLiteral("lowercase"), d.lowercase).toBool();
    c.minLength = settings.value(QStringLiteral("minLength"), d.minLength).toInt();
    c.maxLength = settings.value(QStringLiteral("maxLength"), d.maxLength).toInt();
    c.trainSize = settings.value(QStringLiteral("trainSize"), d.trainSize).toInt();
    c.valSize = settings.value(QStringLiteral("valSize"), d.valSize).toInt();
    c.testSize = settings.value(QStringLiteral("testSize"), d.testSize).toInt();
    c.valFraction = settings.value(QStringLiteral("valFraction"), d.valFraction).toDouble();
    c.testFraction = settings.value(QStringLiteral("testFraction"), d.testFraction).toDouble();
    c.seed = settings.value(QStringLiteral("seed"), quint64(d.seed)).toULongLong();
    c.maxVocabulary = settings.value(QStringLiteral("maxVocabulary"), d.maxVocabulary).toInt();
    c.minCount = settings.value(QStringLiteral("minCount"), d.minCount).toInt();
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
    m_wordCount->setEnabled(!corpus);
    m_corpusPath->setEnabled(corpus);
    m_browse->setEnabled(true);
    m_lowercase->setEnabled(corpus);
    // A file is split by shares of its lines; generated data by counts.
    m_trainSize->setEnabled(!corpus);
    m_valSize->setEnabled(!corpus);
    m_testSize->setEnabled(!corpus);
    m_valFraction->setEnabled(corpus);
    m_testFraction->setEnabled(corpus);
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

void DatasetPanel::refreshPreview()
{
    if (!problem().isEmpty()) {
        m_preview->setText(tr("<i>No preview: fix the settings above.</i>"));
        return;
    }
    const DatasetConfig c = config();
    if (c.corpusPath.empty()) {
        m_preview->setText(pairsHtml(previewPairs(c, kPreviewPairs)));
        return;
    }
    // Reading the file also tells how many lines it gives and why others were left out.
    try {
        const Dataset data = Dataset::build(c);
        const QLocale locale;
        QString summary = tr("%1 training, %2 validation, %3 test sentences.")
                              .arg(locale.toString(qlonglong(data.train.size())),
                                   locale.toString(qlonglong(data.val.size())),
                                   locale.toString(qlonglong(data.test.size())));
        const int skipped = data.skippedBlank + data.skippedTooLong + data.skippedTooShort;
        if (skipped > 0)
            summary += QLatin1Char(' ')
                       + tr("Skipped %1 blank, %2 too long and %3 too short lines.")
                             .arg(data.skippedBlank)
                             .arg(data.skippedTooLong)
                             .arg(data.skippedTooShort);
        std::vector<SentencePair> first(data.train.begin(),
                                        data.train.begin() + std::min<std::ptrdiff_t>(kPreviewPairs, std::ptrdiff_t(data.train.size())));
        m_preview->setText(pairsHtml(first) + QStringLiteral("<p>%1</p>").arg(summary.toHtmlEscaped()));
    } catch (const std::exception &error) {
        m_preview->setText(QStringLiteral("<span style='color:#b00020'>%1</span>")
                               .arg(QString::fromStdString(error.what()).toHtmlEscaped()));
    }
}
