#pragma once

#include "engine/attention/projectfile.h"
#include "engine/attention/weighthistory.h"
#include "ui/attention/metatypes.h"
#include "ui/workbench/document.h"
#include "ui/workbench/lab.h"

#include <QVector>

#include <optional>

class AlignmentPlot;
class AttentionExports;
class CompareView;
class DatasetPanel;
class EmbeddingPanel;
class ExamplesTable;
class ExperimentsPanel;
class HistoryScrubber;
class InferencePanel;
class LossPanel;
class MainWindow;
class QDockWidget;
class QTextBrowser;
class RunState;
class TrainingPanel;
class WordRemovalView;

// The attention lab: train the reversal model and look inside it. Its pages are the live inference
// view (Reverse), the variant experiments and the comparison of two models; its docks the setup, the loss curves, the alignment
// over training, the embeddings, the scored test examples, the attention analysis and what
// removing each word of the typed sentence does. The models it trains are the window's
// document. It asks for work through its signals; the results come back to its slots.
class AttentionLab : public Lab, public DocumentContent
{
    Q_OBJECT
public:
    explicit AttentionLab(MainWindow *window);
    ~AttentionLab() override;

    QList<LabPage> pages() const override;
    QList<LabDock> docks() const override;
    QList<QAction *> fileActions() const override;
    QList<QAction *> exportActions() const override;
    void saveSettings(QSettings &settings) const override;
    void restoreSettings(QSettings &settings) override;
    QString guide() const override;
    bool trains() const override { return true; }
    QString trainProblem() const override;
    void train() override;

    // A path ending in .attnscope is a project (projectfile.h): the run and the window as they
    // are; any other a checkpoint of the best model. Open tells them apart by their first bytes.
    QString fileFilter() const override;
    QString openFilter() const override;
    QString defaultSuffix() const override { return QStringLiteral("ckpt"); }
    bool hasContent() const override { return m_best != nullptr; }
    bool open(const QString &path, QString *error) override;
    bool save(const QString &path, QString *error) override;
    // File ▸ Save Project…: asks whether to embed the corpus text (when there is a corpus), then
    // where to save.
    void saveProjectWithDialog();
    QAction *saveProjectAction() const { return m_saveProjectAction; }
    // Whether a project saved now embeds the corpus text (the default) or only its checksum.
    void setEmbedCorpus(bool embed) { m_embedCorpus = embed; }
    bool loadBundledModel();  // :/models/default.ckpt, when the application bundles one

    ModelSnapshot bestModel() const { return m_best; }
    ModelSnapshot latestModel() const { return m_latest; }
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
    const WeightHistory &weightHistory() const { return m_weightHistory; }
    // Replaces the run's history (e.g. from a project file); its epochs must fit the model shown.
    void setWeightHistory(WeightHistory history);
    HistoryScrubber *historyScrubber() const { return m_scrubber; }

signals:
    void trainRequested(const DatasetConfig &datasetConfig, const ModelConfig &modelConfig,
                        const TrainingConfig &trainingConfig);
    void evaluationRequested(const ModelSnapshot &privateCopy);
    // Train each of `runs` in turn on the dataset and training settings of the setup panels.
    void experimentsRequested(const DatasetConfig &datasetConfig, const TrainingConfig &trainingConfig,
                              const QVector<ExperimentRun> &runs, int probeMaxLength);
    // The model the lab shows now, for the labs that look at it too.
    void modelChanged(const ModelSnapshot &model, const QString &description);

public slots:
    void trainingStarted(const QString &description);
    void showBatch(const BatchProgress &progress);
    void handleResult(const QVariant &result);
    void showFailure(const QString &message);

private:
    QDockWidget *createSetupDock(MainWindow *window);
    QDockWidget *dock(const QString &title, const QString &name, QWidget *widget, MainWindow *window);
    void followRunState();
    void updateActions();
    // This lab's training or Experiments queue is running: the run is not whole yet.
    bool runInProgress() const;
    void runExperiments(const QVector<ModelConfig> &configs, int probeMaxLength, int seeds);
    void addExperimentModel(const ExperimentFinished &finished);
    void useLoadedModel(const ModelSnapshot &model, const QString &origin, const QString &corpusProblem = {});
    void requestEvaluation(const ModelSnapshot &model);
    AttentionProject project() const;
    void showProject(const AttentionProject &project, const QString &origin);
    void showHistoryEpoch(int epoch);

    void addEpoch(const EpochTrained &epoch);
    void finishTraining(const TrainingFinished &finished);
    void evaluationStarted(const EvaluationStarted &started);
    void showEvaluation(const EvaluationFinished &evaluation);
    void finishExperiments(const ExperimentsFinished &finished);

    RunState *m_run;
    Document *m_document;
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
    int m_threadsUsed = 1;
    std::vector<EpochAlignment> m_alignmentHistory;
    CorpusCopy m_corpus;  // the corpus as the run read it (at Train, or an opened project's)
    bool m_embedCorpus = true;
    QVector<ExperimentRun> m_experimentRuns;  // of the queue running or last run
    WeightHistory m_weightHistory;
};
