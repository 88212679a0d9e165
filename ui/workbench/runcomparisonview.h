#pragma once

#include "ui/workbench/sharedrun.h"

#include <QWidget>

#include <vector>

class LengthAccuracyPlot;
class QComboBox;
class QLabel;
class QTableWidget;

// Finished runs side by side, whichever lab trained them: a table of what each measured (test
// exact match, training time to 99%, parameters, samples/s, the seed) above their exact match by
// sentence length, the trained lengths shaded, so an RNN and a Transformer trained on the same
// data and seed can be compared point for point. Only runs on the same data are put side by side:
// the view shows one data's runs at a time, the data picked above the table.
class RunComparisonView : public QWidget
{
    Q_OBJECT
public:
    explicit RunComparisonView(QWidget *parent = nullptr);

    // A run more; the view turns to its data, a row and a line more. The shading follows the run
    // of the shown data added last.
    void addRun(const SharedRun &run);
    void clear();
    // Every run, in the order added, whatever its data.
    const std::vector<SharedRun> &runs() const { return m_runs; }
    // The data whose runs are shown, and those runs in the order added; empty without runs.
    QString shownData() const { return m_shownData; }
    std::vector<SharedRun> shownRuns() const;
    // Shows the runs on `data`; false when no run trained on it.
    bool showData(const QString &data);
    QComboBox *dataPicker() const { return m_dataPicker; }
    QTableWidget *table() const { return m_table; }
    LengthAccuracyPlot *lengthPlot() const { return m_plot; }

    // A line per run and sentence length, every run whatever its data (the data is a column): the
    // run's figures, then the length's correct and total. False with `error` when there is no run
    // or the file cannot be written.
    bool exportCsv(const QString &path, QString *error = nullptr) const;

signals:
    void runsChanged();  // a run was added or all were cleared

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;  // the table's width, for fitRunColumn()

private:
    void showRuns();
    void fitRunColumn();
    void addRow(const SharedRun &run);

    std::vector<SharedRun> m_runs;
    QString m_shownData;
    QLabel *m_hint;
    QComboBox *m_dataPicker;
    QTableWidget *m_table;
    LengthAccuracyPlot *m_plot;
};
