#pragma once

#include "engine/attention/beamevaluation.h"

#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;
class QTreeWidget;

// Greedy decoding against beam search on the test split of the model shown, as the course's
// exercise asks: exact match, mean log-probability, mean length and how many outputs differ from
// greedy's for k = 1, 2, 5, 10 and α = 0, 0.6, 1, then every sentence where they differ with each
// distinct output and the settings that gave it.
class BeamSearchPage : public QWidget
{
    Q_OBJECT
public:
    explicit BeamSearchPage(QWidget *parent = nullptr);

    // What Compare would decode ("the trained model"); empty: there is no model. Clears the figures
    // of another model.
    void setSubject(const QString &subject);
    void setCompareEnabled(bool enabled);  // the worker is free and there is a model
    void setProgress(int done, int total);
    void setEvaluation(const BeamEvaluation &evaluation);
    void showProblem(const QString &problem);

    bool hasEvaluation() const { return m_hasEvaluation; }
    const BeamEvaluation &evaluation() const { return m_evaluation; }
    QTableWidget *table() const { return m_table; }
    QTreeWidget *differences() const { return m_differences; }
    QPushButton *compareButton() const { return m_compare; }
    QString status() const;

    bool exportCsv(const QString &path, QString *error = nullptr) const;

signals:
    void compareRequested();

private:
    void clearFigures();

    QLabel *m_heading;
    QPushButton *m_compare;
    QPushButton *m_export;
    QProgressBar *m_progress;
    QLabel *m_status;
    QTableWidget *m_table;
    QLabel *m_differencesHeading;
    QTreeWidget *m_differences;

    QString m_subject;
    bool m_compareEnabled = false;
    bool m_hasEvaluation = false;
    BeamEvaluation m_evaluation;
};
