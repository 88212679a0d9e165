#include "ui/transformer/transformerlab.h"

#include "ui/core/attentionheatmap.h"
#include "ui/core/exportactions.h"
#include "ui/core/lossplot.h"
#include "ui/transformer/transformerjobs.h"
#include "ui/transformer/transformerresults.h"
#include "ui/transformer/transformerreversepanel.h"
#include "ui/transformer/transformersetup.h"
#include "ui/workbench/runsummary.h"
#include "ui/workbench/workbench.h"

#include <QAction>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSlider>
#include <QVBoxLayout>

namespace {

QString sharePercent(double share)
{
    return QLocale().toString(100.0 * share, 'f', 1) + QStringLiteral(" %");
}

}  // namespace

TransformerLab::TransformerLab(Workbench *workbench)
    : Lab(workbench), m_setup(new TransformerSetup), m_reverse(new TransformerReversePanel), m_loss(new LossPlot),
      m_status(new QLabel), m_page(new QWidget(workbench->dialogParent())),
      m_epochSlider(new QSlider(Qt::Horizontal)), m_epochLabel(new QLabel),
      m_setupDock(new QDockWidget(tr("Transformer Setup")))
{
    m_setup->setObjectName(QStringLiteral("transformerSetup"));
    auto *setupArea = new QScrollArea;
    setupArea->setWidget(m_setup);
    setupArea->setWidgetResizable(true);
    setupArea->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // As wide as the fields need: the dock never cuts them off.
    setupArea->setMinimumWidth(m_setup->minimumSizeHint().width() + setupArea->verticalScrollBar()->sizeHint().width());
    m_setupDock->setObjectName(QStringLiteral("transformerSetupDock"));
    m_setupDock->setWidget(setupArea);
    m_loss->setObjectName(QStringLiteral("transformerLoss"));
    m_loss->setMinimumSize(240, 160);
    m_loss->setAccessibleName(tr("Transformer loss plot"));
    m_loss->setAccessibleDescription(tr("Loss per batch and per epoch for training and validation, validation exact "
                                        "match on the right axis, the best epoch marked."));

    m_status->setObjectName(QStringLiteral("transformerStatus"));
    m_status->setWordWrap(true);
    m_page->setObjectName(QStringLiteral("transformerPage"));
    auto *layout = new QVBoxLayout(m_page);
    layout->addWidget(m_status);
    m_reverse->addUnderGrid(m_loss);
    layout->addWidget(m_reverse, 1);
    // The run epoch by epoch: the heads as they were after any epoch.
    m_epochSlider->setObjectName(QStringLiteral("transformerEpochSlider"));
    m_epochSlider->setRange(0, 0);
    m_epochSlider->setPageStep(1);
    m_epochSlider->setEnabled(false);
    m_epochSlider->setToolTip(tr("Decode with the weights of any epoch of the run (arrow keys, Home, End)"));
    m_epochLabel->setObjectName(QStringLiteral("transformerEpochLabel"));
    auto *history = new QHBoxLayout;
    history->addWidget(new QLabel(tr("Weights of epoch:")));
    history->addWidget(m_epochSlider, 1);
    history->addWidget(m_epochLabel);
    layout->addLayout(history);
    connect(m_epochSlider, &QSlider::valueChanged, this, &TransformerLab::showEpoch);
    setStatus(tr("A Transformer (Vaswani et al. 2017) learns to reverse sentences: press Train (F5), then type a "
                 "sentence and watch its heads."));
    createExports();

    connect(m_setup, &TransformerSetup::changed, this, &Lab::actionsChanged);
    connect(m_reverse, &TransformerReversePanel::decoded, this, &TransformerLab::updateActions);
    connect(m_reverse, &TransformerReversePanel::headOffered, this,
            [this](const SharedAttentionHead &head) { this->workbench()->shareAttentionHead(this, head); });
    connect(runState(), &RunState::changed, this, &TransformerLab::updateActions);
    onResult(&TransformerLab::addEpoch);
    onResult(&TransformerLab::finishTraining);
    updateActions();
}

void TransformerLab::createExports()
{
    m_exports = new ExportActions(m_page, this);
    m_exports->addImage(tr("Export Transformer &Heatmap…"), QStringLiteral("transformer_heatmap.png"),
                        m_reverse->heatmap())
        ->setObjectName(QStringLiteral("exportTransformerHeatmap"));
    m_exports->addFile(tr("Export Transformer Heatmap (CS&V)…"), QStringLiteral("transformer_heatmap.csv"),
                       tr("CSV (*.csv)"),
                       [this](const QString &path, QString *error) { return m_reverse->heatmap()->exportCsv(path, error); })
        ->setObjectName(QStringLiteral("exportTransformerHeatmapCsv"));
    m_exports->addImage(tr("Export Transformer &Loss Curve…"), QStringLiteral("transformer_loss.png"), m_loss)
        ->setObjectName(QStringLiteral("exportTransformerLoss"));
}

QList<LabPage> TransformerLab::pages() const
{
    return {{tr("&Transformer"), m_page}};
}

