#pragma once

#include "engine/core/attributionmethods.h"
#include "engine/core/torchapi.h"

#include <vector>

// The arithmetic both sequence labs' gradient methods share, once their gradients along the
// straight line from the baseline e' to the embeddings e are known.

// The points of that line, as fractions of the way: the m midpoints of integrated gradients'
// Riemann sum (when it is asked for), then 0 and 1.
std::vector<double> integrationPoints(const std::vector<AttributionMethod> &methods, int integrationSteps);

// A gradient method's scores (steps, words) over the first `words` source positions, from
// `gradients` (steps, points, S, E) at integrationPoints(), the embeddings (S, E) and the
// baseline (S, E): the gradient's norm at e, e . the gradient there, or (e - e') . the mean of
// the gradients at the midpoints.
torch::Tensor gradientMethodScores(AttributionMethod method, const torch::Tensor &gradients,
                                   const torch::Tensor &embedded, const torch::Tensor &baseline, int64_t words);
