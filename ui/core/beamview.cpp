#include "ui/core/beamview.h"

#include "ui/core/beamlisting.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTableWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace {

QTableWidgetItem *rightAligned(double value, int decimals)
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
    m_nbest->setSelectionMode(QAbstractItemView::SingleSelection);
    m_nbest->setWordWrap(false);  // a row a line: the full output is in its tooltip
    m_nbest->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    for (int column : {0, 2, 3})
        m_nbest->horizontalHeader()->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    connect(m_nbest, &QTableWidget::currentCellChanged, this, [this](int row, int, int previousRow, int) {
        if (row >= 0 && row != previousRow)
            emit hypothesisSelected(row);
    });

    m_steps = new QTreeWidget;
    m_steps->setObjectName(QStringLiteral("beamSteps"));
    m_steps->setHeaderLabels({tr("Kept at each step"), tr("Score")});
    m_steps->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_steps->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_steps->header()->setStretchLastSection(false);
    m_steps->setIndentation(m_steps->fontMetrics().averageCharWidth() * 2);  // one level only: room for the words

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
    const QSignalBlocker quiet(this);
    m_summary->clear();
    m_nbest->setRowCount(0);
    m_steps->clear();
    m_winnerPath = 0;
}

int BeamView::selectedHypothesis() const
{
    return m_nbest->currentRow();
}

void BeamView::selectHypothesis(int row)
{
    if (row >= 0 && row < m_nbest->rowCount())
        m_nbest->selectRow(row);
}

void BeamView::setResult(const BeamListing &listing)
{
    clear();
    const QSignalBlocker quiet(this);  // the winner is what the caller shows already
    const QLocale locale;
    QString summary = tr("Beam search: the best %n by score = log P / length<sup>α</sup>, α = %1; the steps "
                         "show what the beam kept, the winner's path in <b>bold</b>.",
                         nullptr, int(listing.nbest.size()))
                          .arg(locale.toString(listing.alpha, 'f', 2));
    if (!listing.note.isEmpty())
        summary += QLatin1Char(' ') + listing.note.toHtmlEscaped();
    m_summary->setText(QStringLiteral("<small>%1</small>").arg(summary));
    m_nbest->setRowCount(int(listing.nbest.size()));
    for (int i = 0; i < int(listing.nbest.size()); ++i) {
        const BeamListing::Hypothesis &h = listing.nbest[std::size_t(i)];
        m_nbest->setItem(i, 0, rightAligned(i + 1, 0));
        auto *output = new QTableWidgetItem(h.output);
        output->setToolTip(h.output);
        m_nbest->setItem(i, 1, output);
        m_nbest->setItem(i, 2, rightAligned(h.logProb, 3));
        m_nbest->setItem(i, 3, rightAligned(h.score, 3));
    }
    if (!listing.nbest.empty())
        m_nbest->selectRow(0);

    for (int t = 0; t < int(listing.steps.size()); ++t) {
        auto *step = new QTreeWidgetItem(m_steps, {tr("Step %1").arg(t + 1)});
        for (const BeamListing::Kept &entry : listing.steps[std::size_t(t)]) {
            const QString text = entry.finished ? entry.words + tr("  (finished)") : entry.words;
            auto *item = new QTreeWidgetItem(step, {text, locale.toString(entry.score, 'f', 3)});
            item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
            if (entry.onWinnersPath) {
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
