#pragma once

#include "engine/selfattention/matrix.h"

#include <QTableWidget>

// A small read-only matrix: row and column headers, numbers to a fixed number of decimals (full
// precision in the tooltip), and exactly as large as its contents so a grid of them needs no
// scroll bars of its own; a large one (a trained head's, d_model 128) shows its first rows and
// columns and scrolls.
class MatrixTable : public QTableWidget
{
    Q_OBJECT
public:
    explicit MatrixTable(QWidget *parent = nullptr);

    // Labels missing for a row or column are left blank.
    void setMatrix(const Matrix &matrix, const QStringList &rowLabels, const QStringList &columnLabels,
                   int decimals = 2);
    void clearMatrix();
    double value(int row, int column) const;  // as given, not as shown; 0 outside

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return sizeHint(); }

private:
    Matrix m_matrix;
};
