#include "ui/charlm/charattributionview.h"

#include "ui/charlm/charattributionstrip.h"
#include "ui/charlm/charvaluetext.h"
#include "ui/charlm/ucs4text.h"
#include "ui/core/plotexport.h"

#include <QComboBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSpinBox>
#include <QTextCursor>
#include <QTextDocument>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace {

constexpr int kExampleCount = 8;
constexpr int kExampleLength = 60;  // characters of a picked context
constexpr int kExportWidth = 900;
constexpr double kWideGapPercent = 5;  // a completeness gap above this share suggests more steps

// A character as the summary quotes it; a space must be seen.
QString quoted(char32_t c)
{
    return QStringLiteral("‘%1’").arg(c == U' ' ? QStringLiteral("␣") : visibleCharacter(c));
}

// The end of `text` as one line: line breaks shown as ↵, the start cut to `length`.
QString shownEnd(const std::u32string &text, size_t length)
{
    QString shown;
    for (char32_t c : text.substr(text.size() > length ? text.size() - length : 0))
        shown += visibleCharacter(c);
    return text.size() > length ? QStringLiteral("…") + shown : shown;
}

}

CharAttributionView::CharAttributionView(QWidget *parent)
    : QWidget(parent), m_context(new QPlainTextEdit), m_examples(new QComboBox), m_last(new QSpinBox),
      m_steps(new QSpinBox), m_next(new QComboBox), m_summary(new QLabel), m_strip(new CharAttributionStrip),
      m_completeness(new QLabel), m_status(new QLabel), m_pause(new QTimer(this))
{
    m_context->setObjectName(QStringLiteral("attributionContext"));
    m_context->setTabChangesFocus(true);
    m_context->setPlaceholderText(tr("Type a context: the model explains the character it expects next."));
    m_context->setPlainText(QStringLiteral("The quick brown fox jumps over the lazy d"));
    m_context->setMaximumHeight(3 * fontMetrics().lineSpacing() + 12);
    m_context->setAccessibleName(tr("Context to explain"));
    m_examples->setObjectName(QStringLiteral("attributionExamples"));
    m_examples->setToolTip(tr("Stretches of the training text that end inside a word."));
    m_examples->addItem(tr("Pick from the training text…"));
    m_last->setObjectName(QStringLiteral("attributionLast"));
    m_last->setRange(1, kMaxExplainedCharacters);
    m_last->setValue(kDefaultExplainedCharacters);
    m_last->setToolTip(tr("How many of the context's last characters are explained; those before them are read "
                          "but only set the state the explained ones start from."));
    m_steps->setObjectName(QStringLiteral("attributionSteps"));
    m_steps->setRange(1, kMaxCharIntegrationSteps);
    m_steps->setValue(kDefaultCharIntegrationSteps);
    m_steps->setToolTip(tr("Points on the path from blank inputs to the characters' own (m): more steps, a smaller "
                           "completeness gap."));
    m_next->setObjectName(QStringLiteral("attributionNext"));
    m_next->setToolTip(tr("The character whose probability is explained: the model's likeliest, or any other."));
    m_next->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_summary->setObjectName(QStringLiteral("attributionSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);
    QFont summaryFont = m_summary->font();
    summaryFont.setPointSizeF(summaryFont.pointSizeF() * 1.15);
    m_summary->setFont(summaryFont);
    m_strip->setObjectName(QStringLiteral("attributionStrip"));
    m_strip->setAccessibleName(tr("Character attribution"));
    m_strip->setAccessibleDescription(tr("The last characters of the context in two rows, shaded by saliency and by "
                                         "integrated gradients for the next character."));
    m_strip->clear(tr("Train a model (or open one) to see which characters drive its next one."));
    m_completeness->setObjectName(QStringLiteral("attributionCompleteness"));
    m_completeness->setWordWrap(true);
    m_status->setObjectName(QStringLiteral("attributionStatus"));
    m_status->setWordWrap(true);
    m_status->setStyleSheet(QStringLiteral("color: #b35900;"));
    m_status->hide();
    m_pause->setSingleShot(true);
    m_pause->setInterval(300);

    auto *options = new QHBoxLayout;
    options->addWidget(m_examples, 1);
    options->addSpacing(12);
    options->addWidget(new QLabel(tr("Explain the last")));
    options->addWidget(m_last);
    options->addWidget(new QLabel(tr("characters;")));
    options->addSpacing(12);
    options->addWidget(new QLabel(tr("IG steps")));
    options->addWidget(m_steps);
    options->addSpacing(12);
    options->addWidget(new QLabel(tr("next character")));
    options->addWidget(m_next);
    auto *legend = new QLabel(tr("Each row is scaled to its own largest score. <b>Saliency</b> ‖∂ log p / ∂x‖: how "
                                 "much a small change to the character would move the prediction (never negative). "
                                 "<b>Integrated gradients</b>: the share of log p(next) − log p(next | those "
                                 "characters blanked) each one accounts for; <span style=\"color:#b2182b\">red</span> "
                                 "raises p(next), <span style=\"color:#2166ac\">blue</span> lowers it."));
    legend->setWordWrap(true);
    auto *box = new QGroupBox(tr("Which characters drive the next one"));
    auto *layout = new QVBoxLayout(box);
    layout->addWidget(m_context);
    layout->addLayout(options);
    layout->addWidget(m_status);
    layout->addWidget(m_summary);
    layout->addWidget(m_strip);
    layout->addWidget(m_completeness);
    layout->addWidget(legend);
    layout->addStretch(1);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(box);

    connect(m_context, &QPlainTextEdit::textChanged, m_pause, qOverload<>(&QTimer::start));
    connect(m_pause, &QTimer::timeout, this, &CharAttributionView::request);
    connect(m_last, qOverload<int>(&QSpinBox::valueChanged), m_pause, qOverload<>(&QTimer::start));
    connect(m_steps, qOverload<int>(&QSpinBox::valueChanged), m_pause, qOverload<>(&QTimer::start));
    connect(m_next, qOverload<int>(&QComboBox::activated), this, [this](int index) {
        m_chosenNext = char32_t(m_next->itemData(index).toUInt());
        request();
    });
    connect(m_examples, qOverload<int>(&QComboBox::activated), this, [this](int index) {
        if (index > 0 && index <= int(m_exampleContexts.size()))
            setContext(fromUcs4(m_exampleContexts[size_t(index - 1)]));
        m_examples->setCurrentIndex(0);
    });
}

void CharAttributionView::setNet(std::shared_ptr<const CharInferenceNet> net)
{
    m_net = std::move(net);
    if (m_chosenNext && m_net && m_net->idOf(m_chosenNext) < 0)
        m_chosenNext = 0;
    request();
}

void CharAttributionView::setTrainingRuns(bool running)
{
    if (m_training == running)
        return;
    m_training = running;
    request();
}

void CharAttributionView::setExampleText(const std::u32string &text)
{
    m_exampleContexts.clear();
    while (m_examples->count() > 1)
        m_examples->removeItem(1);
    for (int k = 0; k < kExampleCount && text.size() > size_t(2 * kExampleLength); ++k) {
        // From a point spread over the text, past the next word to the middle of the one after it.
        const size_t spread = text.size() - size_t(2 * kExampleLength);
        const size_t from = size_t(kExampleLength) + size_t(k) * spread / kExampleCount;
        const size_t space = text.find(U' ', from);
        const size_t after = space == std::u32string::npos ? space : text.find_first_of(U" \n", space + 1);
        if (after == std::u32string::npos || after - space < 4)
            continue;
        const size_t end = space + 1 + (after - space - 1) / 2;
        m_exampleContexts.push_back(text.substr(end - size_t(kExampleLength), size_t(kExampleLength)));
        m_examples->addItem(shownEnd(m_exampleContexts.back(), 40));
    }
}

void CharAttributionView::setContext(const QString &text)
{
    m_context->setPlainText(text);
    // The end is what the model reads last and predicts after.
    m_context->moveCursor(QTextCursor::End);
    m_context->ensureCursorVisible();
}

QString CharAttributionView::context() const
{
    return m_context->toPlainText();
}

void CharAttributionView::setLast(int characters)
{
    m_last->setValue(characters);
}

void CharAttributionView::setIntegrationSteps(int steps)
{
    m_steps->setValue(steps);
}

bool CharAttributionView::chooseNext(char32_t c)
{
    const int index = m_next->findData(uint(c));
    if (index < 0)
        return false;
    m_next->setCurrentIndex(index);
    m_chosenNext = c;
    request();
    return true;
}

void CharAttributionView::explainNow()
{
    m_pause->stop();
    request();
}

void CharAttributionView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_unasked)
        request();
}

