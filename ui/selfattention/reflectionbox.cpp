#include "ui/selfattention/reflectionbox.h"

#include "engine/selfattention/attentionreflection.h"
#include "engine/selfattention/sentencecomparison.h"
#include "ui/core/explanationtext.h"

#include <QBoxLayout>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>

#include <algorithm>
#include <cmath>
#include <exception>

namespace {

using explanationtext::number;

// Differences below this are rounding: the matrices are the same.
constexpr double kSame = 1e-9;

QString quotedHtml(const QString &word)
{
    return QStringLiteral("“%1”").arg(word.toHtmlEscaped());
}

QString partLabel(PartOfSpeech part)
{
    return QString::fromLatin1(partName(part));
}

QString reversedSentence(const std::vector<std::string> &words)
{
    QStringList reversed;
    for (auto it = words.rbegin(); it != words.rend(); ++it)
        reversed << QString::fromStdString(*it);
    return reversed.join(QLatin1Char(' '));
}

// Tag buttons per row: a long sentence (a Transformer head's) would widen the box past the page.
constexpr int kTagsPerRow = 4;

} // namespace

ReflectionBox::ReflectionBox(Compute compute, QWidget *parent)
    : QGroupBox(tr("4. Reflect: what these weights say"), parent), m_compute(std::move(compute))
{
    setObjectName(QStringLiteral("reflectionBox"));
    const auto label = [](const char *name) {
        auto *l = new QLabel;
        l->setObjectName(QLatin1String(name));
        l->setWordWrap(true);
        l->setTextFormat(Qt::RichText);
        return l;
    };
    m_answers = label("reflectionAnswers");
    m_parts = label("reflectionParts");
    m_comparisonResult = label("reflectionComparison");
    m_tagRow = new QGridLayout;
    m_tagRow->setContentsMargins(0, 0, 0, 0);
    m_tagRow->setColumnStretch(kTagsPerRow, 1);

    m_comparison = new QLineEdit;
    m_comparison->setObjectName(QStringLiteral("reflectionSentence"));
    m_comparison->setPlaceholderText(tr("Another sentence, e.g. AI loves me"));
    m_comparison->setClearButtonEnabled(true);
    m_comparison->setToolTip(tr("Compare each row of the weights above with the same word's row in this sentence"));
    m_reverseButton = new QToolButton;
    m_reverseButton->setText(tr("Re&versed"));
    m_reverseButton->setToolTip(tr("Compare with the same words in reverse order"));
    m_addWordButton = new QToolButton;
    m_addWordButton->setText(tr("Add “&deeply”"));
    m_addWordButton->setToolTip(tr("Compare with the sentence plus the word “deeply”"));
    auto *compareLabel = new QLabel(tr("Co&mpare with:"));
    compareLabel->setBuddy(m_comparison);
    auto *compareRow = new QHBoxLayout;
    compareRow->addWidget(compareLabel);
    compareRow->addWidget(m_comparison, 1);
    compareRow->addWidget(m_reverseButton);
    compareRow->addWidget(m_addWordButton);

    auto *tagHint = new QLabel(tr("Parts of speech (click a word to change its tag):"));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_answers);
    layout->addWidget(tagHint);
    layout->addLayout(m_tagRow);
    layout->addWidget(m_parts);
    layout->addLayout(compareRow);
    layout->addWidget(m_comparisonResult);

    connect(m_comparison, &QLineEdit::textChanged, this, &ReflectionBox::showComparison);
    connect(m_reverseButton, &QToolButton::clicked, this,
            [this] { m_comparison->setText(reversedSentence(m_words)); });
    connect(m_addWordButton, &QToolButton::clicked, this, [this] {
        QStringList words;
        for (const std::string &word : m_words)
            words << QString::fromStdString(word);
        m_comparison->setText((words << QStringLiteral("deeply")).join(QLatin1Char(' ')));
    });
}

void ReflectionBox::setAttention(const QStringList &shown, const std::vector<std::string> &words,
                                 const ScaledDotProductAttention &attention, bool positions, bool randomEmbeddings)
{
    const bool sameWords = words == m_words;
    m_shown = shown;
    m_words = words;
    m_attention = attention;
    m_positions = positions;
    m_random = randomEmbeddings;
    if (!sameWords) {
        m_tags.clear();
        for (const std::string &word : words)
            m_tags.push_back(courseTag(word));
        rebuildTagButtons();
    }
    showAnswers();
    showParts();
    showComparison();
}

QString ReflectionBox::answersText() const
{
    return m_answers->text();
}

