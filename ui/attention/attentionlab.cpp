#include "ui/attention/attentionlab.h"

#include "ui/attention/alignmentplot.h"
#include "ui/attention/attentionjobs.h"
#include "ui/attention/attentionexports.h"
#include "ui/attention/attributionexports.h"
#include "ui/attention/beamsearchpage.h"
#include "ui/core/faithfulnesspage.h"
#include "ui/attention/methodheatmap.h"
#include "ui/attention/compareview.h"
#include "ui/attention/datasetpanel.h"
#include "ui/attention/embeddingpanel.h"
#include "ui/attention/examplestable.h"
#include "ui/attention/experimentspanel.h"
#include "ui/attention/historyscrubber.h"
#include "ui/attention/inferencepanel.h"
#include "ui/attention/losspanel.h"
#include "ui/attention/modeltext.h"
#include "ui/attention/trainingpanel.h"
#include "ui/attention/wordremovalplot.h"
#include "ui/attention/wordremovalview.h"
#include "engine/attention/epochreplay.h"
#include "engine/core/corpusdefaults.h"
#include "ui/core/lossplot.h"
#include "ui/core/markdownview.h"
#include "ui/core/scrolledpanel.h"
#include "ui/workbench/document.h"
#include "ui/workbench/runcomparisonview.h"
#include "ui/workbench/sharedembeddings.h"
#include "ui/workbench/workbench.h"

#include <QCoreApplication>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QScrollArea>
#include <QSettings>
#include <QTabWidget>
#include <QTextBrowser>
#include <QToolButton>
#include <QVBoxLayout>

#include <exception>

