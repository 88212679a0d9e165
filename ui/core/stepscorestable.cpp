#include "ui/core/stepscorestable.h"

#include "ui/core/plotexport.h"
#include "ui/core/widgetexport.h"

#include <QEvent>
#include <QHeaderView>
#include <QLocale>
#include <QScrollBar>

namespace {

enum Row { LogProb, Entropy, Margin, RunnerUp, RowCount };

}

StepScoresTable::StepScoresTable(QWidget *parent) : QTableWidget(parent)
{
    setRowCount(RowCount);
    setVerticalHeaderLabels({tr("log P"), tr("entropy"), tr("margin"), tr("runner-up")});
    verticalHeaderItem(LogProb)->setToolTip(tr("log P(output word): 0 is certain"));
    verticalHeaderItem(Entropy)->setToolTip(tr("Entropy of the output distribution at this step, in nats: 0 is "
                                               "certain, higher is spread over more words"));
    verticalHeaderItem(Margin)->setToolTip(tr("log P(output word) − log P(runner-up): how far ahead the chosen "
                                              "word was"));
    verticalHeaderItem(RunnerUp)->setToolTip(tr("The likeliest word other than the one written"));
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setSelectionBehavior(QAbstractItemView::SelectColumns);
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    // Compact: the strip shares the page's height with the heatmap.
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    setFont(small);
    fitRowsToFont();
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setAccessibleName(tr("Step scores"));
    connect(this, &QTableWidget::cellClicked, this, [this](int, int column) { emit stepClicked(column); });
    showMessage(QString());
}

void StepScoresTable::fitRowsToFont()
{
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 2);
    horizontalHeader()->setFixedHeight(fontMetrics().height() + 4);
    setFixedHeight(sizeHint().height());
}

void StepScoresTable::changeEvent(QEvent *event)
{
    QTableWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)  // View ▸ Zoom and Presentation
        fitRowsToFont();
}

QSize StepScoresTable::sizeHint() const
{
    // Room for the scroll bar whether it shows or not: a long sentence's must not cover the last row.
    const int height = horizontalHeader()->height() + RowCount * verticalHeader()->defaultSectionSize()
                       + 2 * frameWidth() + horizontalScrollBar()->sizeHint().height();
    return QSize(QTableWidget::sizeHint().width(), height);
}

void StepScoresTable::showMessage(const QString &message)
{
    m_outputs.clear();
    m_steps.clear();
    setColumnCount(0);
    setToolTip(message);
    setFixedHeight(sizeHint().height());
}

void StepScoresTable::setAttribution(const ExplainedSentence &attribution)
{
    m_outputs = attribution.outputTokens;
    m_steps = attribution.steps;
    setToolTip(QString());
    const int columns = int(std::min(m_outputs.size(), m_steps.size()));
    setColumnCount(columns);
    const QLocale locale;
    for (int step = 0; step < columns; ++step) {
        const StepScore &score = m_steps[std::size_t(step)];
        setHorizontalHeaderItem(step, new QTableWidgetItem(QString::fromStdString(m_outputs[std::size_t(step)])));
        const QString values[RowCount] = {locale.toString(score.logProb, 'f', 2), locale.toString(score.entropy, 'f', 2),
                                          locale.toString(score.margin, 'f', 2), QString::fromStdString(score.runnerUp)};
        for (int row = 0; row < RowCount; ++row) {
            auto *item = new QTableWidgetItem(values[row]);
            item->setTextAlignment(Qt::AlignCenter);
            setItem(row, step, item);
        }
    }
    setFixedHeight(sizeHint().height());
}

void StepScoresTable::selectStep(int step)
{
    clearSelection();
    if (step >= 0 && step < columnCount()) {
        selectColumn(step);
        scrollToItem(item(0, step));
    }
}

bool StepScoresTable::exportCsv(const QString &path, QString *error) const
{
    if (m_steps.empty()) {
        if (error)
            *error = tr("No step scores to export: type a sentence first.");
        return false;
    }
    QString csv = QStringLiteral("step,output,log_p,entropy,margin,runner_up\n");
    for (std::size_t step = 0; step < m_steps.size() && step < m_outputs.size(); ++step) {
        const StepScore &score = m_steps[step];
        csv += QStringLiteral("%1,%2,%3,%4,%5,%6\n")
                   .arg(step + 1)
                   .arg(csvField(QString::fromStdString(m_outputs[step])))
                   .arg(score.logProb, 0, 'f', 6)
                   .arg(score.entropy, 0, 'f', 6)
                   .arg(score.margin, 0, 'f', 6)
                   .arg(csvField(QString::fromStdString(score.runnerUp)));
    }
    return writeFileAtomically(path, csv.toUtf8(), error);
}

bool StepScoresTable::exportImage(const QString &path, int width, int height, QString *error)
{
    return exportWidgetImage(*this, path, width, height, error);
}
