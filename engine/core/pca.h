#pragma once

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

// LibTorch's SVD of the centred data. Where the data has fewer directions than `components`,
// the remaining axes complete an orthonormal basis. The fixed signs keep a refit of slightly
// changed data from mirroring its plot. Constant data gives zero explained variance, never NaN.
// Throws std::invalid_argument when `values` does not hold rows x columns numbers.
PrincipalComponents principalComponents(const std::vector<float> &values, int rows, int columns,
                                        int components = 2);
