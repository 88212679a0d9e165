#pragma once

#include "engine/attention/evaluation.h"
#include "engine/attention/projectfile.h"
#include "engine/attention/modelconfig.h"
#include "engine/core/epochstats.h"

#include <QVector>
#include <QWidget>

class LengthAccuracyPlot;
class QCPItemText;
class QCustomPlot;
class QLabel;
class QListWidget;
class QPushButton;
class QSpinBox;

// Compares configurations trained one after another on the same data and seed: a queue, their
// validation loss and exact match per epoch overlaid, and exact match by sentence length on
// probe sentences up to beyond the trained lengths. Asks for the work through signals.
class ExperimentsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ExperimentsPanel(QWidget *parent = nullptr);

    // The model settings "Add current settings" and "Add the four variants" start from.
    void setBaseConfig(const ModelConfig &config);
    void setTrainedRange(int minLength, int maxLength);
    void addConfiguration(const ModelConfig &config);
    int queuedCount() const { return int(m_queue.size()); }
    bool isRunning() const { return m_running; }
    int probeMaxLength() const;
    LengthAccuracyPlot *lengthPlot() const { return m_lengthPlot; }
    QCustomPlot *curvesPlot() const { return m_curves; }
    // The runs of the last queue, as far as they went; setting them (from a project) draws them
    // again and queues their configurations.
    const std::vector<ExperimentRecord> &records() const { return m_records; }
    void setRecords(const std::vector<ExperimentRecord> &records);

public slots:
    void runStarted(int index, std::uint64_t seed);
    void addEpoch(int index, const EpochStats &stats);
    // `probe`: exact match by length on the probe sentences.
    void runFinished(int index, double testExactMatch, const EvaluationReport &probe);
    void queueFinished(const QString &message);

signals:
    void runRequested(const QVector<ModelConfig> &configs, int probeMaxLength);
    void stopRequested();

private:
    static QString labelOf(const ModelConfig &config);
    void run();
    void updateButtons();
    void updateCurvesMessage();

    ModelConfig m_base;
    QVector<ModelConfig> m_queue;
    std::vector<ExperimentRecord> m_records;
    bool m_running = false;
    QListWidget *m_list;
    QSpinBox *m_probeMaxLength;
    QPushButton *m_addCurrent;
    QPushButton *m_addVariants;
    QPushButton *m_clear;
    QPushButton *m_run;
    QPushButton *m_stop;
    QLabel *m_status;
    QCustomPlot *m_curves;
    QCPItemText *m_curvesMessage;
    LengthAccuracyPlot *m_lengthPlot;
};
