#include "engine/selfattention/positionalencoding.h"

#include <cmath>

Matrix sinusoidalPositions(int tokens, int dModel)
{
    Matrix positions(tokens, dModel);
    for (int p = 0; p < tokens; ++p)
        for (int c = 0; c < dModel; ++c) {
            const double angle = p / std::pow(10000.0, double(c - c % 2) / dModel);
            positions.at(p, c) = c % 2 == 0 ? std::sin(angle) : std::cos(angle);
        }
    return positions;
}

Matrix withPositions(const Matrix &x)
{
    Matrix sum = sinusoidalPositions(x.rows, x.columns);
    for (std::size_t i = 0; i < sum.values.size(); ++i)
        sum.values[i] += x.values[i];
    return sum;
}
