#pragma once

#include "engine/core/lengthaccuracy.h"
#include "engine/core/seedspread.h"
#include "ui/core/spreadgraphs.h"

#include <qcustomplot.h>

#include <map>

// Exact match by sentence length, one line per run, with the lengths the runs were trained on
// shaded: to the right of the shading a model must generalise to sentences longer than any it saw.
class LengthAccuracyPlot : public QCustomPlot
{
    Q_OBJECT
public:
    explicit LengthAccuracyPlot(QWidget *parent = nullptr);

    void clear();
    void setTrainedRange(int minLength, int maxLength);
    // Lengths without sentences are left out of the line.
    void addRun(const QString &label, const std::map<int, LengthAccuracy> &byLength);
    // One configuration over several seeds: exact match (0..1) by length, its mean as the line in
    // a min-max band. Draws run `index` (0: the first added), added now or replacing what it was.
    void setRun(int index, const QString &label, const std::map<int, Spread> &byLength);
    int runCount() const { return int(m_runs.size()); }
    // The colour of the run added `index`-th, for views that show the same runs.
    static QColor runColor(int index);

    bool exportImage(const QString &path, int width, int height, QString *error = nullptr);

private:
    void fitRanges();

    QVector<SpreadGraphs> m_runs;
    QCPItemRect *m_trained = nullptr;
    QCPItemText *m_trainedLabel = nullptr;
    int m_minLength = 0;
    int m_maxLength = 0;
};
