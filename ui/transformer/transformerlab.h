#pragma once

#include "engine/core/datasetconfig.h"
#include "engine/core/epochstats.h"
#include "ui/workbench/document.h"
#include "ui/workbench/lab.h"

#include <atomic>
#include <memory>
#include <string>
#include <vector>

class ExportActions;
class FaithfulnessPage;
class LossPlot;
class QDockWidget;
class QLabel;
class QSlider;
class RunComparisonView;
class TransformerReversePanel;
class TransformerSetup;
struct TransformerEpochDone;
struct TransformerFaithfulnessMeasured;
struct TransformerFaithfulnessProgress;
struct TransformerSnapshot;
struct TransformerTrainingFinished;

// The Transformer lab: an encoder-decoder Transformer learns the attention lab's tasks live, and
// people type a sentence to see its output and every head of its three attentions form, epoch by
// epoch, beside the RNN it replaced; the Faithfulness page says how far the attribution methods
// agree and how faithful each is to the model (issue 37).
class TransformerLab : public Lab, public DocumentContent
{
    Q_OBJECT
public:
    explicit TransformerLab(Workbench *workbench);

    QList<LabPage> pages() const override;
    QList<LabDock> docks() const override;
    QList<QAction *> exportActions() const override;
    DocumentContent *documentContent() override { return this; }
    void saveSettings(QSettings &settings) const override;
    void restoreSettings(QSettings &settings) override;
    bool trains() const override { return true; }
    QString trainProblem() const override;
    void train() override;
    void jobStarted(const QString &description) override;
    void jobBatch(const BatchProgress &progress) override;
    void jobFailed(const QString &message) override;
    void takeRun(const SharedRun &run) override;

    // DocumentContent: the best epoch of the last run, or the model opened, as a Transformer
    // checkpoint (engine/transformer/transformercheckpoint.h).
    QString documentName() const override { return tr("Transformer"); }
    bool hasContent() const override { return m_checkpoint != nullptr; }
    bool open(const QString &path, const FileType &type, QString *error) override;
    bool save(const QString &path, const FileType &type, QString *error) override;

    TransformerSetup *setup() const { return m_setup; }
    TransformerReversePanel *reversePanel() const { return m_reverse; }
    LossPlot *lossPlot() const { return m_loss; }
    const std::vector<EpochStats> &history() const { return m_history; }
    // Every epoch's weights of the last run, in order: the page decodes with the one the slider picks.
    QSlider *epochSlider() const { return m_epochSlider; }
    QString statusText() const;
    // This lab's finished runs beside those other labs share.
    RunComparisonView *comparison() const { return m_comparison; }
    FaithfulnessPage *faithfulnessPage() const { return m_faithfulness; }

private:
    void createExports();
    void addEpoch(const TransformerEpochDone &done);
    void finishTraining(const TransformerTrainingFinished &finished);
    void setStatus(const QString &text);
    void showEpoch(int epoch);
    // The model to decode with for other labs (Workbench::shareDecoder); `origin`: "epoch 7".
    void shareModel(const std::shared_ptr<const TransformerSnapshot> &snapshot, bool lowercase, const QString &origin);
    void updateActions();
    // The Faithfulness page (transformerlabfaithfulness.cpp): measured after every epoch once the
    // page has been shown, and for a model opened or trained when the page is next shown.
    void createFaithfulness();
    void createFaithfulnessExports(const QString &csv);
    void awaitFaithfulness(const std::shared_ptr<const TransformerSnapshot> &snapshot, const DatasetConfig &data,
                           const QString &subject);
    void measureAwaitedFaithfulness();
    void faithfulnessPageShown();
    void abandonFaithfulness();  // of a model opened or trained, queued or under way
    void showFaithfulnessProgress(const TransformerFaithfulnessProgress &progress);
    void showFaithfulness(const TransformerFaithfulnessMeasured &measured);

    TransformerSetup *m_setup;
    TransformerReversePanel *m_reverse;
    LossPlot *m_loss;
    QLabel *m_status;
    QWidget *m_page;
    QSlider *m_epochSlider;
    QLabel *m_epochLabel;
    QDockWidget *m_setupDock;
    RunComparisonView *m_comparison;
    ExportActions *m_exports = nullptr;
    QList<QAction *> m_sentenceExports;  // enabled while a sentence is decoded
    QList<QAction *> m_lossExports;      // enabled once an epoch is trained
    QList<QAction *> m_stepExports;      // enabled while the step scores are shown
    QList<QAction *> m_rowExports;       // enabled while every method's row of an output word is shown
    QList<QAction *> m_contrastExports;  // enabled while a contrast is shown
    QList<QAction *> m_comparisonExports;  // enabled once a run is compared
    QList<QAction *> m_faithfulnessExports;  // enabled once faithfulness is measured
    FaithfulnessPage *m_faithfulness = nullptr;
    std::shared_ptr<std::atomic<bool>> m_faithfulnessWanted;     // the page has been shown: measure each epoch
    std::shared_ptr<std::atomic<bool>> m_faithfulnessAbandoned;  // of the awaited model's measurement
    std::shared_ptr<const TransformerSnapshot> m_faithfulnessAwaited;  // measured when the page is shown
    DatasetConfig m_faithfulnessData;                                  // whose test split it is measured on
    std::vector<EpochStats> m_history;
    std::vector<std::shared_ptr<const TransformerSnapshot>> m_snapshots;  // per epoch, from 1
    std::shared_ptr<const std::string> m_checkpoint;  // what Save writes; null before a run ends
    int m_epochs = 0;
    DatasetConfig m_runData;     // what the run trains on,
    std::uint64_t m_runSeed = 0;  // and the seed of its initial weights
};
