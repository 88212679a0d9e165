#include "experimentspanel.h"

#include "lengthaccuracyplot.h"
#include "plotstyle.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

#include <iterator>

namespace {

// The same colours, in the same order, as LengthAccuracyPlot gives its runs.
const QColor kRunColors[] = {QColor(0, 114, 178), QColor(230, 159, 0), QColor(0, 158, 115), QColor(204, 121, 167),
                             QColor(86, 180, 233), QColor(213, 94, 0), QColor(0, 0, 0), QColor(240, 228, 66)};

QColor runColor(int index)
{
    return kRunColors[std::size_t(index) % std::size(kRunColors)];
}

} // namespace

ExperimentsPanel::ExperimentsPanel(QWidget *parent)
    : QWidget(parent)
    , m_list(new QListWidget)
    , m_probeMaxLength(new QSpinBox)
    , m_addCurrent(new QPushButton(tr("Add Current Settings")))
    , m_addVariants(new QPushButton(tr("Add the Four Attention Variants")))
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
    m_curves->legend->setVisible(true);
    m_curves->legend->setFont(fonts.tick);
    m_curves->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignRight | Qt::AlignVCenter);

    auto *queueLayout = new QVBoxLayout;
    queueLayout->addWidget(new QLabel(tr("Queue (same dataset, training settings and seed):")));
    queueLayout->addWidget(m_list, 1);
    queueLayout->addWidget(m_addCurrent);
    queueLayout->addWidget(m_addVariants);
    queueLayout->addWidget(m_clear);
    auto *probeRow = new QHBoxLayout;
    probeRow->addWidget(new QLabel(tr("Probe lengths up to:")));
    probeRow->addWidget(m_probeMaxLength);
    queueLayout->addLayout(probeRow);
    auto *runRow = new QHBoxLayout;
    runRow->addWidget(m_run);
    runRow->addWidget(m_stop);
    queueLayout->addLayout(runRow);
    queueLayout->addWidget(m_status);
    auto *queueWidget = new QWidget;
    queueWidget->setLayout(queueLayout);

    auto *plots = new QSplitter(Qt::Vertical);
    plots->addWidget(m_curves);
    plots->addWidget(m_lengthPlot);
    auto *splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(queueWidget);
    splitter->addWidget(plots);
    splitter->setStretchFactor(1, 1);
    auto *layout = new QHBoxLayout(this);
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
    m_curves->clearGraphs();
    m_curves->replot(QCustomPlot::rpQueuedReplot);
    m_lengthPlot->clear();
    m_status->setText(tr("Starting…"));
    updateButtons();
    emit runRequested(m_queue, probeMaxLength());
}

void ExperimentsPanel::runStarted(int index)
{
    if (index < 0 || index >= m_queue.size())
        return;
    const QColor color = runColor(index);
    QCPGraph *loss = m_curves->addGraph(m_curves->xAxis, m_curves->yAxis);
    loss->setName(labelOf(m_queue[index]));
    loss->setPen(QPen(color, 2));
    loss->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, color, color, 5));
    QCPGraph *exact = m_curves->addGraph(m_curves->xAxis, m_curves->yAxis2);
    exact->setPen(QPen(color, 2, Qt::DashLine));
    exact->removeFromLegend();  // one legend entry per run; the axis labels say which line is which
    m_status->setText(tr("Training %1 (%2 of %3)…").arg(labelOf(m_queue[index])).arg(index + 1).arg(m_queue.size()));
    m_curves->replot(QCustomPlot::rpQueuedReplot);
}

void ExperimentsPanel::addEpoch(int index, const EpochStats &stats)
{
    if (2 * index + 1 >= m_curves->graphCount())
        return;
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

void ExperimentsPanel::updateButtons()
{
    m_run->setEnabled(!m_running && !m_queue.isEmpty());
    m_stop->setEnabled(m_running);
    for (QPushButton *button : {m_addCurrent, m_addVariants, m_clear})
        button->setEnabled(!m_running);
}
