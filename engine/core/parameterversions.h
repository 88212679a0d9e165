#pragma once

#include "engine/core/torchapi.h"

#include <mutex>
#include <utility>
#include <vector>

// What identifies a module's current weights: each parameter's storage and version counter, which
// every in-place update (an optimiser step, copy_, load) bumps. Caches of values derived from
// the weights keep one and rebuild when it changes.
using ParameterVersions = std::vector<std::pair<const void *, int64_t>>;

ParameterVersions parameterVersions(const torch::nn::Module &module);

// A value derived from a module's weights, rebuilt when they change. Threads may read it at once
// (validation runs a batch's rows on several): the check and the rebuild happen under a lock.
template <typename T>
class WeightCache
{
public:
    template <typename Build>
    T get(const torch::nn::Module &module, const Build &build)
    {
        ParameterVersions versions = parameterVersions(module);
        std::lock_guard<std::mutex> lock(m_mutex);
        if (versions != m_versions) {
            m_value = build();
            m_versions = std::move(versions);
        }
        return m_value;
    }

private:
    std::mutex m_mutex;
    T m_value;
    ParameterVersions m_versions;
};
