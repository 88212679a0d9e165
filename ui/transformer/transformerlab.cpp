#include "ui/transformer/transformerlab.h"

#include "ui/core/attentionheatmap.h"
#include "ui/core/attributionstripsplot.h"
#include "ui/core/contrastbox.h"
#include "ui/core/exportactions.h"
#include "ui/core/faithfulnesspage.h"
#include "ui/core/lengthaccuracyplot.h"
#include "ui/core/lossplot.h"
#include "ui/core/plotexport.h"
#include "ui/core/stepscorestable.h"
#include "ui/transformer/headgrid.h"
#include "ui/transformer/transformerbeambox.h"
#include "ui/transformer/transformercontrast.h"
#include "ui/transformer/transformerjobs.h"
#include "ui/transformer/transformermethodview.h"
#include "ui/transformer/transformerresults.h"
#include "ui/transformer/transformerreversepanel.h"
#include "ui/transformer/transformersetup.h"
#include "ui/transformer/transformershareddecoder.h"
#include "engine/core/corpusdefaults.h"
#include "engine/transformer/transformercheckpoint.h"
#include "engine/core/runfigures.h"
#include "ui/workbench/runcomparisonview.h"
#include "ui/workbench/runsummary.h"
#include "ui/workbench/sharedrun.h"
#include "ui/workbench/workbench.h"

#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSlider>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>

namespace {

QString sharePercent(double share)
{
    return QLocale().toString(100.0 * share, 'f', 1) + QStringLiteral(" %");
}

// What tells one Transformer run from another: "2 + 2 layers, 4 heads, width 128, sinusoidal".
QString describeShape(const TransformerConfig &config)
{
    return QObject::tr("%1 + %1 layers, %2 heads, width %3, %4 positions%5")
        .arg(config.layers)
        .arg(config.heads)
        .arg(config.modelSize)
        .arg(config.positions == PositionEncoding::Learned ? QObject::tr("learned") : QObject::tr("sinusoidal"))
        .arg(config.preNorm ? QString() : QObject::tr(", post-LN"));
}

}  // namespace

