#include "engine/selfattention/scaleddotproductattention.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace {

std::string shape(const Matrix &m)
{
    return std::to_string(m.rows) + "x" + std::to_string(m.columns);
}

} // namespace

ScaledDotProductAttention ScaledDotProductAttention::compute(const Matrix &x, const Matrix &wq, const Matrix &wk,
                                                             const Matrix &wv)
{
    if (x.rows < 1 || x.columns < 1)
        throw std::invalid_argument("X must have at least one row and one column, not " + shape(x));
    for (const Matrix *w : {&wq, &wk, &wv})
        if (w->rows != x.columns || w->columns < 1 || w->columns != wq.columns)
            throw std::invalid_argument("W_Q, W_K and W_V must all be " + std::to_string(x.columns)
                                        + "x d_k; got " + shape(wq) + ", " + shape(wk) + ", " + shape(wv));
    ScaledDotProductAttention a;
    a.x = x;
    a.wq = wq;
    a.wk = wk;
    a.wv = wv;
    a.q = multiply(x, wq);
    a.k = multiply(x, wk);
    a.v = multiply(x, wv);
    a.scores = multiply(a.q, transposed(a.k));
    // Dot products of d_k terms grow like √d_k; dividing keeps softmax out of its flat tails.
    const double scale = 1.0 / std::sqrt(double(wq.columns));
    for (double &s : a.scores.values)
        s *= scale;
    a.weights = softmaxRows(a.scores);
    a.output = multiply(a.weights, a.v);
    return a;
}

Matrix softmaxRows(const Matrix &scores)
{
    Matrix weights(scores.rows, scores.columns);
    for (int r = 0; r < scores.rows; ++r) {
        double largest = -HUGE_VAL;
        for (int c = 0; c < scores.columns; ++c)
            largest = std::max(largest, scores.at(r, c));
        double sum = 0;
        for (int c = 0; c < scores.columns; ++c) {
            weights.at(r, c) = std::exp(scores.at(r, c) - largest);
            sum += weights.at(r, c);
        }
        for (int c = 0; c < scores.columns; ++c)
            weights.at(r, c) /= sum;
    }
    return weights;
}