AttentionLab::AttentionLab(Workbench *workbench)
    // Panels that open dialogs have the window as their parent from the start; addLab() places the pages and docks.
    : Lab(workbench), m_datasetPanel(new DatasetPanel), m_trainingPanel(new TrainingPanel),
      m_inference(new InferencePanel(workbench->dialogParent())), m_scrubber(new HistoryScrubber),
      m_reversePage(new QWidget(workbench->dialogParent())),
      m_experiments(new ExperimentsPanel(workbench->dialogParent())),
      m_loss(new LossPanel), m_alignment(new AlignmentPlot), m_embeddings(new EmbeddingPanel),
      m_examples(new ExamplesTable), m_analysis(new QTextBrowser), m_wordRemoval(new WordRemovalView)
{
    registerMetaTypes();
    m_inference->setObjectName(QStringLiteral("inferencePanel"));
    m_experiments->setObjectName(QStringLiteral("experimentsPanel"));
    m_embeddings->setObjectName(QStringLiteral("embeddingPanel"));
    m_examples->setObjectName(QStringLiteral("examplesTable"));
    m_analysis->setObjectName(QStringLiteral("analysisView"));
    m_wordRemoval->setObjectName(QStringLiteral("wordRemovalView"));
    m_alignment->setObjectName(QStringLiteral("alignmentPlot"));
    m_alignment->setMinimumSize(240, 160);
    m_alignment->setAccessibleName(tr("Alignment plot"));
    m_analysis->setOpenExternalLinks(true);
    m_analysis->setPlaceholderText(tr("How the model's attention behaves on the test set appears here when "
                                      "training ends or a model is opened."));
    m_exports = new AttentionExports(workbench->dialogParent(), m_inference, m_loss->plot(), m_alignment, m_embeddings,
                                     m_wordRemoval->plot(), m_scrubber, m_experiments->comparison(), this);
    m_scrubber->setObjectName(QStringLiteral("historyScrubber"));
    m_reversePage->setObjectName(QStringLiteral("reversePage"));
    auto *reverseLayout = new QVBoxLayout(m_reversePage);
    reverseLayout->setContentsMargins(0, 0, 0, 0);
    reverseLayout->setSpacing(0);
    // Too short a window scrolls the page rather than squeeze the heatmap's rows past reading.
    auto *inferenceArea = new QScrollArea;
    inferenceArea->setWidget(m_inference);
    inferenceArea->setWidgetResizable(true);
    inferenceArea->setFrameShape(QFrame::NoFrame);
    reverseLayout->addWidget(inferenceArea, 1);
    reverseLayout->addWidget(m_scrubber);
    // The scrubber has no margins of its own: it lines up with the panel's contents above it.
    const QMargins margins = m_inference->layout()->contentsMargins();
    m_scrubber->layout()->setContentsMargins(margins.left(), 0, margins.right(), margins.bottom());

    m_setupDock = createSetupDock();
    m_lossDock = dock(tr("Loss"), QStringLiteral("lossDock"), m_loss);
    m_alignmentDock = dock(tr("Alignment"), QStringLiteral("alignmentDock"), m_alignment);
    m_embeddingDock = dock(tr("Embeddings"), QStringLiteral("embeddingDock"), m_embeddings);
    m_examplesDock = dock(tr("Test Examples"), QStringLiteral("examplesDock"), m_examples);
    m_analysisDock = dock(tr("Attention Analysis"), QStringLiteral("analysisDock"), m_analysis);
    m_wordRemovalDock = dock(tr("Word Removal"), QStringLiteral("wordRemovalDock"), m_wordRemoval);
    // Here, not in the initialiser list: it reads the history, the last member to be built.
    m_compare = new CompareView(m_weightHistory, workbench->dialogParent());
    m_compare->setObjectName(QStringLiteral("compareView"));
    createAttributionViews();
    createBeamPage();

    connect(m_datasetPanel, &DatasetPanel::configChanged, this, &AttentionLab::actionsChanged);
    connect(m_trainingPanel, &TrainingPanel::configChanged, this, &AttentionLab::actionsChanged);
    connect(m_inference, &InferencePanel::sentenceDecoded, this, &AttentionLab::updateActions);
    // The view follows the typed sentence and the chosen model, as the heatmap does.
    connect(m_inference, &InferencePanel::sentenceDecoded, this,
            [this] { m_wordRemoval->setSentence(m_inference->currentModel(), m_inference->text()); });
    // One sentence for both pages: typed on either, shown on both.
    connect(m_inference, &InferencePanel::sentenceDecoded, this,
            [this] { m_compare->setSentence(m_inference->text()); });
    connect(m_compare, &CompareView::sentenceEdited, m_inference, &InferencePanel::setText);
    connect(m_wordRemoval, &WordRemovalView::effectChanged, this, &AttentionLab::updateActions);
    connect(m_examples, &ExamplesTable::exampleChosen, m_inference, &InferencePanel::setText);
    connect(m_experiments, &ExperimentsPanel::runRequested, this, &AttentionLab::runExperiments);
    const auto followSettings = [this] {
        m_experiments->setBaseConfig(m_trainingPanel->modelConfig());
        const DatasetConfig dataset = m_datasetPanel->config();
        m_experiments->setTrainedRange(dataset.minLength, generatedMaxLength(dataset));
    };
    connect(m_datasetPanel, &DatasetPanel::configChanged, this, followSettings);
    connect(m_trainingPanel, &TrainingPanel::configChanged, this, followSettings);
    connect(m_experiments, &ExperimentsPanel::stopRequested, this, [this] {
        if (runState()->phase() == RunState::Phase::Comparing)
            this->workbench()->stopRun();
    });
    m_saveProjectAction = new QAction(tr("Save &Project…"), this);
    m_saveProjectAction->setStatusTip(tr("Save the run and the window as one .attnscope file: settings, corpus, "
                                         "every epoch, experiments, the sentence."));
    connect(m_saveProjectAction, &QAction::triggered, this, &AttentionLab::saveProjectWithDialog);
    connect(runState(), &RunState::changed, this, &AttentionLab::followRunState);
    connect(m_scrubber, &HistoryScrubber::epochShown, this, &AttentionLab::showHistoryEpoch);
    onResult(&AttentionLab::addEpoch);
    onResult(&AttentionLab::finishTraining);
    onResult(&AttentionLab::evaluationStarted);
    onResult(&AttentionLab::showEvaluation);
    onResult(&AttentionLab::startExperiment);
    onResult(&AttentionLab::addExperimentEpoch);
    onResult(&AttentionLab::finishExperiment);
    onResult(&AttentionLab::finishExperiments);
    followSettings();
    followRunState();
}