QList<LabDock> TransformerLab::docks() const
{
    return {{m_setupDock, Qt::LeftDockWidgetArea, nullptr, true}};
}

QList<QAction *> TransformerLab::exportActions() const
{
    return m_exports->actions();
}

void TransformerLab::updateActions()
{
    const QList<QAction *> &exports = m_exports->actions();
    exports[0]->setEnabled(m_reverse->hasOutput());
    exports[1]->setEnabled(m_reverse->hasOutput());
    exports[2]->setEnabled(!m_history.empty());
    m_setup->setEnabled(runState()->phase() == RunState::Phase::Idle);
    emit actionsChanged();
}

void TransformerLab::saveSettings(QSettings &settings) const
{
    settings.beginGroup(QStringLiteral("transformer"));
    m_setup->saveSettings(settings);
    settings.setValue(QStringLiteral("sentence"), m_reverse->text());
    settings.setValue(QStringLiteral("attention"), int(m_reverse->kind()));
    settings.endGroup();
}

void TransformerLab::restoreSettings(QSettings &settings)
{
    settings.beginGroup(QStringLiteral("transformer"));
    m_setup->restoreSettings(settings);
    m_reverse->setText(settings.value(QStringLiteral("sentence"), QStringLiteral("the quick brown fox jumps")).toString());
    m_reverse->setKind(TransformerReversePanel::Kind(settings.value(QStringLiteral("attention"), 0).toInt()));
    settings.endGroup();
}

QString TransformerLab::trainProblem() const
{
    return m_setup->problem();
}

void TransformerLab::train()
{
    m_epochs = m_setup->trainingConfig().epochs;
    m_history.clear();
    m_snapshots.clear();
    m_epochSlider->setRange(0, 0);
    m_epochSlider->setEnabled(false);
    m_epochLabel->clear();
    m_loss->clear();
    setStatus(tr("Preparing…"));
    submit(transformerTrainingJob(m_setup->dataConfig(), m_setup->modelConfig(), m_setup->trainingConfig()),
           RunState::Phase::Training);
}

void TransformerLab::jobStarted(const QString &description)
{
    setStatus(description);
    emit statusMessage(description);
}

void TransformerLab::jobBatch(const BatchProgress &progress)
{
    m_loss->addBatch(progress);
}

void TransformerLab::jobFailed(const QString &message)
{
    setStatus(tr("Training failed: %1").arg(message));
}

void TransformerLab::addEpoch(const TransformerEpochDone &done)
{
    m_history.push_back(done.stats);
    m_loss->addEpoch(done.stats, done.isBest);
    // The slider follows the newest epoch unless it was moved back to look at an older one.
    const bool following = m_epochSlider->value() == int(m_snapshots.size());
    m_snapshots.push_back(done.snapshot);
    m_epochSlider->setEnabled(true);
    m_epochSlider->setRange(1, int(m_snapshots.size()));
    if (following)
        m_epochSlider->setValue(int(m_snapshots.size()));
    showEpoch(m_epochSlider->value());
    setStatus(tr("Epoch %1 of %2: training loss %3, validation loss %4, validation exact match %5; %6 sentences/s.")
                  .arg(done.stats.epoch)
                  .arg(m_epochs)
                  .arg(QLocale().toString(done.stats.trainLoss, 'g', 3), QLocale().toString(done.stats.valLoss, 'g', 3),
                       sharePercent(done.stats.valExactMatch),
                       QLocale().toString(qlonglong(done.stats.samplesPerSecond))));
    updateActions();
}

void TransformerLab::finishTraining(const TransformerTrainingFinished &finished)
{
    double seconds = 0, samples = 0;
    for (const EpochStats &stats : m_history) {
        seconds += stats.seconds;
        samples += stats.samplesPerSecond * stats.seconds;
    }
    if (finished.best && finished.best->epoch >= 1 && finished.best->epoch <= int(m_snapshots.size()))
        m_epochSlider->setValue(finished.best->epoch);  // the best epoch's weights, which the run kept
    const QString text = runSummary(finished.epochsDone, finished.epochs, seconds > 0 ? samples / seconds : 0,
                                    tr("sentences")) +
                         QLatin1Char(' ') +
                         tr("The best epoch, %1, reverses %2 of the test sentences exactly (%3 of their words).")
                             .arg(finished.best ? finished.best->epoch : 0)
                             .arg(sharePercent(finished.test.exactMatch()), sharePercent(finished.test.tokenAccuracy()));
    setStatus(text);
    emit statusMessage(text, 8000);
}

void TransformerLab::showEpoch(int epoch)
{
    if (epoch < 1 || epoch > int(m_snapshots.size()))
        return;
    m_reverse->setSnapshot(m_snapshots[std::size_t(epoch - 1)]);
    m_loss->setMarker(epoch);
    m_epochLabel->setText(tr("%1 of %2").arg(epoch).arg(m_snapshots.size()));
}

void TransformerLab::setStatus(const QString &text)
{
    m_status->setText(text);
}

QString TransformerLab::statusText() const
{
    return m_status->text();
}
