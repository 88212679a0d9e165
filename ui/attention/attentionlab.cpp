#include "ui/attention/attentionlab.h"

#include "ui/attention/alignmentplot.h"
#include "ui/attention/attentionexports.h"
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
#include "engine/attention/corpusdefaults.h"
#include "engine/attention/epochreplay.h"
#include "ui/core/guidepane.h"
#include "ui/core/lossplot.h"
#include "ui/core/markdownview.h"
#include "ui/workbench/mainwindow.h"

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

namespace {

QScrollArea *scrolled(QWidget *widget)
{
    auto *area = new QScrollArea;
    area->setWidget(widget);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    return area;
}

QString noAttentionToAlign()
{
    return QCoreApplication::translate("AttentionLab", "This model has no attention (variant none): there is no "
                                                       "alignment to measure.");
}

}

AttentionLab::AttentionLab(MainWindow *window)
    // Pages and docks are the window's children from the start; addLab() places them.
    : Lab(window), m_run(window->runState()), m_document(window->document()), m_datasetPanel(new DatasetPanel),
      m_trainingPanel(new TrainingPanel), m_inference(new InferencePanel(window)),
      m_scrubber(new HistoryScrubber), m_reversePage(new QWidget(window)),
      m_experiments(new ExperimentsPanel(window)),
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
    m_exports = new AttentionExports(window, m_inference, m_loss->plot(), m_alignment, m_embeddings,
                                     m_wordRemoval->plot(), m_scrubber, this);
    m_scrubber->setObjectName(QStringLiteral("historyScrubber"));
    m_reversePage->setObjectName(QStringLiteral("reversePage"));
    auto *reverseLayout = new QVBoxLayout(m_reversePage);
    reverseLayout->setContentsMargins(0, 0, 0, 0);
    reverseLayout->setSpacing(0);
    reverseLayout->addWidget(m_inference, 1);
    reverseLayout->addWidget(m_scrubber);
    // The scrubber has no margins of its own: it lines up with the panel's contents above it.
    const QMargins margins = m_inference->layout()->contentsMargins();
    m_scrubber->layout()->setContentsMargins(margins.left(), 0, margins.right(), margins.bottom());

    m_setupDock = createSetupDock(window);
    m_lossDock = dock(tr("Loss"), QStringLiteral("lossDock"), m_loss, window);
    m_alignmentDock = dock(tr("Alignment"), QStringLiteral("alignmentDock"), m_alignment, window);
    m_embeddingDock = dock(tr("Embeddings"), QStringLiteral("embeddingDock"), m_embeddings, window);
    m_examplesDock = dock(tr("Test Examples"), QStringLiteral("examplesDock"), m_examples, window);
    m_analysisDock = dock(tr("Attention Analysis"), QStringLiteral("analysisDock"), m_analysis, window);
    m_wordRemovalDock = dock(tr("Word Removal"), QStringLiteral("wordRemovalDock"), m_wordRemoval, window);
    m_document->setContent(this);
    // Here, not in the initialiser list: it reads the history, the last member to be built.
    m_compare = new CompareView(m_weightHistory, window);
    m_compare->setObjectName(QStringLiteral("compareView"));

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
    connect(m_experiments, &ExperimentsPanel::stopRequested, window, [this, window] {
        if (m_run->phase() == RunState::Phase::Comparing)
            emit window->stopRequested();
    });
    m_saveProjectAction = new QAction(tr("Save &Project…"), this);
    m_saveProjectAction->setStatusTip(tr("Save the run and the window as one .attnscope file: settings, corpus, "
                                         "every epoch, experiments, the sentence."));
    connect(m_saveProjectAction, &QAction::triggered, this, &AttentionLab::saveProjectWithDialog);
    connect(m_run, &RunState::changed, this, &AttentionLab::followRunState);
    connect(m_scrubber, &HistoryScrubber::epochShown, this, &AttentionLab::showHistoryEpoch);
    followSettings();
    followRunState();
}

AttentionLab::~AttentionLab() = default;

QDockWidget *AttentionLab::dock(const QString &title, const QString &name, QWidget *widget, MainWindow *window)
{
    auto *dock = new QDockWidget(title, window);
    dock->setObjectName(name);
    dock->setWidget(widget);
    return dock;
}