TransformerLab::TransformerLab(Workbench *workbench)
    : Lab(workbench), m_setup(new TransformerSetup), m_reverse(new TransformerReversePanel), m_loss(new LossPlot),
      m_status(new QLabel), m_page(new QWidget(workbench->dialogParent())),
      m_epochSlider(new QSlider(Qt::Horizontal)), m_epochLabel(new QLabel),
      m_setupDock(new QDockWidget(tr("Transformer Setup"))),
      m_comparison(new RunComparisonView(workbench->dialogParent()))
{
    m_comparison->setObjectName(QStringLiteral("transformerComparison"));
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
    m_reverse->addUnderGrid(m_loss, tr("Loss curve"));
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
    createFaithfulness();
    createExports();

    connect(m_setup, &TransformerSetup::changed, this, &Lab::actionsChanged);
    connect(m_reverse, &TransformerReversePanel::decoded, this, &TransformerLab::updateActions);
    connect(m_reverse->methodView(), &TransformerMethodView::changed, this, &TransformerLab::updateActions);
    connect(m_reverse->contrast(), &TransformerContrast::contrastChanged, this, &TransformerLab::updateActions);
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
    const auto keep = [](QAction *action, const char *name, QList<QAction *> &group) {
        action->setObjectName(QLatin1String(name));
        group << action;
    };
    const QString csv = tr("CSV (*.csv)");
    keep(m_exports->addImage(tr("Export Transformer &Heatmap…"), QStringLiteral("transformer_heatmap.png"),
                             m_reverse->heatmap()),
         "exportTransformerHeatmap", m_sentenceExports);
    keep(m_exports->addFile(tr("Export Transformer Heatmap (CS&V)…"), QStringLiteral("transformer_heatmap.csv"), csv,
                            [this](const QString &path, QString *error) { return m_reverse->heatmap()->exportCsv(path, error); }),
         "exportTransformerHeatmapCsv", m_sentenceExports);
    keep(m_exports->addImage(tr("Export Transformer Head &Grid…"), QStringLiteral("transformer_heads.png"),
                             m_reverse->headGrid()),
         "exportTransformerHeads", m_sentenceExports);
    keep(m_exports->addFile(tr("Export Transformer Head Grid (CSV)…"), QStringLiteral("transformer_heads.csv"), csv,
                            [this](const QString &path, QString *error) { return m_reverse->headGrid()->exportCsv(path, error); }),
         "exportTransformerHeadsCsv", m_sentenceExports);
    TransformerMethodView *methods = m_reverse->methodView();
    keep(m_exports->addImage(tr("Export Transformer &Step Scores…"), QStringLiteral("transformer_step_scores.png"),
                             methods->stepScores()),
         "exportTransformerStepScores", m_stepExports);
    keep(m_exports->addFile(tr("Export Transformer Step Scores (CSV)…"), QStringLiteral("transformer_step_scores.csv"),
                            csv, [methods](const QString &path, QString *error) { return methods->stepScores()->exportCsv(path, error); }),
         "exportTransformerStepScoresCsv", m_stepExports);
    keep(m_exports->addImage(tr("Export Transformer &Methods for the Output Word…"),
                             QStringLiteral("transformer_methods_row.png"), methods->smallMultiples()),
         "exportTransformerMethodsRow", m_rowExports);
    keep(m_exports->addFile(tr("Export Transformer Methods for the Output Word (CSV)…"),
                            QStringLiteral("transformer_methods_row.csv"), csv,
                            [methods](const QString &path, QString *error) { return methods->smallMultiples()->exportCsv(path, error); }),
         "exportTransformerMethodsRowCsv", m_rowExports);
    AttributionStripsPlot *contrast = m_reverse->contrast()->box()->plot();
    keep(m_exports->addImage(tr("Export Transformer &Contrast…"), QStringLiteral("transformer_contrast.png"), contrast),
         "exportTransformerContrast", m_contrastExports);
    keep(m_exports->addFile(tr("Export Transformer Contrast (CSV)…"), QStringLiteral("transformer_contrast.csv"), csv,
                            [contrast](const QString &path, QString *error) { return contrast->exportCsv(path, error); }),
         "exportTransformerContrastCsv", m_contrastExports);
    keep(m_exports->addImage(tr("Export Transformer &Loss Curve…"), QStringLiteral("transformer_loss.png"), m_loss),
         "exportTransformerLoss", m_lossExports);
    keep(m_exports->addFile(tr("Export Transformer Loss Curve (CSV)…"), QStringLiteral("transformer_loss.csv"), csv,
                            [this](const QString &path, QString *error) { return m_loss->exportCsv(path, error); }),
         "exportTransformerLossCsv", m_lossExports);
    keep(m_exports->addImage(tr("Export Exact Match by &Length…"), QStringLiteral("runs_by_length.png"),
                             m_comparison->lengthPlot()),
         "exportRunsByLength", m_comparisonExports);
    keep(m_exports->addFile(tr("Export Compared Runs (CSV)…"), QStringLiteral("runs.csv"), csv,
                            [this](const QString &path, QString *error) { return m_comparison->exportCsv(path, error); }),
         "exportRunsCsv", m_comparisonExports);
    createFaithfulnessExports(csv);
}

QList<LabPage> TransformerLab::pages() const
{
    return {{tr("&Transformer"), m_page}, {tr("Fa&ithfulness"), m_faithfulness}, {tr("&Compare Runs"), m_comparison}};
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
    for (QAction *action : std::as_const(m_sentenceExports))
        action->setEnabled(m_reverse->hasOutput());
    for (QAction *action : std::as_const(m_stepExports))
        action->setEnabled(m_reverse->methodView()->stepScores()->steps() > 0);
    for (QAction *action : std::as_const(m_rowExports))
        action->setEnabled(m_reverse->methodView()->smallMultiples()->methodCount() > 0);
    for (QAction *action : std::as_const(m_contrastExports))
        action->setEnabled(m_reverse->contrast()->hasContrast());
    for (QAction *action : std::as_const(m_lossExports))
        action->setEnabled(!m_history.empty());
    for (QAction *action : std::as_const(m_comparisonExports))
        action->setEnabled(!m_comparison->runs().empty());
    for (QAction *action : std::as_const(m_faithfulnessExports))
        action->setEnabled(m_faithfulness->hasReport());
    m_setup->setEnabled(runState()->phase() == RunState::Phase::Idle);
    emit actionsChanged();
}

