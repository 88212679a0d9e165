#include "ui/attention/experimentspanel.h"

#include "ui/attention/lengthaccuracyplot.h"
#include "ui/core/plotstyle.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>


ExperimentsPanel::ExperimentsPanel(QWidget *parent)
    : QWidget(parent)
    , m_list(new QListWidget)
    , m_probeMaxLength(new QSpinBox)
    , m_addCurrent(new QPushButton(tr("Add Current Settings")))
    , m_addVariants(new QPushButton(tr("Add the Four Variants")))
    , m_clear(new QPushButton(tr("Clear")))
    , m_run(new QPushButton(tr("Run Queue")))
    , m_stop(new QPushButton(tr("Stop")))
    , m_status(new QLabel)
    , m_curves(new QCustomPlot)
    , m_lengthPlot(new LengthAccuracyPlot)
{
    m_addCurrent->setToolTip(tr("Queue the model settings of the Model && Training tab."));
    m_addVariants->setToolTip(tr("Queue the current settings once with each attention variant: bahdanau, "
                                 "luong-dot, luong-general and none."));
    m_probeMaxLength->setRange(1, 100);
    m_probeMaxLength->setValue(20);
    m_probeMaxLength->setToolTip(tr("Each trained model is also tested on sentences up to this many words, "
                                    "longer than any it was trained on."));
    m_status->setWordWrap(true);
    m_status->setObjectName(QStringLiteral("experimentsStatus"));
    m_addVariants->setObjectName(QStringLiteral("addVariantsButton"));
    m_run->setObjectName(QStringLiteral("runQueueButton"));
    m_stop->setObjectName(QStringLiteral("stopQueueButton"));
    m_curves->setAccessibleName(tr("Validation per epoch of each queued run"));
    m_curves->setAccessibleDescription(tr("Validation loss (solid) and exact match (dashed) per epoch, one colour per run."));
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
    auto *queueRow = new QHBoxLayout;
    queueRow->addWidget(m_list, 1);
    queueRow->addLayout(buttons);
    auto *queueWidget = new QWidget;
    auto *queueLayout = new QVBoxLayout(queueWidget);
    queueLayout->setContentsMargins(0, 0, 0, 0);
    queueLayout->addWidget(new QLabel(tr("Queue (same dataset, training settings and seed):")));
    queueLayout->addLayout(queueRow);
    queueLayout->addWidget(m_status);

    auto *splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(queueWidget);
    splitter->addWidget(m_curves);
    splitter->addWidget(m_lengthPlot);
    splitter->setStretchFactor(1, 1);
    splitter->setStretchFactor(2, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(splitter);

    connect(m_addCurrent, &QPushButton::clicked, this, [this] { addConfiguration(m_base); });
    connect(m_addVariants, &QPushButton::clicked, this, [this] {
        for (AttentionKind kind : {AttentionKind::Bahdanau, AttentionKind::LuongDot, AttentionKind::LuongGeneral,
                                   AttentionKind::None}) {
            ModelConfig config = m_base;
            config.attention = kind;
            addConfiguration(config);
        }
    });
    connect(m_clear, &QPushButton::clicked, this, [this] {
        m_queue.clear();
        m_list->clear();
        updateButtons();
    });
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
    m_probeMaxLength->setMinimum(maxLength);
}

void ExperimentsPanel::addConfiguration(const ModelConfig &config)
{
    m_queue.push_back(config);
    m_list->addItem(labelOf(config));
    updateButtons();
}

int ExperimentsPanel::probeMaxLength() const
{
    return m_probeMaxLength->value();
}

void ExperimentsPanel::run()
{
    if (m_queue.isEmpty() || m_running)
        return;
    m_running = true;
    m_records.clear();
    m_curves->clearGraphs();
    updateCurvesMessage();
    m_lengthPlot->clear();
    m_status->setText(tr("Starting…"));
    updateButtons();
    emit runRequested(m_queue, probeMaxLength());
}

void ExperimentsPanel::setRecords(const std::vector<ExperimentRecord> &records)
{
    m_queue.clear();
    m_list->clear();
    m_records.clear();
    m_curves->clearGraphs();
    m_lengthPlot->clear();
    // Through the slots a live run goes through, so the curves are drawn as they were.
    for (std::size_t i = 0; i < records.size(); ++i) {
        const ExperimentRecord &r = records[i];
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
    if (index < 0 || index >= m_queue.size())
        return;
    m_records.resize(std::size_t(index) + 1);
    m_records[std::size_t(index)] = {labelOf(m_queue[index]).toStdString(), m_queue[index], seed, {}, 0, {}};
    const QColor color = LengthAccuracyPlot::runColor(index);
    QCPGraph *loss = m_curves->addGraph(m_curves->xAxis, m_curves->yAxis);
    loss->setName(labelOf(m_queue[index]));
    loss->setPen(QPen(color, 2));
    loss->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, color, color, 5));
    QCPGraph *exact = m_curves->addGraph(m_curves->xAxis, m_curves->yAxis2);
    exact->setPen(QPen(color, 2, Qt::DashLine));
    exact->removeFromLegend();  // one legend entry per run; the axis labels say which line is which
    updateCurvesMessage();
    m_status->setText(tr("Training %1 (%2 of %3)…").arg(labelOf(m_queue[index])).arg(index + 1).arg(m_queue.size()));
    m_curves->replot(QCustomPlot::rpQueuedReplot);
}

void ExperimentsPanel::addEpoch(int index, const EpochStats &stats)
{
    if (2 * index + 1 >= m_curves->graphCount())
        return;
    m_records[std::size_t(index)].history.push_back(stats);
    m_curves->graph(2 * index)->addData(stats.epoch, stats.valLoss);
    m_curves->graph(2 * index + 1)->addData(stats.epoch, 100.0 * stats.valExactMatch);
    m_curves->xAxis->rescale();
    m_curves->xAxis->scaleRange(1.1, m_curves->xAxis->range().center());
    m_curves->yAxis->rescale();
    m_curves->yAxis->setRangeLower(0);
    m_curves->replot(QCustomPlot::rpQueuedReplot);
}

void ExperimentsPanel::runFinished(int index, double testExactMatch, const EvaluationReport &probe)
{
    if (index < 0 || index >= m_queue.size())
        return;
    if (std::size_t(index) < m_records.size()) {
        m_records[std::size_t(index)].testExactMatch = testExactMatch;
        m_records[std::size_t(index)].probeByLength = probe.byLength;
    }
    // Keeps the colours of the curves: runs arrive in queue order.
    m_lengthPlot->addRun(labelOf(m_queue[index]), probe.byLength);
    m_list->item(index)->setText(tr("%1: test exact match %2%")
                                     .arg(labelOf(m_queue[index]))
                                     .arg(100.0 * testExactMatch, 0, 'f', 1));
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

void ExperimentsPanel::updateButtons()
{
    m_run->setEnabled(!m_running && !m_queue.isEmpty());
    m_stop->setEnabled(m_running);
    for (QPushButton *button : {m_addCurrent, m_addVariants, m_clear})
        button->setEnabled(!m_running);
}
