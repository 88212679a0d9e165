#pragma once

#include <utility>
#include <vector>

// The main directions of variation of a row-major matrix (one sample per row), largest first.
struct PrincipalComponents {
    int components = 0;
    int dimensions = 0;
    std::vector<double> mean;               // per dimension, subtracted before projecting
    std::vector<double> axes;               // components x dimensions, unit vectors, sign fixed so the largest-|.| entry is positive
    std::vector<double> explainedVariance;  // ratio 0..1 per component, descending
    std::vector<double> projected;          // rows x components: (x - mean) . axis
};

// Exact eigen-decomposition (Jacobi) of the covariance, or of the Gram matrix when there are fewer
// rows than columns. Constant data gives zero explained variance, never NaN. Throws
// std::invalid_argument when `values` does not hold rows x columns numbers.
PrincipalComponents principalComponents(const std::vector<float> &values, int rows, int columns,
                                        int components = 2);

// The `count` rows most similar to row `index` by cosine similarity, best first, `index` itself
// excluded; a zero row has similarity 0 to everything. Throws std::invalid_argument on bad sizes.
std::vector<std::pair<int, double>> nearestByCosine(const std::vector<float> &values, int rows,
                                                    int columns, int index, int count);
