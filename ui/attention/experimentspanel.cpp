#include "ui/attention/experimentspanel.h"

#include "engine/attention/seq2seqmodel.h"
#include "engine/core/datasetconfig.h"
#include "engine/core/seedspread.h"
#include "ui/core/lengthaccuracyplot.h"
#include "ui/core/exportdialog.h"
#include "ui/core/plotexport.h"
#include "ui/core/plotstyle.h"
#include "ui/workbench/runcomparisonview.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <functional>

namespace {

// The probe's longest sentences: the longest a model reads.
constexpr int kMaxProbeLength = Seq2SeqModel::kMaxInputTokens;

}

ExperimentsPanel::ExperimentsPanel(QWidget *parent)
    : QWidget(parent)
    , m_list(new QListWidget)
    , m_probeMaxLength(new QSpinBox)
    , m_seeds(new QSpinBox)
    , m_addCurrent(new QPushButton(tr("Add Current Settings")))
    , m_addVariants(new QPushButton(tr("Add Every Variant")))
    , m_clear(new QPushButton(tr("Clear")))
    , m_run(new QPushButton(tr("Run Queue")))
    , m_stop(new QPushButton(tr("Stop")))
    , m_export(new QToolButton)
    , m_status(new QLabel)
    , m_curves(new QCustomPlot)
    , m_lengthPlot(new LengthAccuracyPlot)
    , m_views(new QTabWidget)
    , m_comparison(new RunComparisonView)
{
    m_addCurrent->setToolTip(tr("Queue the model settings of the Model && Training tab."));
    m_addVariants->setToolTip(tr("Queue the current settings once with each attention variant: bahdanau, "
                                 "luong-dot, luong-general, none and location."));
    m_probeMaxLength->setRange(1, kMaxProbeLength);
    m_probeMaxLength->setValue(std::min(3 * DatasetConfig().maxLength, kMaxProbeLength));
    m_probeMaxLength->setToolTip(tr("Each trained model is also tested on sentences up to this many words, "
                                    "longer than any it was trained on (by default three times the longest)."));
    m_seeds->setRange(1, projectfile::kMaxExperimentSeeds);
    m_seeds->setObjectName(QStringLiteral("seedsSpinBox"));
    m_seeds->setToolTip(tr("Run each configuration this many times, each from other initial weights (model "
                           "seeds counting up from the training seed; same data and batches). The plots show "
                           "the mean in a band from the lowest to the highest run: a difference inside the "
                           "bands may be seed noise."));
    m_status->setWordWrap(true);
    m_status->setObjectName(QStringLiteral("experimentsStatus"));
    m_addVariants->setObjectName(QStringLiteral("addVariantsButton"));
    m_run->setObjectName(QStringLiteral("runQueueButton"));
    m_stop->setObjectName(QStringLiteral("stopQueueButton"));
    m_curves->setAccessibleName(tr("Validation per epoch of each queued run"));
    m_curves->setAccessibleDescription(tr("Validation loss (solid) and exact match (dashed) per epoch, one colour per "
                                          "configuration; with several seeds the mean within a min-max band."));
    m_lengthPlot->setAccessibleName(tr("Exact match by sentence length"));
    m_lengthPlot->setAccessibleDescription(tr("Each run's exact match on probe sentences by length; the trained "
                                              "lengths are shaded."));

    const PlotFonts fonts = plotFonts(font());
    addPlotTitle(*m_curves, tr("Validation per epoch"), fonts);
    m_curves->xAxis->setLabel(tr("epoch"));
    m_curves->yAxis->setLabel(tr("val. loss (solid)"));
    m_curves->yAxis2->setLabel(tr("val. exact match % (dashed)"));
    m_curves->yAxis2->setVisible(true);
    m_curves->yAxis2->setRange(0, 100);
    for (QCPAxis *axis : {m_curves->xAxis, m_curves->yAxis, m_curves->yAxis2}) {
        axis->setTickLabelFont(fonts.tick);
        axis->setLabelFont(fonts.label);
    }
    m_curvesMessage = addPlotMessage(*m_curves, fonts);
    m_curves->legend->setFont(fonts.tick);
    placeLegendBelow(*m_curves, 2);
    m_list->setMaximumHeight(m_list->fontMetrics().lineSpacing() * 6);

    // The queue in a compact band on top, the two plots stacked below it at full width.
    auto *buttons = new QGridLayout;
    buttons->addWidget(m_addCurrent, 0, 0);
    buttons->addWidget(m_addVariants, 1, 0);
    buttons->addWidget(m_clear, 2, 0);
    buttons->addWidget(m_run, 0, 1);
    buttons->addWidget(m_stop, 1, 1);
    auto *probeRow = new QHBoxLayout;
    probeRow->addWidget(new QLabel(tr("Probe up to:")));
    probeRow->addWidget(m_probeMaxLength);
    buttons->addLayout(probeRow, 2, 1);
    auto *seedsRow = new QHBoxLayout;
    auto *seedsLabel = new QLabel(tr("S&eeds:"));
    seedsLabel->setBuddy(m_seeds);
    seedsRow->addWidget(seedsLabel);
    seedsRow->addWidget(m_seeds);
    buttons->addLayout(seedsRow, 3, 1);
    buttons->addWidget(m_export, 3, 0);
    auto *queueRow = new QHBoxLayout;
    queueRow->addWidget(m_list, 1);
    queueRow->addLayout(buttons);
    auto *queueWidget = new QWidget;
    auto *queueLayout = new QVBoxLayout(queueWidget);
    queueLayout->setContentsMargins(0, 0, 0, 0);
    queueLayout->addWidget(new QLabel(tr("Queue (same dataset and training settings):")));
    queueLayout->addLayout(queueRow);
    queueLayout->addWidget(m_status);

    // Below the queue, the queue's runs by configuration, or every finished run side by side with
    // those other labs share (the Transformer lab's): one at a time, each with the room of both.
    auto *plots = new QSplitter(Qt::Vertical);
    plots->addWidget(m_curves);
    plots->addWidget(m_lengthPlot);
    m_comparison->setObjectName(QStringLiteral("experimentsComparison"));
    m_views->setObjectName(QStringLiteral("experimentsViews"));
    m_views->setDocumentMode(true);
    m_views->addTab(plots, tr("By Configuration"));
    m_views->addTab(m_comparison, QString());
    m_views->setTabToolTip(1, tr("Every finished run beside those of other labs on the same data: the RNN runs "
                                 "of this page and the Transformer lab's runs."));
    auto *splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(queueWidget);
    splitter->addWidget(m_views);
    splitter->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(splitter);
    setTabOrder(m_probeMaxLength, m_export);  // reading order: the grid's last row after the one above
    setTabOrder(m_export, m_seeds);

    // Each plot as an image, through the dialog every export shares.
    const auto exportWithDialog = [this](const QString &title, const QString &defaultName, QWidget *plot,
                                         const ImageWriter &write) {
        exportImageWithDialog(this, title, defaultName, plot, write);
    };
    auto *exportMenu = new QMenu(m_export);
    exportMenu->addAction(tr("&Validation Curves…"), this, [this, exportWithDialog] {
        exportWithDialog(tr("Export Validation Curves"), QStringLiteral("experiments_curves.png"), m_curves,
                         [this](const QString &path, int width, int height, QString *error) {
                             return exportCurves(path, width, height, error);
                         });
    });
    exportMenu->addAction(tr("Exact Match by &Length…"), this, [this, exportWithDialog] {
        exportWithDialog(tr("Export Exact Match by Length"), QStringLiteral("experiments_by_length.png"), m_lengthPlot,
                         [this](const QString &path, int width, int height, QString *error) {
                             return m_lengthPlot->exportImage(path, width, height, error);
                         });
    });
    m_export->setText(tr("Export"));
    m_export->setMenu(exportMenu);
    m_export->setPopupMode(QToolButton::InstantPopup);
    m_export->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_export->setToolTip(tr("Save the validation curves or exact match by length as a PNG, PDF, SVG or JPEG image."));

    const auto countComparedRuns = [this] {
        m_views->setTabText(1, tr("Runs Side by Side (%1)").arg(m_comparison->runs().size()));
    };
    connect(m_comparison, &RunComparisonView::runsChanged, this, countComparedRuns);
    countComparedRuns();
    connect(m_probeMaxLength, qOverload<int>(&QSpinBox::valueChanged), this, [this] { m_probeFollowsRange = false; });
    connect(m_addCurrent, &QPushButton::clicked, this, [this] { addConfiguration(m_base); });
    connect(m_addVariants, &QPushButton::clicked, this, [this] {
        for (AttentionKind kind : attentionKinds()) {
            ModelConfig config = m_base;
            config.attention = kind;
            addConfiguration(config);
        }
    });
    connect(m_clear, &QPushButton::clicked, this, &ExperimentsPanel::clearQueue);
    connect(m_run, &QPushButton::clicked, this, &ExperimentsPanel::run);
    connect(m_stop, &QPushButton::clicked, this, &ExperimentsPanel::stopRequested);
    updateButtons();
    updateCurvesMessage();
}

