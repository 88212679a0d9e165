#include "engine/selfattention/matrix.h"

#include <stdexcept>
#include <string>

Matrix::Matrix(int rows, int columns, double fill)
    : rows(rows), columns(columns)
{
    if (rows < 0 || columns < 0)
        throw std::invalid_argument("matrix shape must not be negative");
    values.assign(std::size_t(rows) * std::size_t(columns), fill);
}

Matrix Matrix::fromRows(const std::vector<std::vector<double>> &rows)
{
    Matrix m(int(rows.size()), rows.empty() ? 0 : int(rows.front().size()));
    for (int r = 0; r < m.rows; ++r) {
        if (int(rows[std::size_t(r)].size()) != m.columns)
            throw std::invalid_argument("row " + std::to_string(r) + " has " + std::to_string(rows[std::size_t(r)].size())
                                        + " values, expected " + std::to_string(m.columns));
        for (int c = 0; c < m.columns; ++c)
            m.at(r, c) = rows[std::size_t(r)][std::size_t(c)];
    }
    return m;
}

Matrix multiply(const Matrix &a, const Matrix &b)
{
    if (a.columns != b.rows)
        throw std::invalid_argument("cannot multiply a " + std::to_string(a.rows) + "x" + std::to_string(a.columns)
                                    + " matrix by a " + std::to_string(b.rows) + "x" + std::to_string(b.columns) + " one");
    Matrix product(a.rows, b.columns);
    for (int r = 0; r < a.rows; ++r)
        for (int k = 0; k < a.columns; ++k)
            for (int c = 0; c < b.columns; ++c)
                product.at(r, c) += a.at(r, k) * b.at(k, c);
    return product;
}

Matrix transposed(const Matrix &m)
{
    Matrix t(m.columns, m.rows);
    for (int r = 0; r < m.rows; ++r)
        for (int c = 0; c < m.columns; ++c)
            t.at(c, r) = m.at(r, c);
    return t;
}
