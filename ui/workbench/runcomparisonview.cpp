#include "ui/workbench/runcomparisonview.h"

#include "ui/core/lengthaccuracyplot.h"
#include "ui/core/plotexport.h"

#include <QComboBox>
#include <QEvent>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <iterator>
#include <map>

namespace {

// No data column: every row shown has the data the picker above names.
enum Column { kLab, kRun, kSeed, kTestExact, kTo99, kParameters, kSamples, kColumns };

// With a lab's docks open the page is narrow: a legend line is at most this many average
// characters wide, so that the legend does not widen the window, and the Run column gives way to
// the figures down to the second width (its cell's tooltip has the whole label).
constexpr int kLegendCharacters = 48;
constexpr int kRunColumnCharacters = 20;

QString percentText(double share)
{
    return QLocale().toString(100.0 * share, 'f', 1) + QStringLiteral(" %");
}

QString secondsTo99Text(double seconds)
{
    return seconds < 0 ? QObject::tr("not reached") : QLocale().toString(seconds, 'f', 1) + QStringLiteral(" s");
}

}  // namespace

RunComparisonView::RunComparisonView(QWidget *parent)
    : QWidget(parent), m_hint(new QLabel), m_dataPicker(new QComboBox), m_table(new QTableWidget(0, kColumns)),
      m_plot(new LengthAccuracyPlot)
{
    m_hint->setObjectName(QStringLiteral("runComparisonHint"));
    m_hint->setWordWrap(true);
    m_dataPicker->setObjectName(QStringLiteral("runComparisonData"));
    m_dataPicker->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_dataPicker->setMinimumContentsLength(20);
    m_dataPicker->setToolTip(tr("Runs are put side by side only with runs trained on the same data: pick whose"));
    connect(m_dataPicker, qOverload<int>(&QComboBox::activated), this,
            [this](int index) { showData(m_dataPicker->itemData(index).toString()); });
    m_table->setObjectName(QStringLiteral("runComparisonTable"));
    m_table->setHorizontalHeaderLabels({tr("Lab"), tr("Run"), tr("Seed"), tr("Test exact\nmatch"),
                                        tr("Time to\n99%"), tr("Parameters"), tr("Samples/s")});
    m_table->horizontalHeaderItem(kTo99)->setToolTip(
        tr("Training time (validation excluded) until validation exact match first reached 99%"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->setVisible(false);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->setWordWrap(false);  // a line a run: the rows fit the short table
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(kRun, QHeaderView::Interactive);  // fitRunColumn()
    m_table->viewport()->installEventFilter(this);
    m_plot->setObjectName(QStringLiteral("runComparisonLengths"));
    m_plot->setMinimumHeight(170);
    m_plot->legend->setWrap(1);  // one run a line: the labels are long
    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(m_table);
    split->addWidget(m_plot);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    auto *dataLabel = new QLabel(tr("&Data:"));
    dataLabel->setBuddy(m_dataPicker);
    auto *dataRow = new QHBoxLayout;
    dataRow->addWidget(dataLabel);
    dataRow->addWidget(m_dataPicker, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_hint);
    layout->addLayout(dataRow);
    layout->addWidget(split, 1);
    showRuns();
}

void RunComparisonView::addRun(const SharedRun &run)
{
    m_runs.push_back(run);
    m_shownData = run.data;
    showRuns();
    emit runsChanged();
}

void RunComparisonView::clear()
{
    m_runs.clear();
    m_shownData.clear();
    showRuns();
    emit runsChanged();
}

std::vector<SharedRun> RunComparisonView::shownRuns() const
{
    std::vector<SharedRun> shown;
    std::copy_if(m_runs.begin(), m_runs.end(), std::back_inserter(shown),
                 [this](const SharedRun &run) { return run.data == m_shownData; });
    return shown;
}

bool RunComparisonView::showData(const QString &data)
{
    if (std::none_of(m_runs.begin(), m_runs.end(), [&data](const SharedRun &run) { return run.data == data; }))
        return false;
    m_shownData = data;
    showRuns();
    return true;
}

void RunComparisonView::showRuns()
{
    // The picker: every data some run trained on, in the order they first came, with its runs counted.
    std::vector<QString> data;
    std::map<QString, int> counts;
    for (const SharedRun &run : m_runs)
        if (counts[run.data]++ == 0)
            data.push_back(run.data);
    m_dataPicker->clear();
    for (const QString &d : data) {
        m_dataPicker->addItem(tr("%1 (%n run(s))", nullptr, counts[d]).arg(d), d);
        m_dataPicker->setItemData(m_dataPicker->count() - 1, d, Qt::ToolTipRole);
    }
    m_dataPicker->setCurrentIndex(m_dataPicker->findData(m_shownData));
    m_dataPicker->setEnabled(data.size() > 1);

    m_table->setRowCount(0);
    m_plot->clear();
    for (const SharedRun &run : m_runs)
        if (run.data == m_shownData)
            addRow(run);
    const int elsewhere = int(m_runs.size()) - (m_runs.empty() ? 0 : counts[m_shownData]);
    QString hint = tr("Every finished run appears here, with the runs other labs finish: the attention lab's "
                      "Experiments runs, the Transformer lab's training runs. Only runs trained on the same data "
                      "are put side by side.");
    if (elsewhere > 0)
        hint += QLatin1Char(' ') + tr("%n run(s) on other data: pick their data below.", nullptr, elsewhere);
    m_hint->setText(hint);
    fitRunColumn();
}

bool RunComparisonView::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_table->viewport() && event->type() == QEvent::Resize)
        fitRunColumn();
    return QWidget::eventFilter(watched, event);
}

