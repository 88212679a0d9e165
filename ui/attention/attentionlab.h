#pragma once

#include "engine/attention/projectfile.h"
#include "engine/attention/weighthistory.h"
#include "ui/attention/metatypes.h"
#include "ui/workbench/document.h"
#include "ui/workbench/lab.h"

#include <QVector>

#include <atomic>
#include <memory>
#include <optional>

class AlignmentPlot;
class AttentionExports;
class AttributionExports;
class AttributionSource;
class BeamSearchPage;
class FaithfulnessPage;
struct BeamCompared;
struct BeamProgress;
class MethodHeatmap;
class RowAttributionView;
class StepScoresTable;
class CompareView;
class DatasetPanel;
class EmbeddingPanel;
class ExamplesTable;
class ExperimentsPanel;
class HistoryScrubber;
class InferencePanel;
class LossPanel;
class QDockWidget;
class QTextBrowser;
class TrainingPanel;
class WordRemovalView;

// The attention lab: train the reversal model and look inside it. Its pages are the live inference
// view (Reverse), the variant experiments and the comparison of two models; its docks the setup, the loss curves, the alignment
// over training, the embeddings, the scored test examples, the attention analysis and what
// removing each word of the typed sentence does. Its document is the model it trains, or the whole
// run as a project.
class AttentionLab : public Lab, public DocumentContent
{
    Q_OBJECT
public:
    explicit AttentionLab(Workbench *workbench);
    ~AttentionLab() override;

    QList<LabPage> pages() const override;
    QList<LabDock> docks() const override;
    QList<QAction *> fileActions() const override;
    QList<QAction *> exportActions() const override;
    DocumentContent *documentContent() override { return this; }
    void saveSettings(QSettings &settings) const override;
    void restoreSettings(QSettings &settings) override;
    bool trains() const override { return true; }
    QString trainProblem() const override;
    void train() override;  // with the setup panels' settings
    void trainWith(const DatasetConfig &datasetConfig, const ModelConfig &modelConfig,
                   const TrainingConfig &trainingConfig);
    void jobStarted(const QString &description) override;
    void jobBatch(const BatchProgress &progress) override;
    void jobFailed(const QString &message) override;
    // A Transformer run (or any other lab's) joins this lab's Experiments runs side by side.
    void takeRun(const SharedRun &run) override;
    // Another lab's model (the Transformer's), offered on either side of the Compare page.
    void takeDecoder(const SharedDecoder &decoder) override;

    // A project (projectfile.h, .attnscope): the run and the window as they are; a model (.ckpt): a
    // checkpoint of the best model. The file type says which.
    QString documentName() const override { return tr("Model"); }
    bool hasContent() const override { return m_best != nullptr; }
    bool open(const QString &path, const FileType &type, QString *error) override;
    bool save(const QString &path, const FileType &type, QString *error) override;
    // File ▸ Save Project…: asks whether to embed the corpus text (when there is a corpus), then
    // where to save.
    void saveProjectWithDialog();
    QAction *saveProjectAction() const { return m_saveProjectAction; }
    // Whether a project saved now embeds the corpus text (the default) or only its checksum.
    void setEmbedCorpus(bool embed) { m_embedCorpus = embed; }
    bool loadBundledModel();  // :/models/default.ckpt, when the application bundles one

