#pragma once

#include "engine/core/epochstats.h"

#include <qcustomplot.h>

#include <vector>

// Live training curves: faint per-batch loss with a smoothed line through it, per-epoch train and
// validation loss, validation exact match (right axis) and the best epoch so far. Follows the data
// while it streams until the user zooms or drags; a double-click returns to following.
class LossPlot : public QCustomPlot
{
    Q_OBJECT
public:
    // Weight of the past in the smoothed batch loss (about the last 20 batches).
    static constexpr double kSmoothing = 0.95;

    explicit LossPlot(QWidget *parent = nullptr);

    void clear();
    // epochPosition = (epoch-1) + batch/batchesPerEpoch. Non-finite losses cannot be drawn and are skipped.
    void addBatch(double epochPosition, double loss);
    void addBatch(const BatchProgress &progress) { addBatch(progress.epochsDone(), progress.loss); }
    // Plotted at the epoch's end (x = epoch). `isBest` moves the best-epoch marker here.
    void addEpoch(const EpochStats &stats, bool isBest);
    // A loaded model's curves (no batch points); the best epoch is the lowest validation loss.
    void setHistory(const std::vector<EpochStats> &history);
    // A horizontal line at loss `value` (a baseline to beat), named by `label` at its right end and
    // kept inside the followed range; clear() removes it. A non-finite value removes it too.
    void setReferenceLine(double value, const QString &label);
    // A vertical line at `epoch`: the epoch a replay of the run shows. A non-finite value removes it;
    // clear() removes it too.
    void setMarker(double epoch);
    bool hasMarker() const;
    double markerEpoch() const { return m_markerEpoch; }

    int batchPointCount() const { return int(m_batches.size()); }
    int epochPointCount() const { return int(m_epochs.size()); }
    int bestEpoch() const { return m_bestEpoch; }  // 0: none yet
    bool followsData() const { return !m_userZoomed; }
    bool hasReferenceLine() const;
    double referenceValue() const { return m_referenceValue; }
    QString referenceLabel() const;

    QCPGraph *batchGraph() const { return m_batchGraph; }
    QCPGraph *smoothedGraph() const { return m_smoothedGraph; }
    QCPGraph *trainGraph() const { return m_trainGraph; }
    QCPGraph *validationGraph() const { return m_validationGraph; }
    QCPGraph *exactMatchGraph() const { return m_exactMatchGraph; }

    bool exportImage(const QString &path, int width, int height, QString *error = nullptr);
    // One row per batch and per epoch in x order; empty fields where a row has no such value.
    bool exportCsv(const QString &path, QString *error = nullptr) const;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    struct BatchPoint {
        double position = 0;
        double loss = 0;
        double smoothed = 0;
    };

    void markBest(const EpochStats &stats);
    void followData();
    void placeBestLabel();
    void fitLegendColumns(int width);
    void onRangeChanged();
    void onDoubleClick();

    std::vector<BatchPoint> m_batches;
    std::vector<EpochStats> m_epochs;
    double m_average = 0;     // exponential moving average, biased toward 0 early on
    double m_decay = 1;       // kSmoothing^n, for the bias correction
    double m_maxLoss = 0;     // of the smoothed and epoch curves: the y range to follow
    double m_maxPosition = 0;
    int m_bestEpoch = 0;
    bool m_userZoomed = false;
    bool m_settingRange = false;

    QCPGraph *m_batchGraph = nullptr;
    QCPGraph *m_smoothedGraph = nullptr;
    QCPGraph *m_trainGraph = nullptr;
    QCPGraph *m_validationGraph = nullptr;
    QCPGraph *m_exactMatchGraph = nullptr;
    QCPGraph *m_bestGraph = nullptr;
    QCPItemStraightLine *m_bestLine = nullptr;
    QCPItemText *m_bestLabel = nullptr;
    double m_referenceValue = 0;
    QCPItemStraightLine *m_referenceLine = nullptr;
    QCPItemText *m_referenceText = nullptr;
    double m_markerEpoch = 0;
    QCPItemStraightLine *m_marker = nullptr;
};
