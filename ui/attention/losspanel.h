#pragma once

#include "engine/core/epochstats.h"

#include <QWidget>

#include <vector>

class LossPlot;
class QLabel;

// The training curves with a line above them that says where the run stands: the last epoch's
// losses and validation exact match, and the best epoch when it is not the last.
class LossPanel : public QWidget
{
    Q_OBJECT
public:
    explicit LossPanel(QWidget *parent = nullptr);

    LossPlot *plot() const { return m_plot; }
    QString summary() const;

    void start(int epochs, const QString &message);  // a new run: curves cleared
    void setMessage(const QString &message);
    void addBatch(const BatchProgress &progress);
    void addEpoch(const EpochStats &stats, bool isBest);
    void setHistory(const std::vector<EpochStats> &history);  // a model's, when it is opened
    bool hasData() const;

private:
    void updateSummary();

    LossPlot *m_plot;
    QLabel *m_summary;
    std::vector<EpochStats> m_history;
    int m_epochs = 0;
    int m_bestEpoch = 0;
};
