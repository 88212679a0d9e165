#include "engine/core/parameterversions.h"

ParameterVersions parameterVersions(const torch::nn::Module &module)
{
    ParameterVersions versions;
    for (const auto &p : module.parameters())
        versions.emplace_back(p.data_ptr(), p._version());
    return versions;
}
