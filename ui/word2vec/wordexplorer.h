#pragma once

#include "engine/word2vec/vectorqueries.h"

#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;
class QTreeWidget;

// Questions to the current vectors: a word's nearest neighbours by cosine, and analogies
// (a : b :: c : ?), answered by the engine's VectorIndex.
class WordExplorer : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kNeighbours = 10;
    static constexpr int kAnswers = 5;

    explicit WordExplorer(QWidget *parent = nullptr);

    void setVectors(std::shared_ptr<const WordVectors> vectors);
    const VectorIndex *index() const { return m_index.get(); }
    // Lists the word's neighbours; returns them (empty when the word is unknown or none is loaded).
    std::vector<ScoredWord> showNeighbours(const QString &word);
    void setAnalogy(const QString &a, const QString &b, const QString &c);
    void solveAnalogy();

    QTreeWidget *neighbourList() const { return m_neighbours; }
    QTreeWidget *answerList() const { return m_answers; }
    QString analogyMessage() const;

private:
    std::shared_ptr<const WordVectors> m_vectors;
    std::unique_ptr<VectorIndex> m_index;
    QLabel *m_neighbourTitle;
    QTreeWidget *m_neighbours;
    QLineEdit *m_analogy[3];
    QLabel *m_analogyMessage;
    QTreeWidget *m_answers;
    QString m_shownWord;
};
