#include "ui/attention/wordremovalview.h"

#include "engine/core/tokenizer.h"
#include "ui/attention/wordremovalplot.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>
#include <QVBoxLayout>

#include <cmath>
#include <exception>

namespace {

// Rank correlations of about 0.1, 0.3 and 0.5 are conventionally called weak, moderate and strong.
QString correlationInWords(double rho)
{
    const double size = std::abs(rho);
    if (size < 0.1)
        return WordRemovalView::tr("attention says next to nothing about which words the output needs");
    if (rho > 0) {
        if (size >= 0.5)
            return WordRemovalView::tr("the words the model attends to most are the ones it needs most");
        if (size >= 0.3)
            return WordRemovalView::tr("the words the model attends to most tend to be the ones it needs most");
        return WordRemovalView::tr("the words the model attends to are only a little more often the ones it needs");
    }
    if (size >= 0.5)
        return WordRemovalView::tr("the words the model attends to most are the ones it needs least");
    if (size >= 0.3)
        return WordRemovalView::tr("the words the model attends to most tend to be the ones it needs least");
    return WordRemovalView::tr("the words the model attends to are a little more often the ones it needs less");
}

} // namespace

WordRemovalView::WordRemovalView(QWidget *parent)
    : QWidget(parent)
{
    m_mode = new QComboBox;
    m_mode->setObjectName(QStringLiteral("removalMode"));
    m_mode->addItem(tr("Leave the word out"), int(RemovalMode::Drop));
    m_mode->addItem(tr("Replace it by <UNK>"), int(RemovalMode::Unknown));
    m_mode->setToolTip(tr("How each word is removed: left out (the input is one word shorter) or replaced by "
                          "the unknown-word token (the input keeps its length)."));
    auto *modeLabel = new QLabel(tr("Re&move each word:"));
    modeLabel->setBuddy(m_mode);
    auto *modeRow = new QHBoxLayout;
    modeRow->addWidget(modeLabel);
    modeRow->addWidget(m_mode);
    modeRow->addStretch(1);

    m_verdict = new QLabel;
    m_verdict->setObjectName(QStringLiteral("removalVerdict"));
    m_verdict->setWordWrap(true);
    m_verdict->setTextFormat(Qt::RichText);
    m_verdict->setToolTip(tr("Spearman's rank correlation between the attention each word received and the fall "
                             "of log P(output) when the word is removed."));
    m_plot = new WordRemovalPlot;
    m_plot->setObjectName(QStringLiteral("wordRemovalPlot"));
    m_plot->setMinimumSize(240, 140);
    m_plot->setAccessibleName(tr("Word removal plot"));
    m_outputs = new QLabel;
    m_outputs->setObjectName(QStringLiteral("removalOutputs"));
    m_outputs->setWordWrap(true);
    m_outputs->setTextFormat(Qt::RichText);
    m_outputs->setTextInteractionFlags(Qt::TextSelectableByMouse);

    // The list grows with the sentence; it scrolls so the plot keeps its room.
    auto *outputsArea = new QScrollArea;
    outputsArea->setWidget(m_outputs);
    outputsArea->setWidgetResizable(true);
    outputsArea->setFrameShape(QFrame::NoFrame);
    outputsArea->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(modeRow);
    layout->addWidget(m_verdict);
    layout->addWidget(m_plot, 3);
    layout->addWidget(outputsArea, 1);

    connect(m_mode, &QComboBox::currentIndexChanged, this, [this] {
        m_stale = true;
        if (isVisible())
            measure();
    });
    m_measureSoon.setSingleShot(true);
    m_measureSoon.setInterval(0);
    connect(&m_measureSoon, &QTimer::timeout, this, [this] {
        if (m_stale && isVisible())
            measure();
    });
    showMessage(tr("Type a sentence in the Reverse tab."));
}

void WordRemovalView::setSentence(const ModelSnapshot &model, const QString &text)
{
    if (model == m_model && text == m_text && !m_stale)
        return;
    m_model = model;
    m_text = text;
    m_stale = true;
    if (isVisible())
        m_measureSoon.start();
}

RemovalMode WordRemovalView::mode() const
{
    return RemovalMode(m_mode->currentData().toInt());
}

void WordRemovalView::setMode(RemovalMode mode)
{
    m_mode->setCurrentIndex(m_mode->findData(int(mode)));
}

QString WordRemovalView::verdict() const
{
    return m_verdict->text();
}

void WordRemovalView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_stale)
        measure();
}

void WordRemovalView::showMessage(const QString &message)
{
    m_hasEffect = false;
    m_effect = WordRemovalEffect{};
    m_plot->showMessage(message);
    m_verdict->clear();
    m_outputs->clear();
    emit effectChanged();
}

void WordRemovalView::measure()
{
    m_stale = false;
    if (!m_model) {
        showMessage(tr("No model yet."));
        return;
    }
    if (!m_model->hasAttention()) {
        showMessage(tr("This model has no attention (variant none): there is nothing to compare the effect of "
                       "removing a word with."));
        return;
    }
    const std::vector<std::string> words = tokenize(m_text.toStdString(), m_model->lowercase());
    if (words.size() < 2) {
        showMessage(words.empty() ? tr("Type a sentence in the Reverse tab.")
                                  : tr("Type at least two words: removing the only word leaves nothing to read."));
        return;
    }
    try {
        m_effect = measureWordRemoval(*m_model, words, mode());
    } catch (const std::exception &error) {
        showMessage(tr("Cannot measure this sentence: %1").arg(QString::fromStdString(error.what())));
        return;
    }
    m_hasEffect = true;
    m_plot->setEffect(m_effect);

    const QLocale locale;
    if (std::isnan(m_effect.spearman))
        m_verdict->setText(m_effect.words.size() < std::size_t(kMinimumCorrelatedWords)
                               ? tr("ρ undefined: a rank correlation needs at least %1 words.")
                                     .arg(kMinimumCorrelatedWords)
                               : tr("ρ undefined: every word received the same attention, or cost the same."));
    else
        m_verdict->setText(tr("<b>ρ = %1</b>: %2.")
                               .arg(locale.toString(m_effect.spearman, 'f', 2), correlationInWords(m_effect.spearman)));

    QStringList lines;
    lines << tr("Output <b>%1</b> (log P %2). Without each word it becomes (as asked: what the task asks of "
                "the changed input; same: the output above; other: neither):")
                 .arg(QString::fromStdString(m_effect.original.text()).toHtmlEscaped(),
                      locale.toString(m_effect.logProb, 'f', 3));
    for (const WordRemoval &w : m_effect.words) {
        const QString outcome = w.outputUnchanged          ? tr("same")
                                : w.changedOutputExpected ? tr("as asked")
                                                           : tr("other");
        lines << tr("<b>%1</b> → %2 <small>(%3)</small>")
                     .arg(QString::fromStdString(w.word).toHtmlEscaped(),
                          QString::fromStdString(joinTokens(w.changedOutput)).toHtmlEscaped(), outcome);
    }
    m_outputs->setText(QStringLiteral("<small>%1</small>").arg(lines.join(QStringLiteral("<br>"))));
    emit effectChanged();
}