    ModelSnapshot bestModel() const { return m_best; }
    ModelSnapshot latestModel() const { return m_latest; }
    // The settings the best model trained with; none for a model opened from a checkpoint.
    const std::optional<TrainingConfig> &trainingUsed() const { return m_trainingUsed; }
    // The best model's scores on the test split, once scored.
    const std::optional<EvaluationReport> &testReport() const { return m_testReport; }
    DatasetPanel *datasetPanel() const { return m_datasetPanel; }
    TrainingPanel *trainingPanel() const { return m_trainingPanel; }
    InferencePanel *inferencePanel() const { return m_inference; }
    ExperimentsPanel *experimentsPanel() const { return m_experiments; }
    CompareView *compareView() const { return m_compare; }
    LossPanel *lossPanel() const { return m_loss; }
    AlignmentPlot *alignmentPlot() const { return m_alignment; }
    EmbeddingPanel *embeddingPanel() const { return m_embeddings; }
    ExamplesTable *examplesTable() const { return m_examples; }
    QTextBrowser *analysisView() const { return m_analysis; }
    WordRemovalView *wordRemovalView() const { return m_wordRemoval; }
    QDockWidget *wordRemovalDock() const { return m_wordRemovalDock; }
    AttentionExports *exports() const { return m_exports; }
    AttributionSource *attributionSource() const { return m_attributionSource; }
    MethodHeatmap *methodHeatmap() const { return m_methodHeatmap; }
    StepScoresTable *stepScores() const { return m_stepScores; }
    RowAttributionView *rowAttributionView() const { return m_rowAttribution; }
    QDockWidget *attributionDock() const { return m_attributionDock; }
    FaithfulnessPage *faithfulnessPage() const { return m_faithfulness; }
    BeamSearchPage *beamSearchPage() const { return m_beams; }
    const WeightHistory &weightHistory() const { return m_weightHistory; }
    // Replaces the run's history (e.g. from a project file); its epochs must fit the model shown.
    void setWeightHistory(WeightHistory history);
    HistoryScrubber *historyScrubber() const { return m_scrubber; }
    // The runs of the Experiments queue running or last run, in order.
    const QVector<ExperimentRun> &queuedRuns() const { return m_experimentRuns; }

private:
    static QString noAttentionToAlign();
    QDockWidget *createSetupDock();
    QDockWidget *dock(const QString &title, const QString &name, QWidget *widget);
    void followRunState();
    void updateActions();
    // This lab's training or Experiments queue is running: the run is not whole yet.
    bool runInProgress() const;
    void runExperiments(const QVector<ModelConfig> &configs, int probeMaxLength, int seeds);
    void addExperimentModel(const ExperimentFinished &finished);
    void shareExperiment(const ExperimentFinished &finished);  // with the other labs (Workbench::shareRun)
    void useLoadedModel(const ModelSnapshot &model, const QString &origin, const QString &corpusProblem = {});
    void requestEvaluation(const ModelSnapshot &model);
    // The attribution views (attentionlabattribution.cpp): the method switch and step scores on the
    // Reverse page, the clicked row's methods in a dock, the Faithfulness page.
    void createAttributionViews();
    // `model` is measured when the Faithfulness page is next shown (at once if it is).
    void awaitFaithfulness(const ModelSnapshot &model, const QString &subject);
    void measureAwaitedFaithfulness();
    void faithfulnessPageShown();
    void abandonFaithfulness();  // of an opened model, queued or under way
    void showFaithfulnessProblem(const QString &message);
    void showFaithfulnessProgress(const FaithfulnessProgress &progress);
    void showFaithfulness(const FaithfulnessMeasured &measured);
    void updateAttributionActions();
    // The Beam Search page (attentionlabbeams.cpp): greedy against beam search on the test split.
    void createBeamPage();
    void compareBeams();
    void showBeamProgress(const BeamProgress &progress);
    void showBeamComparison(const BeamCompared &compared);
    void shareModel(const ModelSnapshot &model, const QString &description);  // with the other labs
    AttentionProject project() const;
    void showProject(const AttentionProject &project, const QString &origin);
    void showHistoryEpoch(int epoch);

    void addEpoch(const EpochTrained &epoch);
    void finishTraining(const TrainingFinished &finished);
    void evaluationStarted(const EvaluationStarted &started);
    void showEvaluation(const EvaluationFinished &evaluation);
    void startExperiment(const ExperimentStarted &started);
    void addExperimentEpoch(const ExperimentEpoch &epoch);
    void finishExperiment(const ExperimentFinished &finished);
    void finishExperiments(const ExperimentsFinished &finished);

    DatasetPanel *m_datasetPanel;
    TrainingPanel *m_trainingPanel;
    InferencePanel *m_inference;
    HistoryScrubber *m_scrubber;
    QWidget *m_reversePage;
    ExperimentsPanel *m_experiments;
    CompareView *m_compare;
    LossPanel *m_loss;
    AlignmentPlot *m_alignment;
    EmbeddingPanel *m_embeddings;
    ExamplesTable *m_examples;
    QTextBrowser *m_analysis;
    WordRemovalView *m_wordRemoval;
    AttentionExports *m_exports;
    AttributionSource *m_attributionSource = nullptr;
    MethodHeatmap *m_methodHeatmap = nullptr;
    StepScoresTable *m_stepScores = nullptr;
    RowAttributionView *m_rowAttribution = nullptr;
    FaithfulnessPage *m_faithfulness = nullptr;
    BeamSearchPage *m_beams = nullptr;
    std::shared_ptr<std::atomic<bool>> m_faithfulnessAbandoned;  // of the opened model's measurement
    ModelSnapshot m_faithfulnessAwaited;                          // measured when the page is shown
    std::shared_ptr<std::atomic<bool>> m_faithfulnessWanted;      // the run measures each epoch
    AttributionExports *m_attributionExports = nullptr;
    QDockWidget *m_attributionDock = nullptr;
    QDockWidget *m_setupDock;
    QDockWidget *m_lossDock;
    QDockWidget *m_alignmentDock;
    QDockWidget *m_embeddingDock;
    QDockWidget *m_examplesDock;
    QDockWidget *m_analysisDock;
    QDockWidget *m_wordRemovalDock;
    QAction *m_saveProjectAction;

    ModelSnapshot m_best;
    ModelSnapshot m_latest;
    // What a project keeps beside the models: the run's settings, alignment and corpus.
    std::optional<TrainingConfig> m_trainingUsed;  // none for a model opened from a checkpoint
    std::optional<EvaluationReport> m_testReport;
    int m_threadsUsed = 1;
    std::vector<EpochAlignment> m_alignmentHistory;
    CorpusCopy m_corpus;  // the corpus as the run read it (at Train, or an opened project's)
    bool m_embedCorpus = true;
    QVector<ExperimentRun> m_experimentRuns;  // of the queue running or last run
    DatasetConfig m_experimentData;           // what they train on
    WeightHistory m_weightHistory;
};