AttentionLab::~AttentionLab() = default;

QString AttentionLab::noAttentionToAlign()
{
    return tr("This model has no attention (variant none): there is no alignment to measure.");
}

QDockWidget *AttentionLab::dock(const QString &title, const QString &name, QWidget *widget)
{
    auto *dock = new QDockWidget(title);
    dock->setObjectName(name);
    dock->setWidget(widget);
    return dock;
}

QDockWidget *AttentionLab::createSetupDock()
{
    m_datasetPanel->setObjectName(QStringLiteral("datasetPanel"));
    m_trainingPanel->setObjectName(QStringLiteral("trainingPanel"));
    auto *tabs = new QTabWidget;
    tabs->setObjectName(QStringLiteral("setupTabs"));
    tabs->addTab(scrolledPanel(m_datasetPanel), tr("Dataset"));
    tabs->addTab(scrolledPanel(m_trainingPanel), tr("Model && Training"));
    tabs->setDocumentMode(true);

    auto *buttons = new QHBoxLayout;
    for (QAction *action : workbench()->runActions()) {
        auto *button = new QToolButton;
        button->setDefaultAction(action);
        button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        button->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
        buttons->addWidget(button);
    }
    auto *setup = new QWidget;
    auto *layout = new QVBoxLayout(setup);
    layout->setContentsMargins(0, 0, 0, 4);
    layout->addWidget(tabs, 1);
    layout->addLayout(buttons);
    return dock(tr("Setup"), QStringLiteral("setupDock"), setup);
}

QList<LabPage> AttentionLab::pages() const
{
    return {{tr("&Reverse"), m_reversePage}, {tr("E&xperiments"), m_experiments},
            {tr("C&ompare"), m_compare}, {tr("Fai&thfulness"), m_faithfulness},
            {tr("&Beams"), m_beams}};
}

QList<LabDock> AttentionLab::docks() const
{
    return {{m_setupDock, Qt::LeftDockWidgetArea},
            {m_lossDock, Qt::RightDockWidgetArea, nullptr, true},
            {m_alignmentDock, Qt::RightDockWidgetArea, m_lossDock},
            {m_embeddingDock, Qt::RightDockWidgetArea, nullptr, true},
            {m_examplesDock, Qt::RightDockWidgetArea, m_embeddingDock},
            {m_analysisDock, Qt::RightDockWidgetArea, m_examplesDock},
            {m_wordRemovalDock, Qt::RightDockWidgetArea, m_analysisDock},
            {m_attributionDock, Qt::RightDockWidgetArea, m_wordRemovalDock}};
}

QList<QAction *> AttentionLab::fileActions() const
{
    return {m_saveProjectAction};
}

QList<QAction *> AttentionLab::exportActions() const
{
    return m_exports->actions() + m_attributionExports->actions();
}

void AttentionLab::saveSettings(QSettings &settings) const
{
    m_datasetPanel->saveSettings(settings);
    m_trainingPanel->saveSettings(settings);
    settings.beginGroup(QStringLiteral("attentionLab"));
    settings.setValue(QStringLiteral("inferenceModel"), int(m_inference->choice()));
    settings.setValue(QStringLiteral("beamWidth"), m_inference->beamOptions().width);
    settings.setValue(QStringLiteral("beamAlpha"), m_inference->beamOptions().alpha);
    settings.setValue(QStringLiteral("knownAlignment"), m_inference->rightCellsShown());
    settings.setValue(QStringLiteral("embeddingSide"), int(m_embeddings->side()));
    settings.setValue(QStringLiteral("embeddingSplitter"), m_embeddings->saveState());
    settings.setValue(QStringLiteral("sentence"), m_inference->text());
    settings.setValue(QStringLiteral("heatmapMethod"),
                      QString::fromUtf8(attributionMethodName(m_methodHeatmap->method())));
    settings.endGroup();
}