void TransformerLab::saveSettings(QSettings &settings) const
{
    settings.beginGroup(QStringLiteral("transformer"));
    m_setup->saveSettings(settings);
    settings.setValue(QStringLiteral("sentence"), m_reverse->text());
    settings.setValue(QStringLiteral("attention"), int(m_reverse->kind()));
    settings.setValue(QStringLiteral("explainBy"), m_reverse->methodView()->methodName());
    settings.setValue(QStringLiteral("beamWidth"), m_reverse->beamBox()->options().width);
    settings.setValue(QStringLiteral("beamAlpha"), m_reverse->beamBox()->options().alpha);
    settings.endGroup();
}

void TransformerLab::restoreSettings(QSettings &settings)
{
    settings.beginGroup(QStringLiteral("transformer"));
    m_setup->restoreSettings(settings);
    m_reverse->setText(settings.value(QStringLiteral("sentence"), QStringLiteral("the quick brown fox jumps")).toString());
    m_reverse->setKind(TransformerReversePanel::Kind(settings.value(QStringLiteral("attention"), 0).toInt()));
    m_reverse->methodView()->setMethodName(settings.value(QStringLiteral("explainBy"), QStringLiteral("heads")).toString());
    BeamOptions beam;
    beam.width = settings.value(QStringLiteral("beamWidth"), beam.width).toInt();
    beam.alpha = settings.value(QStringLiteral("beamAlpha"), beam.alpha).toDouble();
    m_reverse->beamBox()->setOptions(beam);
    settings.endGroup();
}

QString TransformerLab::trainProblem() const
{
    return m_setup->problem();
}