QString ReflectionBox::partsText() const
{
    return m_parts->text();
}

QString ReflectionBox::comparisonText() const
{
    return m_comparisonResult->text();
}

void ReflectionBox::cycleTag(int word)
{
    const auto &parts = partsOfSpeech();
    PartOfSpeech &tag = m_tags.at(std::size_t(word));
    tag = parts[std::size_t((std::find(parts.begin(), parts.end(), tag) - parts.begin() + 1) % parts.size())];
    m_tagButtons[std::size_t(word)]->setText(QStringLiteral("%1: %2").arg(m_shown.value(word), partLabel(tag)));
    showParts();
}

void ReflectionBox::showAnswers()
{
    const AttentionReflection r = reflectOn(m_attention.weights);
    const Matrix &a = m_attention.weights;
    const int n = a.rows;
    QStringList strongest;
    for (int i = 0; i < n; ++i) {
        const int j = r.strongestKey[std::size_t(i)];
        strongest << tr("%1 → %2 (%3)").arg(quotedHtml(m_shown[i]), quotedHtml(m_shown[j]), number(a.at(i, j), 2));
    }
    QString text = tr("<p><b>Each word attends most to:</b> %1.</p>").arg(strongest.join(QStringLiteral(" · ")));
    const int focused = r.mostFocused;
    text += tr("<p><b>Most concentrated:</b> %1, entropy %2 nats (spread evenly over %3 words it would be %4).</p>")
                .arg(quotedHtml(m_shown[focused]), number(r.entropy[std::size_t(focused)], 2))
                .arg(n)
                .arg(number(std::log(double(n)), 2));
    if (r.asymmetricQuery < 0 || r.asymmetry < kSame) {
        text += tr("<p><b>Symmetric?</b> Yes: ‖A − Aᵀ‖ = %1.</p>").arg(number(r.asymmetry, 3));
    } else {
        const int i = r.asymmetricQuery, j = r.asymmetricKey;
        text += tr("<p><b>Symmetric?</b> No: ‖A − Aᵀ‖ = %1. Most one-sided: %2 gives %3 %4, but %3 gives %2 %5. "
                   "The score of i for j is q<sub>i</sub>·k<sub>j</sub>, not q<sub>j</sub>·k<sub>i</sub>, and each "
                   "row is normalised on its own.</p>")
                    .arg(number(r.asymmetry, 3), quotedHtml(m_shown[i]), quotedHtml(m_shown[j]), number(a.at(i, j), 2),
                         number(a.at(j, i), 2));
    }
    m_answers->setText(text);
}

void ReflectionBox::rebuildTagButtons()
{
    for (QToolButton *button : m_tagButtons)
        delete button;
    m_tagButtons.clear();
    for (int i = 0; i < int(m_words.size()); ++i) {
        auto *button = new QToolButton;
        button->setObjectName(QStringLiteral("tag%1").arg(i));
        button->setText(QStringLiteral("%1: %2").arg(m_shown.value(i), partLabel(m_tags[std::size_t(i)])));
        button->setToolTip(tr("Click to tag this word as the next part of speech"));
        connect(button, &QToolButton::clicked, this, [this, i] { cycleTag(i); });
        m_tagRow->addWidget(button, i / kTagsPerRow, i % kTagsPerRow);
        m_tagButtons.push_back(button);
    }
}

void ReflectionBox::showParts()
{
    const std::vector<PartAttention> parts = attentionByPart(m_attention.weights, m_tags);
    if (parts.empty()) {
        m_parts->setText(tr("<p>No word is tagged: click the words above to tag them.</p>"));
        return;
    }
    QString table = tr("<table cellspacing=\"0\" cellpadding=\"3\"><tr><th align=\"left\">part</th>"
                       "<th align=\"right\">words</th><th align=\"right\">spread (entropy, nats)</th><th align=\"right\">weight on itself</th>"
                       "<th align=\"right\">weight received</th></tr>");
    const PartAttention *verbs = nullptr, *nouns = nullptr;
    for (const PartAttention &p : parts) {
        table += QStringLiteral("<tr><td>%1</td><td align=\"right\">%2</td><td align=\"right\">%3</td>"
                                "<td align=\"right\">%4</td><td align=\"right\">%5</td></tr>")
                     .arg(partLabel(p.part))
                     .arg(p.words)
                     .arg(number(p.meanEntropy, 2), number(p.meanSelf, 2), number(p.meanReceived, 2));
        if (p.part == PartOfSpeech::Verb)
            verbs = &p;
        if (p.part == PartOfSpeech::Noun)
            nouns = &p;
    }
    table += QStringLiteral("</table>");
    if (verbs && nouns) {
        const double difference = verbs->meanEntropy - nouns->meanEntropy;
        table += std::abs(difference) < 0.05
                     ? tr("<p>Verbs and nouns spread their attention alike here (%1 against %2 nats).</p>")
                     : difference > 0 ? tr("<p>Verbs spread their attention more widely than nouns here (%1 against "
                                           "%2 nats).</p>")
                                      : tr("<p>Verbs attend more narrowly than nouns here (%1 against %2 nats).</p>");
        table = table.arg(number(verbs->meanEntropy, 2), number(nouns->meanEntropy, 2));
    }
    if (m_random)
        table += tr("<p><i>X is random here, so these differences come from the drawn numbers, not from grammar; "
                    "with trained embeddings they come from what the model learned.</i></p>");
    m_parts->setText(table);
}

