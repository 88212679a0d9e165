#pragma once

#include "engine/charlm/charattribution.h"

#include <QWidget>

class QPainter;

// The explained characters in a row of cells per method (saliency, then integrated gradients),
// one column per character so the rows can be compared, each cell shaded by its score scaled to
// the row's largest: saliency from white to red, integrated gradients red where the character
// raises p(next) and blue where it lowers it. The character explained follows each row, outlined.
// Long contexts wrap. Hover a cell for its scores.
class CharAttributionStrip : public QWidget
{
    Q_OBJECT
public:
    explicit CharAttributionStrip(QWidget *parent = nullptr);

    void setAttribution(const CharAttribution &attribution);
    void clear(const QString &placeholder);
    bool hasAttribution() const { return !m_attribution.characters.empty(); }
    const CharAttribution &attribution() const { return m_attribution; }

    // The cell's colour for method `method` at character `index`.
    QColor colourAt(CharAttributionMethod method, int index) const;
    int cellAt(const QPoint &point) const;  // the character under `point`, -1 outside every cell
    // The score of `method` at `index` over the row's largest magnitude, in [-1, 1].
    double shareOfLargest(CharAttributionMethod method, int index) const;

    // Draws the rows into a `width` wide area at the painter's origin; paintedHeight() says how tall.
    void paint(QPainter &painter, int width) const;
    int paintedHeight(int width) const;

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override { return paintedHeight(width); }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;

private:
    int labelWidth() const;
    int cellWidth() const;
    int rowHeight() const;
    int columnsFor(int width) const;
    QRect cellRect(int index, int method, int width) const;

    CharAttribution m_attribution;
    QString m_placeholder;
    QFont m_labelFont;  // the method names, in the widget's usual font; the cells are monospaced
};

// The methods in the order the strip shows them.
const std::vector<CharAttributionMethod> &charAttributionMethods();