QDockWidget *AttentionLab::createSetupDock(MainWindow *window)
{
    m_datasetPanel->setObjectName(QStringLiteral("datasetPanel"));
    m_trainingPanel->setObjectName(QStringLiteral("trainingPanel"));
    auto *tabs = new QTabWidget;
    tabs->setObjectName(QStringLiteral("setupTabs"));
    tabs->addTab(scrolled(m_datasetPanel), tr("Dataset"));
    tabs->addTab(scrolled(m_trainingPanel), tr("Model && Training"));
    tabs->setDocumentMode(true);

    auto *buttons = new QHBoxLayout;
    for (QAction *action : window->runActions()) {
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
    return dock(tr("Setup"), QStringLiteral("setupDock"), setup, window);
}

QList<LabPage> AttentionLab::pages() const
{
    return {{tr("&Reverse Sentences"), m_reversePage}, {tr("E&xperiments"), m_experiments},
            {tr("C&ompare Models"), m_compare}};
}

QList<LabDock> AttentionLab::docks() const
{
    return {{m_setupDock, Qt::LeftDockWidgetArea},
            {m_lossDock, Qt::RightDockWidgetArea, nullptr, true},
            {m_alignmentDock, Qt::RightDockWidgetArea, m_lossDock},
            {m_embeddingDock, Qt::RightDockWidgetArea, nullptr, true},
            {m_examplesDock, Qt::RightDockWidgetArea, m_embeddingDock},
            {m_analysisDock, Qt::RightDockWidgetArea, m_examplesDock},
            {m_wordRemovalDock, Qt::RightDockWidgetArea, m_analysisDock}};
}

QList<QAction *> AttentionLab::fileActions() const
{
    return {m_saveProjectAction};
}

QList<QAction *> AttentionLab::exportActions() const
{
    return m_exports->actions();
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

QString AttentionLab::guide() const
{
    return GuidePane::read(QStringLiteral("attention"));
}

QString AttentionLab::trainProblem() const
{
    const QString problem = m_datasetPanel->problem();
    return problem.isEmpty() ? m_trainingPanel->problem() : problem;
}

void AttentionLab::followRunState()
{
    const bool idle = m_run->phase() == RunState::Phase::Idle;
    m_datasetPanel->setEnabled(idle);
    m_trainingPanel->setEnabled(idle);
    if (m_run->isTraining())
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
                            m_scrubber->replay() != nullptr && !runInProgress());
    m_saveProjectAction->setEnabled(m_best && m_trainingUsed && !runInProgress());
    emit actionsChanged();
}

bool AttentionLab::runInProgress() const
{
    return m_run->owner() == this && (m_run->isTraining() || m_run->phase() == RunState::Phase::Comparing);
}

void AttentionLab::train()
{
    m_weightHistory.clear();
    m_scrubber->setEmptyMessage(tr("No history yet: each epoch of the run is kept here as it ends."));
    m_scrubber->setHistory(m_weightHistory, nullptr);
    m_compare->historyChanged(true);
    const TrainingConfig trainingConfig = m_trainingPanel->trainingConfig();
    m_trainingUsed = trainingConfig;
    m_threadsUsed = trainingThreads(trainingConfig);
    m_alignmentHistory.clear();
    // The text as it is now, when the run reads it: a project saved later keeps this, not a file
    // edited since. Unreadable, training itself says why.
    m_corpus = {};
    if (const std::string corpus = m_datasetPanel->config().corpusPath; !corpus.empty()) {
        try {
            m_corpus = projectfile::copyCorpus(corpus, /*embed=*/true);
        } catch (const ProjectError &) {
        }
    }
    m_loss->start(trainingConfig.epochs, tr("Preparing the data…"));
    m_alignment->clear();
    m_examples->showMessage(tr("Training… the test set is scored when training ends."));
    m_embeddingDock->raise();  // it follows every epoch; the examples wait for the end
    m_analysis->clear();
    m_run->submitted(this, RunState::Phase::Training);
    emit statusMessage(tr("Preparing the data…"));
    emit trainRequested(m_datasetPanel->config(), m_trainingPanel->modelConfig(), trainingConfig);
}

void AttentionLab::runExperiments(const QVector<ModelConfig> &configs, int probeMaxLength, int seeds)
{
    const DatasetConfig dataset = m_datasetPanel->config();
    QString problem = m_run->phase() != RunState::Phase::Idle ? tr("wait until the current work ends") : trainProblem();
    if (problem.isEmpty() && !dataset.corpusPath.empty())
        problem = tr("experiments generate their sentences so they can probe any length; choose the synthetic dataset");
    if (!problem.isEmpty()) {
        m_experiments->queueFinished(tr("Cannot run: %1.").arg(problem));
        return;
    }
    m_experiments->setTrainedRange(dataset.minLength, generatedMaxLength(dataset));
    const TrainingConfig training = m_trainingPanel->trainingConfig();
    const std::vector<ExperimentRun> runs =
        experimentRuns(std::vector<ModelConfig>(configs.begin(), configs.end()), training.seed, seeds);
    m_experimentRuns = QVector<ExperimentRun>(runs.begin(), runs.end());
    m_compare->clearExperimentModels();
    m_run->submitted(this, RunState::Phase::Comparing);
    emit statusMessage(tr("Comparing %n configuration(s)…", nullptr, int(configs.size())));
    emit experimentsRequested(dataset, training, m_experimentRuns, probeMaxLength);
}

void AttentionLab::trainingStarted(const QString &description)
{
    if (m_run->owner() != this || !m_run->isTraining())
        return;
    m_loss->setMessage(description);
    if (m_run->phase() == RunState::Phase::Training)
        emit statusMessage(description);
}

void AttentionLab::showBatch(const BatchProgress &progress)
{
    if (m_run->owner() != this || !m_run->isTraining())
        return;
    m_loss->addBatch(progress);
    updateActions();
}

void AttentionLab::handleResult(const QVariant &result)
{
    const QMetaType type = result.metaType();
    if (type == QMetaType::fromType<EpochTrained>())
        addEpoch(result.value<EpochTrained>());
    else if (type == QMetaType::fromType<TrainingFinished>())
        finishTraining(result.value<TrainingFinished>());
    else if (type == QMetaType::fromType<EvaluationStarted>())
        evaluationStarted(result.value<EvaluationStarted>());
    else if (type == QMetaType::fromType<EvaluationFinished>())
        showEvaluation(result.value<EvaluationFinished>());
    else if (type == QMetaType::fromType<ExperimentStarted>()) {
        const auto started = result.value<ExperimentStarted>();
        m_experiments->runStarted(started.index, started.seed);
    } else if (type == QMetaType::fromType<ExperimentEpoch>())
        m_experiments->addEpoch(result.value<ExperimentEpoch>().index, result.value<ExperimentEpoch>().stats);
    else if (type == QMetaType::fromType<ExperimentFinished>()) {
        const auto finished = result.value<ExperimentFinished>();
        m_experiments->runFinished(finished.index, finished.testExactMatch, finished.probe);
        addExperimentModel(finished);
    } else if (type == QMetaType::fromType<ExperimentsFinished>())
        finishExperiments(result.value<ExperimentsFinished>());
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
    m_weightHistory.add(epoch.stats.epoch, *epoch.snapshot);
    m_compare->historyChanged(false);
    m_latest = epoch.snapshot;
    m_scrubber->setHistory(m_weightHistory, m_latest);
    m_inference->setLatestModel(epoch.snapshot, describeEpoch(epoch.stats));
    m_compare->setLatestModel(epoch.snapshot, describeEpoch(epoch.stats));
    if (epoch.isBest) {
        m_best = epoch.snapshot;
        m_inference->setBestModel(epoch.snapshot, describeEpoch(epoch.stats));
        m_compare->setBestModel(epoch.snapshot, describeEpoch(epoch.stats));
        m_document->setUnsaved();
    }
    m_embeddings->setModel(epoch.snapshot, tr("Epoch %1").arg(epoch.stats.epoch));
    emit modelChanged(epoch.snapshot, tr("epoch %1").arg(epoch.stats.epoch));
    updateActions();
}

void AttentionLab::finishTraining(const TrainingFinished &finished)
{
    if (finished.best) {
        m_best = finished.best;
        const std::vector<EpochStats> &history = finished.best->history;
        const auto it = std::find_if(history.begin(), history.end(),
                                     [&](const EpochStats &s) { return s.epoch == finished.outcome.bestEpoch; });
        const QString description =
            it != history.end() ? describeEpoch(*it) : describeModel(*finished.best, tr("Trained model"));
        m_inference->setBestModel(finished.best, description);
        m_compare->setBestModel(finished.best, description);
        m_document->setUnsaved();
    }
    m_run->setPhase(RunState::Phase::Evaluating);
    emit statusMessage(QString::fromStdString(finished.outcome.message));
    if (!finished.best)
        m_examples->showMessage(tr("No epoch completed, so there is no model to score."));
}

void AttentionLab::evaluationStarted(const EvaluationStarted &started)
{
    // Scoring of an opened model that was still queued when training began belongs to no one now.
    if (m_run->isTraining())
        return;
    m_examples->showMessage(tr("Scoring %1 test sentences…").arg(QLocale().toString(started.sentences)));
}

void AttentionLab::showEvaluation(const EvaluationFinished &evaluation)
{
    if (m_run->isTraining())
        return;
    m_examples->setReport(evaluation.report);
    showMarkdown(m_analysis, evaluation.analysisMarkdown);
    if (!m_examplesDock->visibleRegion().isEmpty() || !m_embeddingDock->visibleRegion().isEmpty())
        m_examplesDock->raise();
    emit statusMessage(tr("Test set: exact match %1, token accuracy %2.")
                           .arg(percent(evaluation.report.exactMatch), percent(evaluation.report.tokenAccuracy)));
}

void AttentionLab::addExperimentModel(const ExperimentFinished &finished)
{
    if (!finished.best || finished.index < 0 || finished.index >= m_experimentRuns.size())
        return;
    const ExperimentRun &run = m_experimentRuns[finished.index];
    m_compare->addExperimentModel(tr("run %1, %2, seed %3")
                                      .arg(finished.index + 1)
                                      .arg(ExperimentsPanel::labelOf(run.model))
                                      .arg(run.modelSeed),
                                  finished.best);
}

void AttentionLab::finishExperiments(const ExperimentsFinished &finished)
{
    m_experiments->queueFinished(finished.message);
    emit statusMessage(finished.message, 10000);
}

void AttentionLab::showFailure(const QString &message)
{
    if (m_run->owner() != this)
        return;
    if (m_run->phase() == RunState::Phase::Comparing) {
        finishExperiments({tr("Comparison failed: %1").arg(message)});
    } else if (m_run->isTraining()) {
        m_loss->setMessage(tr("Training did not start."));
        m_examples->showMessage(tr("No evaluation: training did not run."));
        emit statusMessage(tr("Training failed."), 10000);
        QMessageBox::warning(m_inference->window(), tr("Cannot Train"), message);
    } else {
        m_examples->showMessage(tr("Cannot score this model: %1").arg(message));
        emit statusMessage(tr("Cannot score this model: %1").arg(message), 10000);
    }
}

void AttentionLab::useLoadedModel(const ModelSnapshot &model, const QString &origin, const QString &corpusProblem)
{
    m_weightHistory.clear();
    m_scrubber->setEmptyMessage(tr("No history: a model file keeps none. Train to replay a run."));
    m_scrubber->setHistory(m_weightHistory, model);
    m_compare->historyChanged(true);
    m_best = m_latest = model;
    m_trainingUsed.reset();
    m_compare->clearExperimentModels();
    m_alignmentHistory.clear();
    m_corpus = {};
    m_inference->setModel(model, describeModel(*model, origin));
    m_compare->setBestModel(model, describeModel(*model, origin));
    m_compare->setLatestModel(model, describeModel(*model, origin));
    m_embeddings->setModel(model, origin);
    emit modelChanged(model, origin);
    m_loss->setHistory(model->history);
    m_alignment->showMessage(model->hasAttention()
                                 ? tr("Alignment is measured while a model trains; a model file does not keep it.")
                                 : noAttentionToAlign());
    m_analysis->clear();
    // The test set comes from the corpus file: one that is not as the model saw it has another.
    if (corpusProblem.isEmpty())
        requestEvaluation(model);
    else
        m_examples->showMessage(tr("The test set is not scored: %1.").arg(corpusProblem));
    updateActions();
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
    m_run->submitted(this, RunState::Phase::Idle);
    emit evaluationRequested(std::make_shared<const Seq2SeqModel>(model->clone()));
}
