#pragma once

#include "engine/attention/evaluation.h"
#include "engine/attention/lengthreport.h"

#include <QWidget>

class ExamplesModel;
class QCheckBox;
class QLabel;
class QTableView;

// Test-set results: exact match and token accuracy above a table of every sentence, with a
// "failures only" filter. Choosing a row asks for that input to be shown in the inference view.
class ExamplesTable : public QWidget
{
    Q_OBJECT
public:
    explicit ExamplesTable(QWidget *parent = nullptr);

    // `lengths`, when it has rows (a corpus run), adds each length's share of the corpus and the
    // lengths under its bar.
    void setReport(const EvaluationReport &report, const LengthReport &lengths = {});
    void showMessage(const QString &message);  // replaces the summary; the table is emptied
    void setFailuresOnly(bool failuresOnly);
    int visibleRows() const;
    QTableView *view() const { return m_view; }

signals:
    void exampleChosen(const QString &input);

private:
    void updateCount();

    QLabel *m_summary;
    QLabel *m_count;
    QCheckBox *m_failuresOnly;
    QTableView *m_view;
    ExamplesModel *m_model;
};
