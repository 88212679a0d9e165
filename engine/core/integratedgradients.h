#pragma once

#include "engine/core/attributionmethods.h"
#include "engine/core/torchapi.h"

#include <vector>

// The arithmetic both sequence labs' gradient methods share, once their gradients along the
// straight line from the baseline e' to the embeddings e are known.

// The points of that line, as fractions of the way: the m midpoints of integrated gradients'
// Riemann sum (when it is asked for), then 0 and 1.
std::vector<double> integrationPoints(const std::vector<AttributionMethod> &methods, int integrationSteps);

// The weights (2, points) that sum the gradients at those points into what the gradient methods
// read: row 0, their mean over the midpoints (none without integrated gradients), row 1, the
// gradient at e. The sums are linear, so a slice of the points sums apart with its columns.
torch::Tensor gradientSumWeights(int64_t points);

// The line's gradients as the methods read them, for the output steps asked: f at each point
// (steps, points) and the gradients summed by gradientSumWeights() (steps, 2, S, E).
struct LineGradients {
    torch::Tensor values;
    torch::Tensor sums;
};

// Slices of the points put together: their values side by side, their sums added.
LineGradients joinSlices(const std::vector<LineGradients> &slices);

// A gradient method's scores (steps, words) over the first `words` source positions, from `sums`
// (steps, 2, S, E) made with those weights, the embeddings (S, E) and the baseline (S, E): the
// gradient's norm at e, e . the gradient there, or (e - e') . the mean of the gradients at the
// midpoints.
torch::Tensor gradientMethodScores(AttributionMethod method, const torch::Tensor &sums, const torch::Tensor &embedded,
                                   const torch::Tensor &baseline, int64_t words);