void AttentionLab::restoreSettings(QSettings &settings)
{
    m_datasetPanel->restoreSettings(settings);
    m_trainingPanel->restoreSettings(settings);
    settings.beginGroup(QStringLiteral("attentionLab"));
    m_inference->setChoice(InferencePanel::Choice(
        settings.value(QStringLiteral("inferenceModel"), int(InferencePanel::Choice::Best)).toInt()));
    BeamOptions beam;
    beam.width = settings.value(QStringLiteral("beamWidth"), beam.width).toInt();
    beam.alpha = settings.value(QStringLiteral("beamAlpha"), beam.alpha).toDouble();
    m_inference->setBeamOptions(beam);
    m_inference->setRightCellsShown(settings.value(QStringLiteral("knownAlignment"), false).toBool());
    AttributionMethod method;
    if (!parseAttributionMethod(settings.value(QStringLiteral("heatmapMethod")).toString().toStdString(), &method))
        method = AttributionMethod::Attention;
    m_methodHeatmap->setMethod(method);
    m_embeddings->setSide(EmbeddingPanel::Side(
        settings.value(QStringLiteral("embeddingSide"), int(EmbeddingPanel::Side::Encoder)).toInt()));
    m_embeddings->restoreState(settings.value(QStringLiteral("embeddingSplitter")).toByteArray());
    // The last sentence, or an example: the first look at the window already shows a heatmap.
    // Selected, so typing replaces it.
    m_inference->setText(settings.value(QStringLiteral("sentence"), tr("the quick brown fox jumps over the lazy dog")).toString());
    m_inference->inputField()->selectAll();
    m_inference->inputField()->setFocus();
    settings.endGroup();
}

QString AttentionLab::trainProblem() const
{
    const QString problem = m_datasetPanel->problem();
    return problem.isEmpty() ? m_trainingPanel->problem() : problem;
}

void AttentionLab::followRunState()
{
    const bool idle = runState()->phase() == RunState::Phase::Idle;
    m_datasetPanel->setEnabled(idle);
    m_trainingPanel->setEnabled(idle);
    if (runState()->owner() == this && runState()->isTraining())
        m_inference->setNoModelMessage(tr("Training… the first model arrives when epoch 1 ends"),
                                       tr("Waiting for epoch 1…"));
    else
        m_inference->setNoModelMessage(tr("No model yet — press Train (F5)"), tr("No model yet — press Train (F5)"));
    updateActions();
}

void AttentionLab::updateActions()
{
    m_exports->setAvailable(m_inference->hasSentence(), m_loss->hasData(), m_alignment->epochCount() > 0,
                            m_latest != nullptr, m_wordRemoval->hasEffect(),
                            m_scrubber->replay() != nullptr && !runInProgress(),
                            !m_experiments->comparison()->runs().empty());
    m_saveProjectAction->setEnabled(m_best && m_trainingUsed && !runInProgress());
    m_beams->setCompareEnabled(m_best && runState()->isQuiet());
    updateAttributionActions();
    emit actionsChanged();
}

bool AttentionLab::runInProgress() const
{
    const RunState *run = runState();
    return run->owner() == this && (run->isTraining() || run->phase() == RunState::Phase::Comparing);
}

void AttentionLab::train()
{
    trainWith(m_datasetPanel->config(), m_trainingPanel->modelConfig(), m_trainingPanel->trainingConfig());
}

