#pragma once

#include "ui/workbench/sharedrun.h"

#include <QWidget>

#include <vector>

class LengthAccuracyPlot;
class QLabel;
class QTableWidget;

// Finished runs side by side, whichever lab trained them: a table of what each measured (test
// exact match, training time to 99%, parameters, samples/s, the data) above their exact match by
// sentence length, the trained lengths shaded, so an RNN and a Transformer trained on the same
// data and seed can be compared point for point.
class RunComparisonView : public QWidget
{
    Q_OBJECT
public:
    explicit RunComparisonView(QWidget *parent = nullptr);

    // A row and a line more; the shading follows the run added last.
    void addRun(const SharedRun &run);
    void clear();
    const std::vector<SharedRun> &runs() const { return m_runs; }
    QTableWidget *table() const { return m_table; }
    LengthAccuracyPlot *lengthPlot() const { return m_plot; }

    // A line per run and sentence length: the run's figures, then the length's correct and total.
    // False with `error` when there is no run or the file cannot be written.
    bool exportCsv(const QString &path, QString *error = nullptr) const;

private:
    std::vector<SharedRun> m_runs;
    QLabel *m_hint;
    QTableWidget *m_table;
    LengthAccuracyPlot *m_plot;
};
