#pragma once

#include "engine/transformer/transformerinference.h"

#include <QWidget>

// Every layer's and head's weights of one attention as small squares, layers down and heads
// across, on the heatmap's colours: the heads that do the task stand out at a glance. A click, or
// the arrow keys, picks one (outlined) and reports it.
class HeadGrid : public QWidget
{
    Q_OBJECT
public:
    explicit HeadGrid(QWidget *parent = nullptr);

    void setAttention(const LayeredAttention &attention);  // keeps the pick when it still exists
    void select(int layer, int head);
    int selectedLayer() const { return m_layer; }
    int selectedHead() const { return m_head; }
    int layers() const { return int(m_attention.weights.size()); }
    int heads() const { return m_attention.weights.empty() ? 0 : int(m_attention.weights.front().size()); }
    // Where the square of (layer, head) is drawn; empty when there is none.
    QRect squareRect(int layer, int head) const;

    QSize sizeHint() const override { return {320, 180}; }
    QSize minimumSizeHint() const override { return {160, 90}; }

signals:
    void headSelected(int layer, int head);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    int squareSize() const;

    LayeredAttention m_attention;
    int m_layer = 0;
    int m_head = 0;
};
