#include "engine/selfattention/attentionreflection.h"

#include <cmath>
#include <stdexcept>

double entropyNats(const Matrix &weights, int row)
{
    double h = 0;
    for (int c = 0; c < weights.columns; ++c) {
        const double p = weights.at(row, c);
        if (p > 0)
            h -= p * std::log(p);
    }
    return h;
}

AttentionReflection reflectOn(const Matrix &weights)
{
    if (weights.rows < 1 || weights.rows != weights.columns)
        throw std::invalid_argument("attention weights must be a square matrix with at least one row");
    const int n = weights.rows;
    AttentionReflection r;
    for (int i = 0; i < n; ++i) {
        int strongest = 0;
        for (int j = 1; j < n; ++j)
            if (weights.at(i, j) > weights.at(i, strongest))
                strongest = j;
        r.strongestKey.push_back(strongest);
        r.entropy.push_back(entropyNats(weights, i));
        if (r.mostFocused < 0 || r.entropy.back() < r.entropy[std::size_t(r.mostFocused)])
            r.mostFocused = i;
    }
    double squares = 0, largest = -1;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            const double difference = weights.at(i, j) - weights.at(j, i);
            squares += difference * difference;
            if (i != j && difference > largest) {
                largest = difference;
                r.asymmetricQuery = i;
                r.asymmetricKey = j;
            }
        }
    r.asymmetry = std::sqrt(squares);
    return r;
}
