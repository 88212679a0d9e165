#pragma once

#include <cstddef>
#include <vector>

// A small dense matrix of doubles, row-major, for the hand-sized algebra of the self-attention
// exercise (a handful of rows and columns), where torch would only hide the arithmetic.
struct Matrix {
    int rows = 0;
    int columns = 0;
    std::vector<double> values;  // rows x columns

    Matrix() = default;
    Matrix(int rows, int columns, double fill = 0.0);
    // Throws std::invalid_argument unless every row has the same length.
    static Matrix fromRows(const std::vector<std::vector<double>> &rows);

    double &at(int row, int column) { return values[std::size_t(row) * std::size_t(columns) + std::size_t(column)]; }
    double at(int row, int column) const { return values[std::size_t(row) * std::size_t(columns) + std::size_t(column)]; }
    bool isEmpty() const { return values.empty(); }
};

// a x b; throws std::invalid_argument when a.columns != b.rows.
Matrix multiply(const Matrix &a, const Matrix &b);
Matrix transposed(const Matrix &m);
