#pragma once

#include "engine/core/embeddingtable.h"

#include <qcustomplot.h>

#include <QPointF>
#include <QStringList>
#include <QVector>

#include <utility>
#include <vector>

// Learned word embeddings on their first two principal components, one labelled point per word;
// special tokens (<PAD>, <EOS>, ...) are greyed out and left out of the PCA fit. Click a point to
// select the word and learn its nearest neighbours by cosine similarity in the full space.
class EmbeddingPlot : public QCustomPlot
{
    Q_OBJECT
public:
    static constexpr int kNeighbours = 5;
    // Above this many words labels keep one side: placing them costs quadratic time per repaint.
    static constexpr int kMaxPlacedLabels = 400;

    explicit EmbeddingPlot(QWidget *parent = nullptr);

    // A table that is empty or inconsistent shows a message instead of points.
    void setEmbeddings(const EmbeddingTable &table, const QString &title);
    // Highlights the word and its neighbours and emits wordSelected; out of range clears.
    void selectWord(int index);
    int selectedWord() const { return m_selected; }  // -1: none

    int wordCount() const { return int(m_words.size()); }
    QString word(int index) const;
    QPointF wordPosition(int index) const;  // (PC1, PC2) of the word
    // The kNeighbours most similar other words (special tokens excluded), best first, "word  0.93".
    QStringList neighbours(int index) const;

    bool exportImage(const QString &path, int width, int height, QString *error = nullptr);

signals:
    void wordSelected(const QString &word, const QStringList &neighbours);

private:
    void showMessage(const QString &message);
    void clearPoints();
    void resetView();
    void updateHighlight();
    // Puts each label right, left, above or below its point, wherever it overlaps least.
    void placeLabels();
    std::vector<std::pair<int, double>> nearestWords(int index) const;
    int wordAt(const QPointF &pixel) const;
    void onMousePress(QMouseEvent *event);

    std::vector<QString> m_words;
    std::vector<bool> m_special;
    std::vector<float> m_values;
    int m_dimensions = 0;
    std::vector<QPointF> m_positions;
    int m_selected = -1;

    QCPTextElement *m_title = nullptr;
    QCPItemText *m_message = nullptr;
    QCPGraph *m_wordGraph = nullptr;
    QCPGraph *m_specialGraph = nullptr;
    QCPGraph *m_neighbourGraph = nullptr;
    QCPGraph *m_selectedGraph = nullptr;
    QVector<QCPItemText *> m_labels;
};