void TransformerLab::train()
{
    m_epochs = m_setup->trainingConfig().epochs;
    m_runData = m_setup->dataConfig();
    m_runSeed = m_setup->trainingConfig().seed;
    m_history.clear();
    m_snapshots.clear();
    m_epochSlider->setRange(0, 0);
    m_epochSlider->setEnabled(false);
    m_epochLabel->clear();
    m_loss->clear();
    setStatus(tr("Preparing…"));
    abandonFaithfulness();  // an opened model's measurement would hold the training back
    m_faithfulnessAwaited.reset();
    m_faithfulness->clearHistory();
    m_faithfulness->setSubject(tr("the trained model"));
    m_faithfulness->showMessage(*m_faithfulnessWanted
                                    ? tr("Training… the methods are measured after every epoch.")
                                    : tr("Measured after every epoch once this page is shown."));
    submit(transformerTrainingJob(m_setup->dataConfig(), m_setup->modelConfig(), m_setup->trainingConfig(),
                                  m_faithfulnessWanted),
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
    if (finished.best && finished.best->epoch >= 1 && finished.best->epoch <= int(m_snapshots.size())) {
        // The best epoch's weights, which the run kept, now with its heads scored on the test split.
        m_snapshots[std::size_t(finished.best->epoch - 1)] = finished.best;
        m_epochSlider->setValue(finished.best->epoch);
        showEpoch(finished.best->epoch);
    }
    const QString text = runSummary(finished.epochsDone, finished.epochs, seconds > 0 ? samples / seconds : 0,
                                    tr("sentences")) +
                         QLatin1Char(' ') +
                         tr("The best epoch, %1, reverses %2 of the test sentences exactly (%3 of their words).")
                             .arg(finished.best ? finished.best->epoch : 0)
                             .arg(sharePercent(finished.test.exactMatch()), sharePercent(finished.test.tokenAccuracy()));
    setStatus(text);
    emit statusMessage(text, 8000);
    if (!finished.best)
        return;
    m_checkpoint = finished.checkpoint;
    document()->setUnsaved();
    // A run no one watched on the Faithfulness page leaves its model to measure there.
    if (!*m_faithfulnessWanted)
        awaitFaithfulness(finished.best, m_runData, tr("the trained model"));
    shareModel(finished.best, m_runData.lowercase, tr("epoch %1").arg(finished.best->epoch));
    SharedRun run;
    run.architecture = tr("Transformer");
    run.label = describeShape(finished.best->config);
    run.data = QString::fromStdString(describeData(m_runData));
    run.seed = m_runSeed;
    run.testExactMatch = finished.test.exactMatch();
    run.byLength = finished.probe.byLength;
    run.trainedMinLength = finished.trainedMinLength;
    run.trainedMaxLength = finished.trainedMaxLength;
    run.secondsTo99 = trainingSecondsToExactMatch(m_history, 0.99);
    run.parameters = finished.best->parameters;
    run.samplesPerSecond = medianSamplesPerSecond(m_history);
    m_comparison->addRun(run);
    workbench()->shareRun(this, run);
    updateActions();
}

void TransformerLab::takeRun(const SharedRun &run)
{
    m_comparison->addRun(run);
    updateActions();
}

bool TransformerLab::open(const QString &path, const FileType &, QString *error)
{
    std::optional<TransformerCheckpoint> checkpoint;
    try {
        checkpoint.emplace(loadTransformerCheckpoint(QFile::encodeName(path).toStdString()));
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    const TransformerModel &model = checkpoint->model;
    // The file holds the epoch the run kept: the one of lowest validation loss, as the trainer chose it.
    const auto best = std::min_element(model.history.begin(), model.history.end(),
                                       [](const EpochStats &a, const EpochStats &b) { return a.valLoss < b.valLoss; });
    const int bestEpoch = best == model.history.end() ? 0 : best->epoch;
    m_checkpoint = std::make_shared<const std::string>(
        transformercheckpoint::encode(model, checkpoint->dataset, checkpoint->training));
    m_setup->setConfigs(checkpoint->dataset, model.config(), checkpoint->training);
    m_history = model.history;
    m_epochs = int(m_history.size());
    m_loss->clear();
    m_loss->setHistory(m_history);
    // Only the kept epoch's weights are in the file: no other epoch to scrub to.
    m_snapshots.clear();
    m_epochSlider->blockSignals(true);
    m_epochSlider->setRange(0, 0);
    m_epochSlider->blockSignals(false);
    m_epochSlider->setEnabled(false);
    m_epochLabel->setText(tr("only epoch %1 is in the file").arg(bestEpoch));
    m_loss->setMarker(bestEpoch);
    const auto snapshot = transformerSnapshotOf(model, bestEpoch);
    m_reverse->setSnapshot(snapshot);
    shareModel(snapshot, checkpoint->dataset.lowercase,
               tr("%1, epoch %2").arg(QFileInfo(path).fileName()).arg(bestEpoch));
    awaitFaithfulness(snapshot, checkpoint->dataset, tr("the opened model"));
    setStatus(tr("%1: %2, trained %3 epochs; epoch %4 kept.")
                  .arg(QFileInfo(path).fileName(), describeShape(model.config()))
                  .arg(m_history.size())
                  .arg(bestEpoch));
    updateActions();
    return true;
}

bool TransformerLab::save(const QString &path, const FileType &, QString *error)
{
    if (!m_checkpoint) {
        if (error)
            *error = tr("There is no Transformer to save: train one first.");
        return false;
    }
    return writeFileAtomically(path, QByteArray::fromStdString(*m_checkpoint), error);
}

void TransformerLab::shareModel(const std::shared_ptr<const TransformerSnapshot> &snapshot, bool lowercase,
                                const QString &origin)
{
    workbench()->shareDecoder(
        this, sharedTransformerDecoder(snapshot, lowercase, tr("%1, %2").arg(describeShape(snapshot->config), origin)));
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