void AttentionLab::trainWith(const DatasetConfig &datasetConfig, const ModelConfig &modelConfig,
                             const TrainingConfig &trainingConfig)
{
    m_weightHistory.clear();
    m_scrubber->setEmptyMessage(tr("No history yet: each epoch of the run is kept here as it ends."));
    m_scrubber->setHistory(m_weightHistory, nullptr);
    m_compare->historyChanged(true);
    m_trainingUsed = trainingConfig;
    m_testReport.reset();
    m_threadsUsed = trainingThreads(trainingConfig);
    m_alignmentHistory.clear();
    // The text as it is now, when the run reads it: a project saved later keeps this, not a file
    // edited since. Unreadable, training itself says why.
    m_corpus = {};
    if (!datasetConfig.corpusPath.empty()) {
        try {
            m_corpus = projectfile::copyCorpus(datasetConfig.corpusPath, /*embed=*/true);
        } catch (const ProjectError &) {
        }
    }
    m_loss->start(trainingConfig.epochs, tr("Preparing the data…"));
    m_alignment->clear();
    m_examples->showMessage(tr("Training… the test set is scored when training ends."));
    m_embeddingDock->raise();  // it follows every epoch; the examples wait for the end
    m_analysis->clear();
    abandonFaithfulness();  // an opened model's measurement would hold the training back
    m_faithfulnessAwaited.reset();
    m_faithfulness->clearHistory();
    // Measuring takes about as long as an epoch of the default run: only while someone looks.
    m_faithfulnessWanted = std::make_shared<std::atomic<bool>>(m_faithfulness->isVisible());
    m_faithfulness->showMessage(*m_faithfulnessWanted
                                    ? tr("Training… the methods are measured as each epoch ends.")
                                    : tr("Training… the methods are measured after each epoch once this page is shown."));
    emit statusMessage(tr("Preparing the data…"));
    submit(attentionTrainingJob(datasetConfig, modelConfig, trainingConfig, m_faithfulnessWanted),
           RunState::Phase::Training);
}

void AttentionLab::jobStarted(const QString &description)
{
    m_loss->setMessage(description);
    if (runState()->phase() == RunState::Phase::Training)
        emit statusMessage(description);
}

void AttentionLab::jobBatch(const BatchProgress &progress)
{
    m_loss->addBatch(progress);
    updateActions();
}

void AttentionLab::addEpoch(const EpochTrained &epoch)
{
    m_loss->addEpoch(epoch.stats, epoch.isBest);
    if (epoch.alignment) {
        m_alignment->addEpoch(epoch.stats, *epoch.alignment);
        m_alignmentHistory.push_back({epoch.stats.epoch, *epoch.alignment});
    } else
        m_alignment->showMessage(noAttentionToAlign());
    if (!epoch.snapshot)
        return;
    m_weightHistory.add(*epoch.weights);
    m_compare->historyChanged(false);
    m_latest = epoch.snapshot;
    m_scrubber->setHistory(m_weightHistory, m_latest);
    m_inference->setLatestModel(epoch.snapshot, describeEpoch(epoch.stats));
    m_compare->setLatestModel(epoch.snapshot, describeEpoch(epoch.stats));
    if (epoch.isBest) {
        m_best = epoch.snapshot;
        m_beams->setSubject(tr("the best epoch so far (epoch %1)").arg(epoch.stats.epoch));
        m_inference->setBestModel(epoch.snapshot, describeEpoch(epoch.stats));
        m_compare->setBestModel(epoch.snapshot, describeEpoch(epoch.stats));
        document()->setUnsaved();
    }
    m_embeddings->setModel(epoch.snapshot, tr("Epoch %1").arg(epoch.stats.epoch));
    shareModel(epoch.snapshot, tr("the model of epoch %1").arg(epoch.stats.epoch));
    updateActions();
}

void AttentionLab::finishTraining(const TrainingFinished &finished)
{
    if (finished.best) {
        m_best = finished.best;
        m_beams->setSubject(tr("the trained model"));
        const std::vector<EpochStats> &history = finished.best->history;
        const auto it = std::find_if(history.begin(), history.end(),
                                     [&](const EpochStats &s) { return s.epoch == finished.outcome.bestEpoch; });
        const QString description =
            it != history.end() ? describeEpoch(*it) : describeModel(*finished.best, tr("Trained model"));
        m_inference->setBestModel(finished.best, description);
        m_compare->setBestModel(finished.best, description);
        document()->setUnsaved();
        // A run no one watched on the Faithfulness page leaves its model to measure there.
        if (!m_faithfulnessWanted || !*m_faithfulnessWanted)
            awaitFaithfulness(finished.best, tr("the trained model"));
    }
    runState()->setPhase(RunState::Phase::Evaluating);
    emit statusMessage(QString::fromStdString(finished.outcome.message));
    if (!finished.best)
        m_examples->showMessage(tr("No epoch completed, so there is no model to score."));
}

