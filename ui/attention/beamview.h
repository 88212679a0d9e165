#pragma once

#include "engine/attention/seq2seqmodel.h"

#include <QWidget>

class QLabel;
class QTableWidget;
class QTreeWidget;

// What a beam search found and how: the n-best list with log-probabilities and length-normalised
// scores, and for each step the hypotheses it kept, the winner's path in bold.
class BeamView : public QWidget
{
    Q_OBJECT
public:
    explicit BeamView(QWidget *parent = nullptr);

    // `vocabulary` turns the steps' token ids into words; `alpha` is shown with the scores.
    void setResult(const BeamDecoded &result, const Vocabulary &vocabulary, double alpha);
    void clear();

    QTableWidget *nbestTable() const { return m_nbest; }
    QTreeWidget *stepsTree() const { return m_steps; }
    int winnerPathLength() const { return m_winnerPath; }  // kept entries marked as the winner's

private:
    QLabel *m_summary;
    QTableWidget *m_nbest;
    QTreeWidget *m_steps;
    int m_winnerPath = 0;
};
