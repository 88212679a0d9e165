#pragma once

#include "engine/attention/alignmentscore.h"
#include "engine/core/epochstats.h"

#include <qcustomplot.h>

// Attention against the known alignment over training, measured on the validation set after each
// epoch: alignment accuracy (the share of output words whose strongest weight sits on the source
// word they must come from) and the mean weight on that word, beside validation exact match, so
// one sees whether attention lines up before, with or after the outputs become right.
class AlignmentPlot : public QCustomPlot
{
    Q_OBJECT
public:
    explicit AlignmentPlot(QWidget *parent = nullptr);

    // No epochs: the plot says alignment appears as training runs.
    void clear();
    // An epoch without scored steps has no shares to draw and is left out.
    void addEpoch(const EpochStats &stats, const AlignmentScore &score);
    // Empty curves and `message` in their place (a model without attention, an opened model).
    void showMessage(const QString &message);

    int epochCount() const { return m_accuracyGraph->dataCount(); }
    QCPGraph *accuracyGraph() const { return m_accuracyGraph; }
    QCPGraph *weightGraph() const { return m_weightGraph; }
    QCPGraph *exactMatchGraph() const { return m_exactMatchGraph; }
    QString message() const { return m_message->visible() ? m_messageText : QString(); }  // empty with curves

    bool exportImage(const QString &path, int width, int height, QString *error = nullptr);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void fitRange();

    QCPGraph *m_accuracyGraph;
    QCPGraph *m_weightGraph;
    QCPGraph *m_exactMatchGraph;
    QCPItemText *m_message;
    QString m_messageText;
};