void ReflectionBox::showComparison()
{
    const QString sentence = m_comparison->text().trimmed();
    if (sentence.isEmpty() || m_words.empty()) {
        m_comparisonResult->setText(tr("<p>Type another sentence, or press Reversed or Add “deeply”, to see what "
                                       "changes row by row.</p>"));
        return;
    }
    std::vector<std::string> words;
    ScaledDotProductAttention other;
    QString error;
    if (!m_compute(sentence, &words, &other, &error)) {
        m_comparisonResult->setText(QStringLiteral("<p style=\"color:#b00020\">%1</p>").arg(error.toHtmlEscaped()));
        return;
    }
    SentenceComparison c;
    try {
        c = compareSentences(m_words, m_attention, words, other);
    } catch (const std::exception &e) {
        m_comparisonResult->setText(QStringLiteral("<p style=\"color:#b00020\">%1</p>")
                                        .arg(QString::fromStdString(e.what()).toHtmlEscaped()));
        return;
    }
    if (words == m_words) {
        m_comparisonResult->setText(tr("<p>That is the same sentence.</p>"));
        return;
    }
    if (c.reordering) {
        m_comparisonResult->setText(
            c.largestWeightChange < kSame
                ? tr("<p>The same words in another order: the weights are the ones above with rows and columns "
                     "permuted (%1). Without positions, scaled dot-product attention cannot see word order. Switch "
                     "positions on and compare again.</p>")
                      .arg(c.largestWeightChange == 0
                               ? tr("exactly")
                               : tr("up to a rounding error of %1").arg(c.largestWeightChange, 0, 'g', 2))
                : tr("<p>The same words in another order, and with positions the weights change by up to %1: each "
                     "word's row now depends on where it stands.</p>")
                      .arg(number(c.largestWeightChange, 3)));
        return;
    }
    QStringList added, gone;
    for (int j : c.added)
        added << quotedHtml(QString::fromStdString(words[std::size_t(j)]));
    QString text;
    if (!added.isEmpty())
        text += tr("<p>New words: %1.</p>").arg(added.join(QStringLiteral(", ")));
    QString rows;
    for (int i = 0; i < int(m_words.size()); ++i) {
        if (c.match[std::size_t(i)] < 0) {
            gone << quotedHtml(m_shown[i]);
            continue;
        }
        rows += QStringLiteral("<tr><td>%1</td><td align=\"right\">%2</td><td align=\"right\">%3</td></tr>")
                    .arg(quotedHtml(m_shown[i]), number(c.rowChange[std::size_t(i)], 3),
                         number(c.addedShare[std::size_t(i)], 3));
    }
    if (!gone.isEmpty())
        text += tr("<p>Not in the other sentence: %1.</p>").arg(gone.join(QStringLiteral(", ")));
    if (rows.isEmpty()) {
        m_comparisonResult->setText(text + tr("<p>The sentences share no word, so no row can be compared.</p>"));
        return;
    }
    text += tr("<table cellspacing=\"0\" cellpadding=\"3\"><tr><th align=\"left\">word</th><th align=\"right\">"
               "row change (total variation)</th><th align=\"right\">weight on new words</th></tr>%1</table>")
                .arg(rows);
    if (c.largestScoreChange < kSame)
        text += tr("<p>Between the words both sentences share the scores do not change (a score depends only on its "
                   "two words): the weights move only because each row's softmax now also covers the new words.</p>");
    else
        text += tr("<p>Between the shared words the scores change by up to %1: with positions a word's row "
                   "depends on where it stands, so moving a word changes its scores.</p>")
                    .arg(number(c.largestScoreChange, 3));
    m_comparisonResult->setText(text);
}
