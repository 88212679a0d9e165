#include "engine/core/pca.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace {

// Jacobi converges quadratically; a few sweeps reach double precision, this bounds odd cases.
constexpr int kMaxSweeps = 60;
// Off-diagonal energy left, relative to the whole matrix, at which the matrix counts as diagonal.
constexpr double kOffDiagonalTolerance = 1e-26;
// Gram eigenvalues this small (relative to the total variance) carry no direction worth mapping back.
constexpr double kNullEigenvalue = 1e-12;

void checkShape(const std::vector<float> &values, int rows, int columns)
{
    if (rows < 0 || columns < 0)
        throw std::invalid_argument("matrix shape must not be negative");
    if (values.size() != std::size_t(rows) * std::size_t(columns))
        throw std::invalid_argument("matrix holds " + std::to_string(values.size())
                                    + " values, expected " + std::to_string(rows) + " x "
                                    + std::to_string(columns));
}

// Eigenvalues of the symmetric n x n matrix `a` (overwritten) by cyclic Jacobi rotations. Column k
// of `vectors` (row-major n x n) is the unit eigenvector of eigenvalue k.
std::vector<double> jacobiEigen(std::vector<double> &a, int n, std::vector<double> &vectors)
{
    const auto at = [&](int row, int column) -> double & { return a[std::size_t(row) * n + column]; };
    const auto v = [&](int row, int column) -> double & {
        return vectors[std::size_t(row) * n + column];
    };
    vectors.assign(std::size_t(n) * n, 0.0);
    for (int i = 0; i < n; ++i)
        v(i, i) = 1.0;

    for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
        double offDiagonal = 0;
        double diagonal = 0;
        for (int p = 0; p < n; ++p) {
            diagonal += at(p, p) * at(p, p);
            for (int q = p + 1; q < n; ++q)
                offDiagonal += 2 * at(p, q) * at(p, q);
        }
        if (offDiagonal <= kOffDiagonalTolerance * (offDiagonal + diagonal))
            break;
        for (int p = 0; p < n; ++p) {
            for (int q = p + 1; q < n; ++q) {
                const double apq = at(p, q);
                if (apq == 0)
                    continue;
                // Rotation angle that zeroes a(p,q) (Numerical Recipes' stable form).
                const double theta = (at(q, q) - at(p, p)) / (2 * apq);
                const double t = (theta >= 0 ? 1.0 : -1.0) / (std::abs(theta) + std::hypot(theta, 1.0));
                const double c = 1 / std::sqrt(t * t + 1);
                const double s = t * c;
                for (int k = 0; k < n; ++k) {
                    const double akp = at(k, p);
                    const double akq = at(k, q);
                    at(k, p) = c * akp - s * akq;
                    at(k, q) = s * akp + c * akq;
                }
                for (int k = 0; k < n; ++k) {
                    const double apk = at(p, k);
                    const double aqk = at(q, k);
                    at(p, k) = c * apk - s * aqk;
                    at(q, k) = s * apk + c * aqk;
                }
                for (int k = 0; k < n; ++k) {
                    const double vkp = v(k, p);
                    const double vkq = v(k, q);
                    v(k, p) = c * vkp - s * vkq;
                    v(k, q) = s * vkp + c * vkq;
                }
            }
        }
    }
    std::vector<double> eigenvalues(std::size_t(n), 0.0);
    for (int i = 0; i < n; ++i)
        eigenvalues[std::size_t(i)] = at(i, i);
    return eigenvalues;
}

double dot(const double *a, const double *b, int n)
{
    double sum = 0;
    for (int i = 0; i < n; ++i)
        sum += a[i] * b[i];
    return sum;
}

// The unit vector most orthogonal to `axes`: used where the data has no variance left to show.
std::vector<double> completingAxis(const std::vector<std::vector<double>> &axes, int dimensions)
{
    std::vector<double> best;
    double bestNorm = -1;
    for (int j = 0; j < dimensions; ++j) {
        std::vector<double> candidate(std::size_t(dimensions), 0.0);
        candidate[std::size_t(j)] = 1.0;
        for (const std::vector<double> &axis : axes) {
            const double along = axis[std::size_t(j)];
            for (int i = 0; i < dimensions; ++i)
                candidate[std::size_t(i)] -= along * axis[std::size_t(i)];
        }
        const double norm = std::sqrt(dot(candidate.data(), candidate.data(), dimensions));
        if (norm > bestNorm) {
            bestNorm = norm;
            best = std::move(candidate);
        }
    }
    for (double &x : best)
        x /= bestNorm;
    return best;
}

void fixSign(std::vector<double> &axis)
{
    std::size_t largest = 0;
    for (std::size_t i = 1; i < axis.size(); ++i)
        if (std::abs(axis[i]) > std::abs(axis[largest]))
            largest = i;
    if (!axis.empty() && axis[largest] < 0)
        for (double &x : axis)
            x = -x;
}

} // namespace

