#pragma once

#include <QStringList>
#include <QWidget>

#include <vector>

class QPainter;

// Self-attention drawn as a graph: the words on a circle in reading order, clockwise from the
// top, and an arrow from each query word to each key word whose width and colour (the heatmap's
// scale) grow with the weight. i→j and j→i bend to opposite sides so they never overlap, and a
// word's attention to itself is a loop outside the circle. Click a word to single out its arrows.
class AttentionArrows : public QWidget
{
    Q_OBJECT
public:
    explicit AttentionArrows(QWidget *parent = nullptr);

    // `weights` is tokens x tokens, row-major, row = query; a size mismatch shows a message.
    void setWeights(const QStringList &tokens, const std::vector<float> &weights);
    void showMessage(const QString &message);  // no arrows, a centred grey message
    void setTitle(const QString &title);

    int wordCount() const { return int(m_tokens.size()); }
    float weight(int query, int key) const;  // 0 outside
    int selectedQuery() const { return m_selected; }
    void selectQuery(int query);  // out of range: all arrows equal again
    // Where word `index` is drawn in a widget of the current size; for clicks and tests.
    QPointF wordCentre(int index) const;
    // The stroke width in pixels for `weight` at zoom 1: a weight of 0 is a hairline.
    static double strokeWidth(double weight);

    // Renders at exactly width x height pixels; .png or .jpg by suffix, written atomically.
    bool exportImage(const QString &path, int width, int height, QString *error = nullptr) const;
    void render(QPainter &painter, const QRectF &area) const;

    QSize sizeHint() const override { return QSize(420, 380); }
    QSize minimumSizeHint() const override { return QSize(240, 220); }

signals:
    void querySelected(int query);  // -1: none

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;

private:
    struct Layout;
    Layout layoutFor(const QRectF &area) const;

    QStringList m_tokens;
    std::vector<float> m_weights;
    QString m_title;
    QString m_message;
    int m_selected = -1;
};