void RunComparisonView::fitRunColumn()
{
    // The Run column takes the room the figures leave, down to a least width.
    QHeaderView *header = m_table->horizontalHeader();
    header->resizeSections(QHeaderView::ResizeToContents);
    int others = 0;
    for (int column = 0; column < kColumns; ++column)
        if (column != kRun)
            others += header->sectionSize(column);
    const int least = kRunColumnCharacters * m_table->fontMetrics().averageCharWidth();
    header->resizeSection(kRun, std::max(least, m_table->viewport()->width() - others));
}

void RunComparisonView::addRow(const SharedRun &run)
{
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    const QLocale locale;
    const QString cells[kColumns] = {run.architecture,
                                     run.label,
                                     QString::number(run.seed),
                                     percentText(run.testExactMatch),
                                     secondsTo99Text(run.secondsTo99),
                                     locale.toString(qlonglong(run.parameters)),
                                     locale.toString(qlonglong(run.samplesPerSecond))};
    for (int column = 0; column < kColumns; ++column) {
        auto *item = new QTableWidgetItem(cells[column]);
        if (column != kLab && column != kRun)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_table->setItem(row, column, item);
    }
    m_table->item(row, kRun)->setToolTip(run.label);
    if (run.trainedMaxLength > 0)
        m_plot->setTrainedRange(run.trainedMinLength, run.trainedMaxLength);
    const QFontMetrics legend(m_plot->legend->font());
    m_plot->addRun(legend.elidedText(run.architecture + QStringLiteral(": ") + run.label, Qt::ElideMiddle,
                                     kLegendCharacters * legend.averageCharWidth()),
                   run.byLength);
}

bool RunComparisonView::exportCsv(const QString &path, QString *error) const
{
    if (m_runs.empty()) {
        if (error)
            *error = tr("No finished run to export yet.");
        return false;
    }
    // One table a spreadsheet reads: a line per run and length, the run's figures repeated.
    QString csv = QStringLiteral(
        "run,lab,label,seed,test_exact_match,seconds_to_99,parameters,samples_per_s,data,length,correct,total\n");
    for (std::size_t i = 0; i < m_runs.size(); ++i) {
        const SharedRun &run = m_runs[i];
        const QString figures =
            QStringList{QString::number(i + 1), csvField(run.architecture), csvField(run.label), QString::number(run.seed),
                        QString::number(run.testExactMatch, 'f', 6),
                        run.secondsTo99 < 0 ? QString() : QString::number(run.secondsTo99, 'f', 2),
                        QString::number(run.parameters), QString::number(run.samplesPerSecond, 'f', 1),
                        csvField(run.data)}
                .join(QLatin1Char(','));
        if (run.byLength.empty())
            csv += figures + QStringLiteral(",,,\n");
        for (const auto &[length, accuracy] : run.byLength)
            csv += figures + QStringLiteral(",%1,%2,%3\n").arg(length).arg(accuracy.correct).arg(accuracy.total);
    }
    return writeFileAtomically(path, csv.toUtf8(), error);
}