void AttentionLab::evaluationStarted(const EvaluationStarted &started)
{
    // Scoring of an opened model that was still queued when this lab began training is of no use now.
    if (runInProgress())
        return;
    m_examples->showMessage(tr("Scoring %1 test sentences…").arg(QLocale().toString(started.sentences)));
}

void AttentionLab::showEvaluation(const EvaluationFinished &evaluation)
{
    if (runInProgress())
        return;
    m_examples->setReport(evaluation.report, evaluation.lengths);
    m_testReport = evaluation.report;
    showMarkdown(m_analysis, evaluation.analysisMarkdown);
    if (!m_examplesDock->visibleRegion().isEmpty() || !m_embeddingDock->visibleRegion().isEmpty())
        m_examplesDock->raise();
    emit statusMessage(tr("Test set: exact match %1, token accuracy %2.")
                           .arg(percent(evaluation.report.exactMatch), percent(evaluation.report.tokenAccuracy)));
}

void AttentionLab::jobFailed(const QString &message)
{
    const bool mine = runState()->owner() == this;
    if (mine && runState()->phase() == RunState::Phase::Comparing) {
        finishExperiments({tr("Comparison failed: %1").arg(message)});
    } else if (mine && runState()->isTraining()) {
        m_loss->setMessage(tr("Training did not start."));
        m_examples->showMessage(tr("No evaluation: training did not run."));
        emit statusMessage(tr("Training failed."), 10000);
        QMessageBox::warning(m_inference->window(), tr("Cannot Train"), message);
    } else {
        m_examples->showMessage(tr("Cannot score this model: %1").arg(message));
        emit statusMessage(tr("Cannot score this model: %1").arg(message), 10000);
    }
}

void AttentionLab::setWeightHistory(WeightHistory history)
{
    m_weightHistory = std::move(history);
    m_scrubber->setHistory(m_weightHistory, m_latest);
    m_compare->historyChanged(true);
    updateActions();
}

void AttentionLab::showHistoryEpoch(int epoch)
{
    const std::shared_ptr<EpochReplay> replay = epoch > 0 ? m_scrubber->replay() : nullptr;
    try {
        m_inference->setReplayModel(replay ? replay->modelAt(epoch) : nullptr,
                                    tr("Epoch %1, from the run's history (half precision)").arg(epoch));
        m_embeddings->showReplay(replay, epoch);
        m_loss->plot()->setMarker(replay ? epoch : qQNaN());
    } catch (const std::exception &e) {  // a history whose weights do not fit the model
        emit statusMessage(tr("Cannot show epoch %1: %2").arg(epoch).arg(QString::fromStdString(e.what())), 10000);
        m_scrubber->showLatest();
    }
}

void AttentionLab::requestEvaluation(const ModelSnapshot &model)
{
    // The worker gets its own copy: the one shown here keeps decoding on this thread.
    m_examples->showMessage(tr("Scoring the test set…"));
    submit(attentionEvaluationJob(std::make_shared<const Seq2SeqModel>(model->clone())), RunState::Phase::Idle);
}

void AttentionLab::shareModel(const ModelSnapshot &model, const QString &description)
{
    SharedEmbeddings shared;
    shared.source = model.get();
    shared.table = [model] { return model->encoderEmbeddings(); };
    shared.lowercase = model->lowercase();
    shared.description = tr("the attention lab's encoder (%1)").arg(description);
    workbench()->shareEmbeddings(this, shared);
}
