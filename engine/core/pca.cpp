#include "engine/core/pca.h"

#include "engine/core/torchapi.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace {

void checkShape(const std::vector<float> &values, int rows, int columns)
{
    if (rows < 0 || columns < 0)
        throw std::invalid_argument("matrix shape must not be negative");
    if (values.size() != std::size_t(rows) * std::size_t(columns))
        throw std::invalid_argument("matrix holds " + std::to_string(values.size())
                                    + " values, expected " + std::to_string(rows) + " x "
                                    + std::to_string(columns));
}

std::vector<double> toVector(const torch::Tensor &tensor)
{
    const torch::Tensor dense = tensor.contiguous();
    const double *begin = dense.data_ptr<double>();
    return std::vector<double>(begin, begin + dense.numel());
}

// Extends the orthonormal rows of `axes` to `count` rows. Each new row starts from the unit
// vector the rows so far cover least and keeps only its part orthogonal to them.
torch::Tensor completeBasis(torch::Tensor axes, int64_t count)
{
    while (axes.size(0) < count) {
        const int64_t least = axes.square().sum(0).argmin().item<int64_t>();
        torch::Tensor axis = -axes.select(1, least).matmul(axes);
        axis[least].add_(1);
        axes = torch::cat({axes, (axis / axis.norm()).unsqueeze(0)});
    }
    return axes;
}

// An eigenvector's sign is arbitrary and LAPACK's choice may change with tiny changes of the
// data: flip each row so that its largest-magnitude entry (the first of equals) is positive.
torch::Tensor fixSigns(const torch::Tensor &axes)
{
    const torch::Tensor largest = axes.gather(1, axes.abs().argmax(1, /*keepdim=*/true));
    return axes * (1 - 2 * (largest < 0).to(torch::kDouble));
}

} // namespace

PrincipalComponents principalComponents(const std::vector<float> &values, int rows, int columns,
                                        int components)
{
    checkShape(values, rows, columns);
    if (components < 0)
        throw std::invalid_argument("number of components must not be negative");

    PrincipalComponents result;
    result.dimensions = columns;
    result.components = std::min(components, columns);
    const int k = result.components;
    result.mean.assign(std::size_t(columns), 0.0);
    if (k == 0)
        return result;

    const torch::NoGradGuard noGrad;
    const auto doubles = torch::TensorOptions().dtype(torch::kDouble);
    torch::Tensor centred = torch::zeros({0, columns}, doubles);
    torch::Tensor axes = torch::zeros({0, columns}, doubles);
    if (rows > 0) {
        // from_blob only reads here: the conversion to double copies.
        const torch::Tensor data = torch::from_blob(const_cast<float *>(values.data()), {rows, columns},
                                                    torch::kFloat).to(torch::kDouble);
        // Sum, then divide: n equal floats sum exactly in double, so equal rows centre to exactly 0.
        const torch::Tensor mean = data.sum(0) / rows;
        result.mean = toVector(mean);
        centred = data - mean;
        // Rows of Vh: the right singular vectors, by descending singular value.
        const torch::Tensor vh = std::get<2>(torch::linalg_svd(centred, /*full_matrices=*/false));
        axes = vh.narrow(0, 0, std::min<int64_t>(k, vh.size(0)));
    }
    axes = fixSigns(completeBasis(axes, k));

    const torch::Tensor projected = centred.matmul(axes.t());
    const double total = centred.square().sum().item<double>();
    const torch::Tensor variance = projected.square().sum(0);
    result.axes = toVector(axes);
    result.projected = toVector(projected);
    result.explainedVariance = toVector(total > 0 ? (variance / total).clamp(0, 1) : torch::zeros_like(variance));
    return result;
}