void CharAttributionView::request()
{
    m_pause->stop();
    m_unasked = true;
    if (!m_net || !isVisible())
        return;
    if (m_training) {
        showStatus(tr("Training is running: the explanation follows the model once it ends or is stopped."));
        return;
    }
    if (m_inFlight) {
        m_stale = true;
        return;
    }
    send();
}

void CharAttributionView::send()
{
    CharAttributionRequest r;
    r.id = ++m_lastRequest;
    r.net = m_net;
    r.context = context().toStdU32String();
    r.options.last = m_last->value();
    r.options.integrationSteps = m_steps->value();
    if (m_chosenNext)
        r.options.next = m_chosenNext;
    m_inFlight = true;
    m_stale = false;
    m_unasked = false;
    emit explainRequested(r);
}

void CharAttributionView::showResult(const CharAttributionReady &ready)
{
    m_inFlight = false;
    if (ready.request == m_lastRequest && !m_stale) {
        if (!ready.error.empty()) {
            showStatus(QString::fromStdString(ready.error));
            m_strip->clear(tr("Nothing explained."));
            m_summary->clear();
            m_completeness->clear();
        } else {
            showStatus({});
            m_strip->setAttribution(ready.attribution);
            fillNextChoice();
            m_summary->setText(summaryText());
            m_completeness->setText(completenessText());
        }
        emit resultChanged();
    }
    if (m_stale)
        request();
}

