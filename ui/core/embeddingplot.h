#pragma once

#include "engine/core/embeddingprojection.h"

#include <qcustomplot.h>

#include <QPointF>
#include <QVector>

#include <vector>

// Word embeddings on their first two principal components (as the engine projected them), one
// labelled point per word; special tokens are greyed out. Clicking a point reports the word; its
// owner answers with the neighbours to highlight. Without a mouse: findWord() (behind a search
// field), and with focus the arrow keys step to the nearest word on screen in the arrow's
// direction, Enter or Space report the selected word again, + and - zoom, 0 shows every word.
class EmbeddingPlot : public QCustomPlot
{
    Q_OBJECT
public:
    // Above this many words labels keep one side: placing them costs quadratic time per repaint.
    static constexpr int kMaxPlacedLabels = 400;

    explicit EmbeddingPlot(QWidget *parent = nullptr);

    void setProjection(const EmbeddingProjection &projection, const QString &title);
    // Only the first `count` words (a vocabulary's most frequent) are labelled, and the highlighted
    // ones; the others are named when the pointer rests on them. Takes effect at the next projection.
    void setLabelLimit(int count) { m_labelLimit = count; }
    // No points, only `message` (e.g. why there is nothing to show).
    void showMessage(const QString &message, const QString &title = QString());
    // Highlights word `index` and its `neighbours` (rows of the same projection); an index out of
    // range clears the highlight.
    void setSelection(int index, const std::vector<WordNeighbour> &neighbours);
    int selectedWord() const { return m_selected; }  // -1: none
    // Reports the word whose text equals `text` (case and surrounding spaces ignored) as a click on
    // it would, and returns its index; -1 when no word matches.
    int findWord(const QString &text);
    // The word nearest `from` on screen within 45 degrees of `direction` (Qt::Key_Left, _Right,
    // _Up or _Down); -1 when none lies that way.
    int wordInDirection(int from, int direction) const;

    int wordCount() const { return int(m_words.size()); }
    QString word(int index) const;
    QPointF wordPosition(int index) const;  // (PC1, PC2) of the word
    const std::vector<WordNeighbour> &neighbours() const { return m_neighbours; }  // of the selected word

    bool exportImage(const QString &path, int width, int height, QString *error = nullptr);

signals:
    void wordClicked(int index);

protected:
    void keyPressEvent(QKeyEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void focusInEvent(QFocusEvent *event) override;
    void focusOutEvent(QFocusEvent *event) override;

private:
    void clearPoints();
    void resetView();
    void updateHighlight();
    void updateAccessibleDescription();
    // The word nearest the middle of the visible area: where the keyboard starts without a selection.
    int wordNearestCentre() const;
    QPointF pixelOf(int index) const;
    void scrollToWord(int index);
    // Puts each label right, left, above or below its point, wherever it overlaps least.
    void placeLabels();
    int wordAt(const QPointF &pixel) const;
    void onMousePress(QMouseEvent *event);
    void onMouseMove(QMouseEvent *event);
    QCPItemText *addLabel(int index);

    std::vector<ProjectedWord> m_words;
    std::vector<WordNeighbour> m_neighbours;
    int m_selected = -1;

    QCPTextElement *m_title = nullptr;
    QCPItemText *m_message = nullptr;
    QCPGraph *m_wordGraph = nullptr;
    QCPGraph *m_specialGraph = nullptr;
    QCPGraph *m_neighbourGraph = nullptr;
    QCPGraph *m_selectedGraph = nullptr;
    QVector<QCPItemText *> m_labels;  // per word; null for a word without a label
    int m_labelLimit = kMaxPlacedLabels;
};
