#pragma once

#include "engine/core/torchapi.h"

#include <QString>

#include <vector>

// One of our optimisers and LibTorch's, `steps` steps side by side on the same loss from the same
// start: every step must move each parameter's version (caches of derived weights notice a step
// only by it) and keep it within rtol/atol of LibTorch's. `step()` steps ours. Returns what went
// wrong first, or nothing.
template <typename Step, typename Reference, typename Loss>
QString stepAlongsideLibTorch(std::vector<torch::Tensor> &mine, std::vector<torch::Tensor> &theirs, Step step,
                              Reference &reference, Loss loss, double rtol, double atol, int steps = 25)
{
    for (int s = 0; s < steps; ++s) {
        for (auto &p : mine)
            if (p.grad().defined())
                p.mutable_grad().zero_();
        reference.zero_grad();
        loss(mine).backward();
        loss(theirs).backward();
        std::vector<int64_t> versions;
        for (const auto &p : mine)
            versions.push_back(p._version());
        step();
        reference.step();
        for (std::size_t i = 0; i < mine.size(); ++i) {
            if (mine[i]._version() <= versions[i])
                return QStringLiteral("parameter %1's version did not move at step %2").arg(i).arg(s);
            if (!torch::allclose(mine[i], theirs[i], rtol, atol))
                return QStringLiteral("parameter %1 diverged at step %2").arg(i).arg(s);
        }
    }
    return {};
}