QString ExperimentsPanel::labelOf(const ModelConfig &c)
{
    return tr("%1, hidden %2").arg(QString::fromLatin1(attentionName(c.attention))).arg(c.hiddenSize);
}

void ExperimentsPanel::setBaseConfig(const ModelConfig &config)
{
    m_base = config;
}

void ExperimentsPanel::setTrainedRange(int minLength, int maxLength)
{
    m_lengthPlot->setTrainedRange(minLength, maxLength);
    const QSignalBlocker following(m_probeMaxLength);  // only the user's own changes stop it following
    m_probeMaxLength->setMinimum(maxLength);
    if (m_probeFollowsRange)
        m_probeMaxLength->setValue(std::min(3 * maxLength, kMaxProbeLength));
}

void ExperimentsPanel::addConfiguration(const ModelConfig &config)
{
    m_queue.push_back(config);
    m_list->addItem(labelOf(config));
    updateButtons();
}

void ExperimentsPanel::clearQueue()
{
    m_queue.clear();
    m_list->clear();
    updateButtons();
}

int ExperimentsPanel::probeMaxLength() const
{
    return m_probeMaxLength->value();
}

int ExperimentsPanel::seeds() const
{
    return m_seeds->value();
}

void ExperimentsPanel::setSeeds(int seeds)
{
    m_seeds->setValue(seeds);
}

