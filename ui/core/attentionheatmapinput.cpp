// AttentionHeatmap's cells chosen by hand: the mouse, the keyboard and what a screen reader hears.
#include "ui/core/attentionheatmap.h"

#include "ui/core/focusframe.h"

#include <QKeyEvent>
#include <QToolTip>

#include <algorithm>
#include <cmath>

void AttentionHeatmap::keyPressEvent(QKeyEvent *event)
{
    if (rows() == 0 || columns() == 0) {
        QCustomPlot::keyPressEvent(event);
        return;
    }
    // The first key pressed without a selection selects the top-left cell, then keys move from there.
    const bool none = m_selectedRow < 0;
    int row = none ? 0 : m_selectedRow;
    int column = none ? 0 : m_selectedColumn;
    const bool control = event->modifiers().testFlag(Qt::ControlModifier);
    switch (event->key()) {
    case Qt::Key_Left:
        column -= none ? 0 : 1;
        break;
    case Qt::Key_Right:
        column += none ? 0 : 1;
        break;
    case Qt::Key_Up:
        row -= none ? 0 : 1;
        break;
    case Qt::Key_Down:
        row += none ? 0 : 1;
        break;
    case Qt::Key_Home:
        column = 0;
        row = control ? 0 : row;
        break;
    case Qt::Key_End:
        column = columns() - 1;
        row = control ? rows() - 1 : row;
        break;
    case Qt::Key_PageUp:  // every row is on screen: a page is the whole column
        row = 0;
        break;
    case Qt::Key_PageDown:
        row = rows() - 1;
        break;
    case Qt::Key_Return:
    case Qt::Key_Enter:
    case Qt::Key_Space:
        selectCell(row, column);  // again, so a listener can open its view of the cell
        return;
    default:
        QCustomPlot::keyPressEvent(event);
        return;
    }
    row = std::clamp(row, 0, rows() - 1);
    column = std::clamp(column, 0, columns() - 1);
    if (none || row != m_selectedRow || column != m_selectedColumn)
        selectCell(row, column);
}

void AttentionHeatmap::paintEvent(QPaintEvent *event)
{
    QCustomPlot::paintEvent(event);
    paintFocusFrame(*this);
}

void AttentionHeatmap::focusInEvent(QFocusEvent *event)
{
    QCustomPlot::focusInEvent(event);
    update();
}

void AttentionHeatmap::focusOutEvent(QFocusEvent *event)
{
    QCustomPlot::focusOutEvent(event);
    update();
}

QString AttentionHeatmap::cellReadout(int row, int column) const
{
    return tr("%1 '%2' <- %3 '%4': %5")
        .arg(m_rowRole, m_outputTokens[row], m_columnRole, m_sourceTokens[column])
        .arg(double(weight(row, column)), 0, 'f', 2);
}

void AttentionHeatmap::updateAccessibleDescription()
{
    if (rows() == 0)
        return;  // the message shown says why
    if (m_selectedRow >= 0) {
        setAccessibleDescription(tr("Selected: %1").arg(cellReadout(m_selectedRow, m_selectedColumn)));
        return;
    }
    setAccessibleDescription(tr("Attention weights from 0 to 1, %1 rows (%2) by %3 columns (%4). "
                                "Arrow keys select a cell.")
                                 .arg(rows()).arg(yAxis->label()).arg(columns()).arg(xAxis->label()));
}

bool AttentionHeatmap::cellAt(const QPointF &pixel, int *row, int *column) const
{
    if (rows() == 0 || columns() == 0 || !axisRect()->rect().contains(pixel.toPoint()))
        return false;
    const int c = int(std::floor(xAxis->pixelToCoord(pixel.x()) + 0.5));
    const int r = int(std::floor(yAxis->pixelToCoord(pixel.y()) + 0.5));
    if (r < 0 || r >= rows() || c < 0 || c >= columns())
        return false;
    *row = r;
    *column = c;
    return true;
}

void AttentionHeatmap::onMousePress(QMouseEvent *event)
{
    int row = -1;
    int column = -1;
    if (event->button() == Qt::LeftButton && cellAt(event->position(), &row, &column))
        selectCell(row, column);
}

void AttentionHeatmap::onMouseMove(QMouseEvent *event)
{
    int row = -1;
    int column = -1;
    if (!cellAt(event->position(), &row, &column)) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(event->globalPosition().toPoint(), cellReadout(row, column), this);
}

void AttentionHeatmap::selectCell(int row, int column)
{
    if (row < 0 || row >= rows() || column < 0 || column >= columns()) {
        clearSelection();
        return;
    }
    m_selectedRow = row;
    m_selectedColumn = column;
    updateSelectionItems();
    updateAccessibleDescription();
    replot(rpQueuedReplot);
    emit cellSelected(row, column, double(weight(row, column)));
}

void AttentionHeatmap::clearSelection()
{
    m_selectedRow = m_selectedColumn = -1;
    updateSelectionItems();
    updateAccessibleDescription();
    replot(rpQueuedReplot);
}
