#pragma once

#include "engine/transformer/transformerinference.h"

#include <QString>
#include <QStringList>
#include <QWidget>

#include <vector>

// Every layer's and head's weights of one attention as small squares, layers down and heads
// across, on the heatmap's colours: the heads that do the task stand out at a glance. A click, or
// the arrow keys, picks one (outlined) and reports it.
class HeadGrid : public QWidget
{
    Q_OBJECT
public:
    explicit HeadGrid(QWidget *parent = nullptr);

    // Keeps the pick when it still exists; the captions go with the attention they described.
    void setAttention(const LayeredAttention &attention);
    // A line under each square, [layer][head]: what the head does ("answer 93%").
    void setCaptions(const std::vector<std::vector<QString>> &captions);
    QString caption(int layer, int head) const;
    // The tokens the rows and columns stand for, for the CSV export.
    void setTokens(const QStringList &rows, const QStringList &columns);
    void select(int layer, int head);
    int selectedLayer() const { return m_layer; }
    int selectedHead() const { return m_head; }
    int layers() const { return int(m_attention.weights.size()); }
    int heads() const { return m_attention.weights.empty() ? 0 : int(m_attention.weights.front().size()); }
    // Where the square of (layer, head) is drawn; empty when there is none.
    QRect squareRect(int layer, int head) const;

    // Every square, its labels and captions at width x height (no selection outline); format by
    // suffix: .png, .jpg, .pdf, .svg.
    bool exportImage(const QString &path, int width, int height, QString *error = nullptr) const;
    // One line per weight: layer, head, query and key (position and token), weight; then the caption.
    bool exportCsv(const QString &path, QString *error = nullptr) const;

    QSize sizeHint() const override { return {320, 180}; }
    QSize minimumSizeHint() const override { return {160, 90}; }

signals:
    void headSelected(int layer, int head);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    int squareSize(QSize area) const;
    int captionHeight() const;  // the tallest caption's lines; 0 without captions
    int captionWidth() const;   // the widest caption line; 0 without captions
    QRect squareRectIn(QSize area, int layer, int head) const;
    void paintGrid(QPainter &painter, QSize area, bool outlineSelection) const;

    LayeredAttention m_attention;
    std::vector<std::vector<QString>> m_captions;
    QStringList m_rowTokens;
    QStringList m_columnTokens;
    int m_layer = 0;
    int m_head = 0;
};
