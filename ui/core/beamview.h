#pragma once

#include <QWidget>

class QLabel;
class QTableWidget;
class QTreeWidget;
struct BeamListing;

// What a beam search found and how: the n-best list with log-probabilities and length-normalised
// scores, and for each step the hypotheses it kept, the winner's path in bold.
class BeamView : public QWidget
{
    Q_OBJECT
public:
    explicit BeamView(QWidget *parent = nullptr);

    // Shows `listing` with its winner selected (no hypothesisSelected for it).
    void setResult(const BeamListing &listing);
    void clear();
    int selectedHypothesis() const;  // a row of the n-best list, -1 for none
    void selectHypothesis(int row);

    QTableWidget *nbestTable() const { return m_nbest; }
    QTreeWidget *stepsTree() const { return m_steps; }
    int winnerPathLength() const { return m_winnerPath; }  // kept entries marked as the winner's

signals:
    // Another hypothesis of the n-best list was chosen, by mouse, keyboard or selectHypothesis().
    void hypothesisSelected(int row);

private:
    QLabel *m_summary;
    QTableWidget *m_nbest;
    QTreeWidget *m_steps;
    int m_winnerPath = 0;
};