PrincipalComponents principalComponents(const std::vector<float> &values, int rows, int columns,
                                        int components)
{
    checkShape(values, rows, columns);
    if (components < 0)
        throw std::invalid_argument("number of components must not be negative");

    PrincipalComponents result;
    result.dimensions = columns;
    result.components = std::min(components, columns);
    const int k = result.components;
    result.mean.assign(std::size_t(columns), 0.0);
    if (k == 0)
        return result;

    // Sum, then divide: n equal floats sum exactly in double, so equal rows centre to exactly 0.
    std::vector<double> centred(values.begin(), values.end());
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < columns; ++c)
            result.mean[std::size_t(c)] += centred[std::size_t(r) * columns + c];
    for (double &m : result.mean)
        m /= rows;
    double total = 0;
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < columns; ++c) {
            double &x = centred[std::size_t(r) * columns + c];
            x -= result.mean[std::size_t(c)];
            total += x * x;
        }
    }
    const auto row = [&](int r) { return centred.data() + std::size_t(r) * columns; };

    // Decompose the smaller of X^T X (columns^2) and X X^T (rows^2); both share the non-zero
    // eigenvalues, and an eigenvector u of X X^T maps to the axis X^T u.
    const bool useGram = rows < columns;
    const int n = useGram ? rows : columns;
    std::vector<double> matrix(std::size_t(n) * n, 0.0);
    if (useGram) {
        for (int i = 0; i < rows; ++i)
            for (int j = i; j < rows; ++j)
                matrix[std::size_t(i) * n + j] = matrix[std::size_t(j) * n + i] = dot(row(i), row(j), columns);
    } else {
        for (int r = 0; r < rows; ++r) {
            const double *x = row(r);
            for (int i = 0; i < columns; ++i)
                for (int j = i; j < columns; ++j)
                    matrix[std::size_t(i) * n + j] += x[i] * x[j];
        }
        for (int i = 0; i < columns; ++i)
            for (int j = 0; j < i; ++j)
                matrix[std::size_t(i) * n + j] = matrix[std::size_t(j) * n + i];
    }
    std::vector<double> vectors;
    const std::vector<double> eigenvalues = jacobiEigen(matrix, n, vectors);
    std::vector<int> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return eigenvalues[std::size_t(a)] > eigenvalues[std::size_t(b)]; });

    std::vector<std::vector<double>> axes;
    for (int i = 0; i < k; ++i) {
        std::vector<double> axis(std::size_t(columns), 0.0);
        bool found = false;
        if (i < n) {
            const int e = order[std::size_t(i)];
            if (!useGram) {
                for (int c = 0; c < columns; ++c)
                    axis[std::size_t(c)] = vectors[std::size_t(c) * n + e];
                found = true;
            } else if (eigenvalues[std::size_t(e)] > kNullEigenvalue * total) {
                for (int r = 0; r < rows; ++r) {
                    const double weight = vectors[std::size_t(r) * n + e];
                    for (int c = 0; c < columns; ++c)
                        axis[std::size_t(c)] += weight * row(r)[c];
                }
                const double norm = std::sqrt(dot(axis.data(), axis.data(), columns));
                for (double &x : axis)
                    x /= norm;
                found = true;
            }
        }
        if (!found)
            axis = completingAxis(axes, columns);
        fixSign(axis);
        axes.push_back(std::move(axis));
    }

    result.projected.assign(std::size_t(rows) * k, 0.0);
    for (int i = 0; i < k; ++i) {
        double variance = 0;
        for (int r = 0; r < rows; ++r) {
            const double p = dot(row(r), axes[std::size_t(i)].data(), columns);
            result.projected[std::size_t(r) * k + i] = p;
            variance += p * p;
        }
        result.explainedVariance.push_back(total > 0 ? std::clamp(variance / total, 0.0, 1.0) : 0.0);
        result.axes.insert(result.axes.end(), axes[std::size_t(i)].begin(), axes[std::size_t(i)].end());
    }
    return result;
}

std::vector<std::pair<int, double>> nearestByCosine(const std::vector<float> &values, int rows,
                                                    int columns, int index, int count)
{
    checkShape(values, rows, columns);
    if (index < 0 || index >= rows)
        throw std::invalid_argument("row " + std::to_string(index) + " is out of range (0.."
                                    + std::to_string(rows - 1) + ")");
    const auto norm = [&](int r) {
        double sum = 0;
        for (int c = 0; c < columns; ++c) {
            const double x = values[std::size_t(r) * columns + c];
            sum += x * x;
        }
        return std::sqrt(sum);
    };
    const double indexNorm = norm(index);
    std::vector<std::pair<int, double>> similarities;
    for (int r = 0; r < rows; ++r) {
        if (r == index)
            continue;
        const double rowNorm = norm(r);
        double similarity = 0;
        if (indexNorm > 0 && rowNorm > 0) {
            double sum = 0;
            for (int c = 0; c < columns; ++c)
                sum += double(values[std::size_t(r) * columns + c])
                       * double(values[std::size_t(index) * columns + c]);
            similarity = sum / (indexNorm * rowNorm);
        }
        similarities.emplace_back(r, similarity);
    }
    std::stable_sort(similarities.begin(), similarities.end(),
                     [](const auto &a, const auto &b) { return a.second > b.second; });
    similarities.resize(std::min<std::size_t>(similarities.size(), std::size_t(std::max(count, 0))));
    return similarities;
}