void CharAttributionView::fillNextChoice()
{
    const CharAttribution &a = m_strip->attribution();
    const QSignalBlocker blocker(m_next);
    m_next->clear();
    m_next->addItem(tr("the likeliest (%1)").arg(quoted(a.predicted)), 0u);
    std::vector<size_t> order(a.probabilities.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&a](size_t x, size_t y) { return a.probabilities[x] > a.probabilities[y]; });
    const std::u32string &alphabet = m_net ? m_net->alphabet() : std::u32string();
    for (size_t id : order)
        if (id < alphabet.size())
            m_next->addItem(QStringLiteral("%1  %2").arg(quoted(alphabet[id]), wholePercent(a.probabilities[id])),
                            uint(alphabet[id]));
    m_next->setCurrentIndex(m_chosenNext ? std::max(0, m_next->findData(uint(m_chosenNext))) : 0);
}

void CharAttributionView::showStatus(const QString &text)
{
    m_status->setText(text);
    m_status->setVisible(!text.isEmpty());
}

bool CharAttributionView::hasResult() const
{
    return m_strip->hasAttribution();
}

const CharAttribution &CharAttributionView::attribution() const
{
    return m_strip->attribution();
}

QString CharAttributionView::summaryText() const
{
    if (!hasResult())
        return {};
    const CharAttribution &a = attribution();
    QString text = tr("After “%1” the model expects %2 (%3).")
                       .arg(shownEnd(a.characters, 30), quoted(a.predicted))
                       .arg(wholePercent(*std::max_element(a.probabilities.begin(), a.probabilities.end())));
    if (a.next != a.predicted)
        text += tr(" Explaining %1 instead (%2).").arg(quoted(a.next), wholePercent(a.probability));
    return text + tr(" Characters read: %1; explained: the last %2.")
                      .arg(a.contextLength)
                      .arg(qulonglong(a.characters.size()));
}

