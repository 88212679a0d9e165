#include "ui/selfattention/matrixtable.h"

#include <QHeaderView>
#include <QLocale>
#include <QScrollBar>

#include <algorithm>
#include <cmath>

namespace {

// The most rows and columns shown at once: the exercise's matrices are at most 8 x 8.
constexpr int kMostRowsShown = 12;
constexpr int kMostColumnsShown = 10;

}  // namespace

MatrixTable::MatrixTable(QWidget *parent) : QTableWidget(parent)
{
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionMode(QAbstractItemView::NoSelection);
    setFocusPolicy(Qt::NoFocus);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    horizontalHeader()->setMinimumSectionSize(20);
    verticalHeader()->setMinimumSectionSize(18);
}

void MatrixTable::setMatrix(const Matrix &matrix, const QStringList &rowLabels, const QStringList &columnLabels,
                            int decimals)
{
    m_matrix = matrix;
    clear();
    setRowCount(matrix.rows);
    setColumnCount(matrix.columns);
    setHorizontalHeaderLabels(columnLabels);
    setVerticalHeaderLabels(rowLabels);
    const QLocale locale;
    for (int r = 0; r < matrix.rows; ++r) {
        for (int c = 0; c < matrix.columns; ++c) {
            // -0.004 rounds to "-0.00"; a bare 0 reads better and is what a hand calculation gives.
            const double shown = std::abs(matrix.at(r, c)) < 0.5 * std::pow(10.0, -decimals) ? 0.0 : matrix.at(r, c);
            auto *item = new QTableWidgetItem(locale.toString(shown, 'f', decimals));
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            item->setToolTip(locale.toString(matrix.at(r, c), 'g', 10));
            setItem(r, c, item);
        }
    }
    resizeColumnsToContents();
    resizeRowsToContents();
    updateGeometry();
}

void MatrixTable::clearMatrix()
{
    m_matrix = Matrix();
    clear();
    setRowCount(0);
    setColumnCount(0);
    updateGeometry();
}

double MatrixTable::value(int row, int column) const
{
    if (row < 0 || row >= m_matrix.rows || column < 0 || column >= m_matrix.columns)
        return 0;
    return m_matrix.at(row, column);
}

QSize MatrixTable::sizeHint() const
{
    int width = verticalHeader()->sizeHint().width();
    for (int c = 0; c < std::min(columnCount(), kMostColumnsShown); ++c)
        width += horizontalHeader()->sectionSize(c);
    int height = horizontalHeader()->sizeHint().height();
    for (int r = 0; r < std::min(rowCount(), kMostRowsShown); ++r)
        height += verticalHeader()->sectionSize(r);
    if (rowCount() > kMostRowsShown)
        width += verticalScrollBar()->sizeHint().width();
    if (columnCount() > kMostColumnsShown)
        height += horizontalScrollBar()->sizeHint().height();
    const int frame = 2 * frameWidth();
    return QSize(width + frame, height + frame);
}
