#pragma once

#include <QStringList>

#include <vector>

// A small attention matrix for the heatmap's tests: four output words over five input tokens.
const QStringList kSource = {"the", "cat", "sat", "down", "<EOS>"};
const QStringList kOutput = {"down", "sat", "cat", "the"};

// Distinct weights so a wrong row or column shows: (row * 5 + column) / 20.
inline std::vector<float> rampWeights()
{
    std::vector<float> weights;
    for (int row = 0; row < kOutput.size(); ++row)
        for (int column = 0; column < kSource.size(); ++column)
            weights.push_back(float(row * kSource.size() + column) / 20.0f);
    return weights;
}