QString CharAttributionView::completenessText() const
{
    if (!hasResult())
        return {};
    const CharAttribution &a = attribution();
    const double sum = std::accumulate(a.integratedGradients.begin(), a.integratedGradients.end(), 0.0);
    const double rise = a.logProbability - a.baselineLogProbability;
    const double share = rise != 0 ? 100 * a.completenessGap / std::abs(rise) : 0.0;
    const QString text = tr("Integrated gradients (m = %1) add up to %2; from blank inputs to these, log p(%3) changes "
                            "by %4: a gap of %5 (%6% of it).")
                             .arg(a.integrationSteps)
                             .arg(sum, 0, 'f', 4)
                             .arg(quoted(a.next))
                             .arg(rise, 0, 'f', 4)
                             .arg(a.completenessGap, 0, 'g', 2)
                             .arg(share, 0, 'f', 2);
    return share > kWideGapPercent ? text + tr(" More IG steps narrow it.") : text;
}

QString CharAttributionView::statusText() const
{
    return m_status->text();
}

bool CharAttributionView::exportImage(const QString &path, QString *error) const
{
    if (!hasResult()) {
        if (error)
            *error = tr("Nothing to export: type a context for the model to explain.");
        return false;
    }
    const int width = std::max(kExportWidth, m_strip->width());
    const auto textBlock = [width](const QString &text) {
        auto document = std::make_unique<QTextDocument>();
        document->setPlainText(text);
        document->setTextWidth(width);
        return document;
    };
    const auto summary = textBlock(summaryText());
    const auto completeness = textBlock(completenessText() + QLatin1Char('\n') +
                                        tr("Each row is scaled to its own largest score. Saliency: white (none) to red. "
                                           "Integrated gradients: red raises p(next), blue lowers it."));
    const int stripHeight = m_strip->paintedHeight(width);
    const int height = int(summary->size().height() + stripHeight + completeness->size().height());
    return exportPaintedImage(path, QSize(width, height), [&](QPainter &painter, const QRectF &) {
        summary->drawContents(&painter);
        painter.translate(0, summary->size().height());
        m_strip->paint(painter, width);
        painter.translate(0, stripHeight);
        completeness->drawContents(&painter);
    }, error, 2);
}

QString CharAttributionView::csvText() const
{
    const CharAttribution &a = attribution();
    QString text = QStringLiteral("position,character,saliency,integrated_gradients\n");
    const int count = int(a.characters.size());
    for (int i = 0; i < count; ++i)
        text += QStringLiteral("%1,%2,%3,%4\n")
                    .arg(i - count)
                    .arg(csvField(QString::fromUcs4(&a.characters[size_t(i)], 1)))
                    .arg(a.saliency[size_t(i)], 0, 'g', 10)
                    .arg(a.integratedGradients[size_t(i)], 0, 'g', 10);
    return text;
}

bool CharAttributionView::exportCsv(const QString &path, QString *error) const
{
    if (!hasResult()) {
        if (error)
            *error = tr("Nothing to export: type a context for the model to explain.");
        return false;
    }
    return writeFileAtomically(path, csvText().toUtf8(), error);
}

void CharAttributionView::saveSettings(QSettings &settings) const
{
    settings.setValue(QStringLiteral("attributionContext"), context());
    settings.setValue(QStringLiteral("attributionLast"), m_last->value());
    settings.setValue(QStringLiteral("attributionSteps"), m_steps->value());
}

void CharAttributionView::restoreSettings(QSettings &settings)
{
    setContext(settings.value(QStringLiteral("attributionContext"), context()).toString());
    m_last->setValue(settings.value(QStringLiteral("attributionLast"), m_last->value()).toInt());
    m_steps->setValue(settings.value(QStringLiteral("attributionSteps"), m_steps->value()).toInt());
}
