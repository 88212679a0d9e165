#pragma once

#include "engine/attention/evaluation.h"
#include "engine/attention/projectfile.h"
#include "engine/attention/modelconfig.h"
#include "engine/core/epochstats.h"
#include "ui/core/spreadgraphs.h"

#include <map>

#include <QVector>
#include <QWidget>

class LengthAccuracyPlot;
class QCPItemText;
class QCustomPlot;
class QLabel;
class QListWidget;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QToolButton;
class RunComparisonView;

// Compares configurations trained one after another on the same data: a queue, their validation
// loss and exact match per epoch overlaid, and exact match by sentence length on probe sentences
// up to beyond the trained lengths. With Seeds above one each configuration runs that many times
// from other initial weights, and is drawn as the mean within a min-max band, so a difference
// between configurations can be told from seed noise. Runs are numbered in the order they train:
// run i is configuration i / seeds, its (i % seeds)-th seed. Asks for the work through signals.
// In a second tab every finished run stands beside those other labs share (RunComparisonView).
class ExperimentsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ExperimentsPanel(QWidget *parent = nullptr);

    // The model settings "Add current settings" and "Add every variant" start from.
    void setBaseConfig(const ModelConfig &config);
    void setTrainedRange(int minLength, int maxLength);
    void addConfiguration(const ModelConfig &config);
    void clearQueue();
    int queuedCount() const { return int(m_queue.size()); }
    bool isRunning() const { return m_running; }
    int probeMaxLength() const;
    int seeds() const;  // runs per configuration
    void setSeeds(int seeds);
    // "bahdanau, hidden 64": what tells queued configurations apart.
    static QString labelOf(const ModelConfig &config);
    LengthAccuracyPlot *lengthPlot() const { return m_lengthPlot; }
    QCustomPlot *curvesPlot() const { return m_curves; }
    // Finished runs side by side with other labs' runs: the lab adds its own and those it takes.
    RunComparisonView *comparison() const { return m_comparison; }
    // The views below the queue: the plots by configuration (0), the runs side by side (1).
    QTabWidget *views() const { return m_views; }
    // The validation curves as an image (PNG, JPEG, PDF or SVG by the suffix); false with `error`.
    bool exportCurves(const QString &path, int width, int height, QString *error);
    // The runs of the last queue, as far as they went, in run order; setting them (from a project)
    // draws them again and queues their configurations, each `seeds` runs in a row.
    const std::vector<ExperimentRecord> &records() const { return m_records; }
    int recordSeeds() const { return m_runSeeds; }
    void setRecords(const std::vector<ExperimentRecord> &records, int seeds);

public slots:
    // `index`: the run, as numbered above; `seed`: its initial weights'.
    void runStarted(int index, std::uint64_t seed);
    void addEpoch(int index, const EpochStats &stats);
    // `probe`: exact match by length on the probe sentences.
    void runFinished(int index, double testExactMatch, const EvaluationReport &probe);
    void queueFinished(const QString &message);

signals:
    // Each of `configs` `seeds` times in a row, with seeds counting up from the training seed.
    void runRequested(const QVector<ModelConfig> &configs, int probeMaxLength, int seeds);
    void stopRequested();

private:
    // What the runs of one configuration measured so far, each run's by epoch or length.
    struct ConfigurationRuns {
        SpreadGraphs loss, exact;
        std::vector<std::map<int, double>> valLoss, valExact, probeExact;
        std::vector<double> testExact;
    };
    void run();
    void showTestExactMatch(int configuration);
    void updateButtons();
    void updateCurvesMessage();

    ModelConfig m_base;
    QVector<ModelConfig> m_queue;
    std::vector<ExperimentRecord> m_records;
    bool m_running = false;
    QListWidget *m_list;
    QSpinBox *m_probeMaxLength;
    bool m_probeFollowsRange = true;  // 3 x the trained maximum until the user sets it
    QSpinBox *m_seeds;
    int m_runSeeds = 1;  // of the queue running or last run
    QVector<ConfigurationRuns> m_results;
    QPushButton *m_addCurrent;
    QPushButton *m_addVariants;
    QPushButton *m_clear;
    QPushButton *m_run;
    QPushButton *m_stop;
    QToolButton *m_export;
    QLabel *m_status;
    QCustomPlot *m_curves;
    QCPItemText *m_curvesMessage;
    LengthAccuracyPlot *m_lengthPlot;
    QTabWidget *m_views;
    RunComparisonView *m_comparison;
};
