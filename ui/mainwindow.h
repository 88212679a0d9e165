#pragma once

#include "ui/attention/metatypes.h"

#include <QElapsedTimer>
#include <QMainWindow>
#include <QString>
#include <QVector>

class DatasetPanel;
class EmbeddingPanel;
class ExamplesTable;
class ExperimentsPanel;
class InferencePanel;
class LossPlot;
class QAction;
class QCloseEvent;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QSettings;
class QTabWidget;
class QTextBrowser;
class SelfAttentionPanel;
class TrainingPanel;

// AttnScope's window: dataset and training settings on the left, live inference with the
// attention heatmap in the middle, loss, embeddings, test examples and analysis in docks.
// It knows nothing of threads: it asks for work through signals and shows what comes back.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    enum class State { Idle, Training, Paused, Stopping, Evaluating, Comparing };

    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // No dialogs: failures are reported through `error` and leave the model in memory untouched.
    bool loadModelFile(const QString &path, QString *error = nullptr);
    bool saveModelFile(const QString &path, QString *error = nullptr);
    bool loadBundledModel();  // :/models/default.ckpt, when the application bundles one

    State state() const { return m_state; }
    bool isTraining() const;
    ModelSnapshot bestModel() const { return m_best; }
    ModelSnapshot latestModel() const { return m_latest; }

    DatasetPanel *datasetPanel() const { return m_datasetPanel; }
    TrainingPanel *trainingPanel() const { return m_trainingPanel; }
    InferencePanel *inferencePanel() const { return m_inference; }
    SelfAttentionPanel *selfAttentionPanel() const { return m_selfAttention; }
    ExperimentsPanel *experimentsPanel() const { return m_experiments; }
    QTabWidget *centralTabs() const { return m_centralTabs; }
    LossPlot *lossPlot() const { return m_lossPlot; }
    EmbeddingPanel *embeddingPanel() const { return m_embeddings; }
    ExamplesTable *examplesTable() const { return m_examples; }
    QTextBrowser *analysisView() const { return m_analysis; }
    QAction *trainAction() const { return m_trainAction; }
    QAction *pauseAction() const { return m_pauseAction; }
    QAction *resumeAction() const { return m_resumeAction; }
    QAction *stopAction() const { return m_stopAction; }
    QAction *saveAction() const { return m_saveAction; }
    QAction *exportHeatmapAction() const { return m_exportHeatmapAction; }

signals:
    void trainRequested(const DatasetConfig &datasetConfig, const ModelConfig &modelConfig,
                        const TrainingConfig &trainingConfig);
    void evaluationRequested(const ModelSnapshot &privateCopy);
    void pauseRequested();
    void resumeRequested();
    void stopRequested();
    // Train each of `configs` in turn on the dataset and training settings of the side panels.
    void experimentsRequested(const DatasetConfig &datasetConfig, const TrainingConfig &trainingConfig,
                              const QVector<ModelConfig> &configs, int probeMaxLength);
    void closed();  // the window accepted a close: background work should end now

public slots:
    void trainingStarted(int epochs, qint64 parameters, int vocabularySize, int trainSentences);
    void showBatch(const BatchProgress &progress);
    void setPaused(bool paused);
    void addEpoch(const EpochStats &stats, bool isBest, const ModelSnapshot &snapshot);
    void finishTraining(const TrainingOutcome &outcome, const ModelSnapshot &best);
    void evaluationStarted(int sentences);
    void showEvaluation(const EvaluationReport &report, const QString &analysisMarkdown);
    void showEvaluationError(const QString &message);
    void showTrainingError(const QString &message);
    void workerIdle();
    void finishExperiments(const QString &message);

    void train();
    void pause();
    void resume();
    void stop();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
    void createMenus();
    void createDocks();
    void createStatusBar();
    void applyDefaultSizes();
    void readSettings();
    void writeSettings() const;
    void resetLayout();
    void setState(State state);
    void updateActions();
    void setCurrentFile(const QString &path);
    void addRecentFile(const QString &path);
    void updateRecentMenu();
    void runExperiments(const QVector<ModelConfig> &configs, int probeMaxLength);
    void useLoadedModel(const ModelSnapshot &model, const QString &origin);
    void requestEvaluation(const ModelSnapshot &model);

    void openModel();
    void openRecent(const QString &path);
    bool save();
    bool saveAs();
    bool maybeSave();
    void exportHeatmap();
    void exportHeatmapCsv();
    void exportLossPlot();
    void exportLossCsv();
    void exportEmbeddings();
    void about();

    QString askExportPath(const QString &title, const QString &defaultName, const QString &filters);
    void reportExport(bool ok, const QString &path, const QString &error);
    void updateLossSummary();
    void updateEta(const BatchProgress &progress);

    DatasetPanel *m_datasetPanel;
    TrainingPanel *m_trainingPanel;
    InferencePanel *m_inference;
    SelfAttentionPanel *m_selfAttention;
    ExperimentsPanel *m_experiments;
    QTabWidget *m_centralTabs;
    LossPlot *m_lossPlot;
    QLabel *m_lossSummary;
    EmbeddingPanel *m_embeddings;
    ExamplesTable *m_examples;
    QTextBrowser *m_analysis;

    QDockWidget *m_setupDock;
    QDockWidget *m_lossDock;
    QDockWidget *m_embeddingDock;
    QDockWidget *m_examplesDock;
    QDockWidget *m_analysisDock;
    QByteArray m_defaultState;

    QAction *m_openAction;
    QAction *m_saveAction;
    QAction *m_saveAsAction;
    QAction *m_exportHeatmapAction;
    QAction *m_exportHeatmapCsvAction;
    QAction *m_exportLossAction;
    QAction *m_exportLossCsvAction;
    QAction *m_exportEmbeddingsAction;
    QAction *m_quitAction;
    QAction *m_trainAction;
    QAction *m_pauseAction;
    QAction *m_resumeAction;
    QAction *m_stopAction;
    QAction *m_resetLayoutAction;
    QMenu *m_recentMenu;
    QMenu *m_viewMenu;

    QProgressBar *m_progress;
    QLabel *m_progressLabel;
    QLabel *m_speedLabel;
    QLabel *m_etaLabel;

    State m_state = State::Idle;
    ModelSnapshot m_best;
    ModelSnapshot m_latest;
    int m_pendingRequests = 0;  // asked of the worker and not answered with workerIdle() yet
    bool m_modified = false;  // m_best holds training results that were not saved
    QString m_currentFile;
    QString m_origin;         // where the shown model came from, for the title and descriptions

    int m_epochs = 0;
    std::vector<EpochStats> m_history;
    int m_bestEpoch = 0;
    QElapsedTimer m_runClock;
    QElapsedTimer m_pauseClock;
    qint64 m_pausedMs = 0;
};