void ExperimentsPanel::run()
{
    if (m_queue.isEmpty() || m_running)
        return;
    m_running = true;
    m_records.clear();
    m_runSeeds = seeds();
    m_results.clear();
    m_curves->clearGraphs();
    updateCurvesMessage();
    m_lengthPlot->clear();
    for (int i = 0; i < m_queue.size(); ++i)
        m_list->item(i)->setText(labelOf(m_queue[i]));
    m_status->setText(tr("Starting…"));
    updateButtons();
    emit runRequested(m_queue, probeMaxLength(), m_runSeeds);
}

void ExperimentsPanel::setRecords(const std::vector<ExperimentRecord> &records, int seeds)
{
    m_queue.clear();
    m_list->clear();
    m_records.clear();
    m_results.clear();
    m_curves->clearGraphs();
    m_lengthPlot->clear();
    setSeeds(seeds);
    m_runSeeds = std::max(1, seeds);
    // Through the slots a live run goes through, so the curves are drawn as they were.
    for (std::size_t i = 0; i < records.size(); ++i) {
        const ExperimentRecord &r = records[i];
        if (i % std::size_t(m_runSeeds) == 0)
            addConfiguration(r.model);
        runStarted(int(i), r.seed);
        for (const EpochStats &stats : r.history)
            addEpoch(int(i), stats);
        EvaluationReport probe;
        probe.byLength = r.probeByLength;
        runFinished(int(i), r.testExactMatch, probe);
    }
    updateCurvesMessage();
    m_status->setText(records.empty() ? QString() : tr("%n run(s) from the project.", nullptr, int(records.size())));
}

void ExperimentsPanel::runStarted(int index, std::uint64_t seed)
{
    const int configuration = index / m_runSeeds;
    if (index < 0 || configuration >= m_queue.size() || configuration > m_results.size())
        return;
    const QString label = labelOf(m_queue[configuration]);
    m_records.resize(std::size_t(index) + 1);
    m_records[std::size_t(index)] = {label.toStdString(), m_queue[configuration], seed, {}, 0, {}};
    // Runs arrive in order: the first seed of a configuration brings its curves.
    if (configuration == m_results.size()) {
        const QColor color = LengthAccuracyPlot::runColor(configuration);
        ConfigurationRuns runs;
        runs.loss = addSpreadGraphs(*m_curves, m_curves->yAxis, QPen(color, 2), label);
        runs.loss.mean->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, color, color, 5));
        // One legend entry per configuration; the axis labels say which line is which.
        runs.exact = addSpreadGraphs(*m_curves, m_curves->yAxis2, QPen(color, 2, Qt::DashLine), QString());
        m_results << runs;
    }
    ConfigurationRuns &runs = m_results[configuration];
    runs.valLoss.emplace_back();
    runs.valExact.emplace_back();
    updateCurvesMessage();
    const int total = int(m_queue.size()) * m_runSeeds;
    m_status->setText(m_runSeeds == 1
                          ? tr("Training %1 (%2 of %3)…").arg(label).arg(index + 1).arg(total)
                          : tr("Training %1, seed %2 of %3 (run %4 of %5)…")
                                .arg(label).arg(index % m_runSeeds + 1).arg(m_runSeeds).arg(index + 1).arg(total));
    m_curves->replot(QCustomPlot::rpQueuedReplot);
}

