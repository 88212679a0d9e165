#include "ui/attention/beamview.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QSplitter>
#include <QTableWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <string>

namespace {

QString joined(const std::vector<int> &tokens, const BeamDecoded &result, const Vocabulary &vocabulary)
{
    QStringList words;
    for (int id : tokens)
        words << QString::fromStdString(result.word(id, vocabulary));
    return words.join(QLatin1Char(' '));
}

QTableWidgetItem *number(double value, int decimals)
{
    auto *item = new QTableWidgetItem(QLocale().toString(value, 'f', decimals));
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

}

BeamView::BeamView(QWidget *parent) : QWidget(parent)
{
    m_summary = new QLabel;
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);

    m_nbest = new QTableWidget(0, 4);
    m_nbest->setObjectName(QStringLiteral("nbestTable"));
    m_nbest->setHorizontalHeaderLabels({tr("#"), tr("Output"), tr("log P"), tr("Score")});
    m_nbest->horizontalHeaderItem(3)->setToolTip(tr("log P divided by (length)^α: the beam keeps and ranks by this"));
    m_nbest->verticalHeader()->hide();
    m_nbest->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_nbest->setTabKeyNavigation(false);  // read-only rows: the arrows move between them, Tab moves on
    m_nbest->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_nbest->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    for (int column : {0, 2, 3})
        m_nbest->horizontalHeader()->setSectionResizeMode(column, QHeaderView::ResizeToContents);

    m_steps = new QTreeWidget;
    m_steps->setObjectName(QStringLiteral("beamSteps"));
    m_steps->setHeaderLabels({tr("Step / kept hypothesis"), tr("Score")});
    m_steps->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_steps->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_steps->header()->setStretchLastSection(false);

    auto *split = new QSplitter(Qt::Horizontal);
    split->addWidget(m_nbest);
    split->addWidget(m_steps);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);
}

void BeamView::clear()
{
    m_summary->clear();
    m_nbest->setRowCount(0);
    m_steps->clear();
    m_winnerPath = 0;
}

void BeamView::setResult(const BeamDecoded &result, const Vocabulary &vocabulary, double alpha)
{
    clear();
    const QLocale locale;
    m_summary->setText(tr("<small>Beam search: the best of %n hypotheses by score = log P / length<sup>α</sup>, "
                          "α = %1. Steps: what the beam kept; <b>bold</b>: the winner's path.</small>",
                          nullptr, int(result.nbest.size()))
                           .arg(locale.toString(alpha, 'f', 2)));
    m_nbest->setRowCount(int(result.nbest.size()));
    for (int i = 0; i < int(result.nbest.size()); ++i) {
        const ScoredSentence &s = result.nbest[std::size_t(i)];
        m_nbest->setItem(i, 0, number(i + 1, 0));
        m_nbest->setItem(i, 1, new QTableWidgetItem(QString::fromStdString(s.sentence.text())));
        m_nbest->setItem(i, 2, number(s.logProb, 3));
        m_nbest->setItem(i, 3, number(s.score, 3));
    }
    if (!result.nbest.empty())
        m_nbest->selectRow(0);

    const std::vector<int> winner = result.nbest.empty() ? std::vector<int>() : result.nbest.front().tokens;
    for (int t = 0; t < int(result.steps.size()); ++t) {
        auto *step = new QTreeWidgetItem(m_steps, {tr("Step %1").arg(t + 1)});
        for (const BeamStepEntry &entry : result.steps[std::size_t(t)].kept) {
            QString text = joined(entry.tokens, result, vocabulary);
            if (entry.finished)
                text += tr("  (finished)");
            auto *item = new QTreeWidgetItem(step, {text, locale.toString(entry.score, 'f', 3)});
            item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
            const bool onPath = entry.tokens.size() <= winner.size()
                                && std::equal(entry.tokens.begin(), entry.tokens.end(), winner.begin());
            if (onPath) {
                QFont bold = item->font(0);
                bold.setBold(true);
                item->setFont(0, bold);
                item->setFont(1, bold);
                ++m_winnerPath;
            }
        }
    }
    m_steps->expandAll();
}
