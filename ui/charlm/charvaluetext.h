#pragma once

#include <qcustomplot.h>

#include <QWidget>

#include <functional>
#include <string>
#include <vector>

class QPainter;

// A text drawn one character to a cell, each with a value shown as a colour: behind the character
// (a hidden unit's activation, blue below zero, red above) or in a strip beneath it (the entropy a
// sampled character was drawn with, dark for certain, yellow for unsure). Lines wrap at word
// boundaries to the widget's width and a line break shows as ↵. Hover a character for its value;
// click one to select it.
class CharValueText : public QWidget
{
    Q_OBJECT
public:
    enum class Style { Background, Strip };
    struct Cell {
        char32_t character = 0;
        double value = 0;
        bool hasValue = false;  // false: drawn grey and plain (a prime, a character the model lacks)
    };

    explicit CharValueText(Style style, QWidget *parent = nullptr);

    // Values are coloured on [low, high]: Background maps them diverging around zero, Strip from
    // low to high.
    void setCells(std::vector<Cell> cells, double low, double high);
    void setPlaceholder(const QString &text);  // shown when there are no cells
    // The tooltip of cell i; without one, the value is shown.
    void setToolTipText(std::function<QString(int)> text) { m_toolTip = std::move(text); }
    void setSelected(int index);  // -1: none

    int cellCount() const { return int(m_cells.size()); }
    const Cell &cell(int index) const { return m_cells.at(size_t(index)); }
    int selected() const { return m_selected; }
    QColor colourOf(double value) const;
    int cellAt(const QPoint &point) const;  // -1 outside every cell

    // PNG or JPEG of the text as shown, at twice the screen's pixels.
    bool exportImage(const QString &path, QString *error) const;

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void cellClicked(int index);

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    struct Placed {
        int row = 0;
        int column = 0;
    };
    std::vector<Placed> layoutFor(int width, int *rows) const;
    int columnsFor(int width) const;
    QRect cellRect(const Placed &placed) const;
    void paintText(QPainter &painter, const std::vector<Placed> &placed) const;
    int cellWidth() const;
    int lineHeight() const;

    Style m_style;
    mutable QCPColorGradient m_gradient;  // Strip's scale; color() fills its cache
    std::vector<Cell> m_cells;
    std::vector<Placed> m_placed;
    double m_low = 0;
    double m_high = 1;
    int m_selected = -1;
    QString m_placeholder;
    std::function<QString(int)> m_toolTip;
};

// Background's colours: blue for -1, white for 0, red for 1 (ColorBrewer's RdBu, reversed).
QColor divergingColour(double t);

// The character a cell shows: itself, or a visible stand-in for a line break, tab or control.
QString visibleCharacter(char32_t c);
// A probability as a whole percentage, "<1%" below half a percent.
QString wholePercent(double probability);