void ExperimentsPanel::addEpoch(int index, const EpochStats &stats)
{
    const int configuration = index / m_runSeeds;
    if (index < 0 || configuration >= m_results.size() || m_results[configuration].valLoss.empty())
        return;
    m_records[std::size_t(index)].history.push_back(stats);
    ConfigurationRuns &runs = m_results[configuration];
    runs.valLoss.back()[stats.epoch] = stats.valLoss;
    runs.valExact.back()[stats.epoch] = stats.valExactMatch;
    setSpreadData(runs.loss, spreadByKey(runs.valLoss));
    setSpreadData(runs.exact, spreadByKey(runs.valExact), 100.0);
    m_curves->xAxis->rescale();
    m_curves->xAxis->scaleRange(1.1, m_curves->xAxis->range().center());
    m_curves->yAxis->rescale();
    m_curves->yAxis->setRangeLower(0);
    m_curves->replot(QCustomPlot::rpQueuedReplot);
}

void ExperimentsPanel::runFinished(int index, double testExactMatch, const EvaluationReport &probe)
{
    const int configuration = index / m_runSeeds;
    if (index < 0 || configuration >= m_results.size())
        return;
    if (std::size_t(index) < m_records.size()) {
        m_records[std::size_t(index)].testExactMatch = testExactMatch;
        m_records[std::size_t(index)].probeByLength = probe.byLength;
    }
    ConfigurationRuns &runs = m_results[configuration];
    runs.testExact.push_back(testExactMatch);
    runs.probeExact.push_back(exactMatchByLength(probe.byLength));
    // Keeps the colours of the curves: configurations arrive in queue order.
    m_lengthPlot->setRun(configuration, labelOf(m_queue[configuration]), spreadByKey(runs.probeExact));
    showTestExactMatch(configuration);
}

void ExperimentsPanel::showTestExactMatch(int configuration)
{
    const Spread test = spreadOf(m_results[configuration].testExact);
    const QString label = labelOf(m_queue[configuration]);
    QListWidgetItem *item = m_list->item(configuration);
    if (test.runs == 1) {
        item->setText(tr("%1: test exact match %2%").arg(label).arg(100.0 * test.mean, 0, 'f', 1));
    } else {
        // Mean ± half the range, then the range: with a few seeds a standard deviation says little.
        item->setText(tr("%1: test exact match %2% ± %3 (%4–%5%, %n seed(s))", nullptr, test.runs)
                          .arg(label)
                          .arg(100.0 * test.mean, 0, 'f', 1)
                          .arg(50.0 * (test.max - test.min), 0, 'f', 1)
                          .arg(100.0 * test.min, 0, 'f', 1)
                          .arg(100.0 * test.max, 0, 'f', 1));
    }
    item->setToolTip(item->text());  // the list is narrow beside its buttons
}

void ExperimentsPanel::queueFinished(const QString &message)
{
    m_running = false;
    m_status->setText(message);
    updateButtons();
}

void ExperimentsPanel::updateCurvesMessage()
{
    const bool empty = m_curves->graphCount() == 0;
    m_curves->legend->setVisible(!empty);
    showPlotMessage(*m_curves, *m_curvesMessage,
                    empty ? tr("Queue configurations above, then press Run Queue.") : QString());
    m_curves->replot(QCustomPlot::rpQueuedReplot);
}

bool ExperimentsPanel::exportCurves(const QString &path, int width, int height, QString *error)
{
    const bool written = exportPlotImage(*m_curves, path, width, height, error);
    m_curves->replot(QCustomPlot::rpQueuedReplot);  // the export laid the plot out at its own size
    return written;
}

void ExperimentsPanel::updateButtons()
{
    m_run->setEnabled(!m_running && !m_queue.isEmpty());
    m_stop->setEnabled(m_running);
    for (QPushButton *button : {m_addCurrent, m_addVariants, m_clear})
        button->setEnabled(!m_running);
    m_seeds->setEnabled(!m_running);
}
