#include "ui/core/contrastbox.h"

#include "ui/core/attributionstripsplot.h"

#include <QComboBox>
#include <QCompleter>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>

ContrastBox::ContrastBox(QWidget *parent) : QWidget(parent)
{
    m_question = new QLabel;
    m_question->setTextFormat(Qt::RichText);
    m_alternative = new QComboBox;
    m_alternative->setObjectName(QStringLiteral("contrastAlternative"));
    m_alternative->setEditable(true);
    m_alternative->setInsertPolicy(QComboBox::NoInsert);
    m_alternative->setMinimumContentsLength(6);
    m_alternative->setToolTip(tr("The word to compare with: the runner-up comes first; type or choose any word the "
                                 "model can write."));
    m_alternative->completer()->setCompletionMode(QCompleter::PopupCompletion);
    m_alternative->completer()->setFilterMode(Qt::MatchStartsWith);
    m_compare = new QPushButton(tr("Com&pare"));
    m_compare->setObjectName(QStringLiteral("contrastCompare"));
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("contrastStatus"));
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::RichText);
    m_plot = new AttributionStripsPlot;
    m_plot->setObjectName(QStringLiteral("contrastPlot"));
    m_plot->hide();  // until there is a contrast to show: the method strips above get the room

    auto *row = new QHBoxLayout;
    row->addWidget(m_question);
    row->addWidget(m_alternative, 1);
    row->addWidget(m_compare);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    layout->addWidget(m_status);
    layout->addWidget(m_plot, 1);

    connect(m_compare, &QPushButton::clicked, this, &ContrastBox::compare);
    connect(m_alternative->lineEdit(), &QLineEdit::returnPressed, this, &ContrastBox::compare);
    setStep(nullptr, -1, {}, false);
}

// The status line says what to do next; the strips come back with the next contrast.
void ContrastBox::clearPlot()
{
    m_plot->showMessage(QString());
    m_plot->hide();
}

QString ContrastBox::status() const
{
    return m_status->text();
}

void ContrastBox::setStep(const ExplainedSentence *explained, int row, const QStringList &writableWords, bool waiting)
{
    const bool ready = explained && row >= 0 && std::size_t(row) < explained->outputTokens.size();
    m_ready = ready;
    m_alternative->setEnabled(ready);
    m_compare->setEnabled(ready && !waiting);
    m_words.clear();
    if (!ready) {
        m_question->setText(tr("Why this word and not:"));
        m_alternative->clear();
        m_status->setText(tr("<small>Click an output word of the heatmap.</small>"));
        clearPlot();
        return;
    }
    for (const std::string &word : explained->words)
        m_words << QString::fromStdString(word);
    const QString output = QString::fromStdString(explained->outputTokens[std::size_t(row)]);
    m_question->setText(tr("Why <b>%1</b> and not:").arg(output.toHtmlEscaped()));
    const QString runnerUp = std::size_t(row) < explained->steps.size()
                                 ? QString::fromStdString(explained->steps[std::size_t(row)].runnerUp)
                                 : QString();
    QStringList words = writableWords;
    words.removeAll(output);
    words.removeAll(runnerUp);
    if (!runnerUp.isEmpty())
        words.prepend(runnerUp);
    // A new model explains the same step again: the word the user typed or chose stays.
    const QString kept = m_shownOutput == output && m_shownRow == row ? m_alternative->currentText() : QString();
    m_shownOutput = output;
    m_shownRow = row;
    m_alternative->clear();
    m_alternative->addItems(words);
    m_alternative->setCurrentIndex(words.isEmpty() ? -1 : 0);
    if (!kept.isEmpty())
        m_alternative->setEditText(kept);
    if (waiting)
        return;  // the status says what is being computed
    m_status->setText(tr("<small>Press Compare to see which words favour <b>%1</b> over the other.</small>")
                          .arg(output.toHtmlEscaped()));
    clearPlot();
}

void ContrastBox::compare()
{
    const QString word = m_alternative->currentText().trimmed();
    if (!m_ready)
        return;
    if (word.isEmpty()) {
        m_status->setText(tr("Type or choose a word to compare with."));
        return;
    }
    m_compare->setEnabled(false);
    m_status->setText(tr("Computing log P(output) − log P(%1)…").arg(word.toHtmlEscaped()));
    emit compareAsked(word);
}

void ContrastBox::showFailure(const QString &message)
{
    m_status->setText(tr("Cannot compare: %1").arg(message.toHtmlEscaped()));
    clearPlot();
    m_compare->setEnabled(true);
}

void ContrastBox::showContrast(const ContrastiveAttribution &contrast)
{
    m_compare->setEnabled(true);
    const QString output = m_shownOutput;
    const QString other = QString::fromStdString(contrast.alternative);
    const QLocale locale;
    m_status->setText(tr("log P(<b>%1</b>) − log P(<b>%2</b>) = <b>%3</b> nats. Red: words that favour %1; "
                         "blue: words that favour %2.")
                          .arg(output.toHtmlEscaped(), other.toHtmlEscaped(),
                               locale.toString(contrast.logProbDifference, 'f', 2)));
    std::vector<MethodScores> methods;
    for (const AttributionMap &map : contrast.maps) {
        const bool contrastive = map.method != AttributionMethod::Attention && map.method != AttributionMethod::Rollout;
        methods.push_back({map.method, map.row(0), contrastive ? QString() : tr("(not contrastive)")});
    }
    m_plot->setScores(tr("%1 rather than %2").arg(output, other), m_words, methods);
    m_plot->show();
    emit contrastShown();
}
