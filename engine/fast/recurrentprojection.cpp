#include "engine/fast/recurrentprojection.h"

#include "engine/fast/matrixproduct.h"

#include <cstring>
#include <stdexcept>
#include <vector>

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

namespace {

// offset + input · weight, without autograd. Float matrices with a row-major weight go through
// matrixProduct, the weight read as stored; anything else through LibTorch's addmm.
torch::Tensor project(const torch::Tensor &input, const torch::Tensor &weight, const torch::Tensor &offset)
{
    const auto isFloat = [](const torch::Tensor &t) { return t.scalar_type() == torch::kFloat && t.device().is_cpu(); };
    const bool plainFloats = input.dim() == 2 && weight.dim() == 2 && isFloat(input) && isFloat(weight)
                             && weight.is_contiguous() && input.size(1) == weight.size(0);
    const int64_t rows = plainFloats ? input.size(0) : 0, columns = plainFloats ? weight.size(1) : 0;
    // A bias (one row for every row) or an addend of the output's shape.
    const bool bias = offset.defined() && offset.numel() == columns;
    const bool addend = offset.defined() && offset.dim() == 2 && offset.size(0) == rows && offset.size(1) == columns;
    const bool plainOffset = !offset.defined() || (isFloat(offset) && (bias || addend));
    if (!plainFloats || !plainOffset)
        return offset.defined() ? torch::addmm(offset, input, weight) : torch::mm(input, weight);
    const torch::Tensor x = input.contiguous();
    const int64_t depth = x.size(1);
    torch::Tensor y = torch::empty({rows, columns}, x.options());
    if (offset.defined()) {
        const torch::Tensor o = offset.contiguous();
        float *to = y.data_ptr<float>();
        const float *from = o.data_ptr<float>();
        const std::size_t rowBytes = std::size_t(columns) * sizeof(float);
        if (bias)
            for (int64_t r = 0; r < rows; ++r)
                std::memcpy(to + r * columns, from, rowBytes);
        else
            std::memcpy(to, from, std::size_t(rows) * rowBytes);
    }
    matrixProduct(false, false, int(rows), int(columns), int(depth), 1.0f, x.data_ptr<float>(), int(depth),
                  weight.data_ptr<float>(), int(columns), offset.defined() ? 1.0f : 0.0f, y.data_ptr<float>(),
                  int(columns));
    return y;
}

// What a projection's steps saw, shared by their backward functions.
struct Steps : torch::CustomClassHolder {
    // Detached, each laid out as it is multiplied: (in, out) for the steps, and its transpose
    // (out, in) for their backward. Usually one of them is the parameter itself.
    torch::Tensor weight, transposedWeight, bias;
    std::vector<torch::Tensor> inputs;
    std::vector<torch::Tensor> outputGradients;  // by step; undefined for a step the loss did not reach
};

c10::intrusive_ptr<Steps> stepsOf(AutogradContext *ctx)
{
    return c10::static_intrusive_pointer_cast<Steps>(ctx->saved_data["steps"].toCapsule());
}

// What a custom function takes for a tensor that may be missing.
c10::optional<torch::Tensor> optional(const torch::Tensor &t)
{
    return t.defined() ? c10::optional<torch::Tensor>(t) : c10::nullopt;
}

// Its output, a token each step takes as an input, makes the autograd engine run this backward
// only once every step's backward has run: then the steps' inputs and gradients are all there.
struct WeightGradient : torch::autograd::Function<WeightGradient> {
    static torch::Tensor forward(AutogradContext *ctx, const torch::Tensor &weight,
                                 const c10::optional<torch::Tensor> &bias, const c10::intrusive_ptr<Steps> &steps)
    {
        ctx->saved_data["steps"] = c10::IValue::make_capsule(steps);
        ctx->saved_data["hasBias"] = bias.has_value();
        return torch::zeros({1}, weight.options());
    }

    static variable_list backward(AutogradContext *ctx, variable_list)
    {
        const auto steps = stepsOf(ctx);
        std::vector<torch::Tensor> inputs, gradients;
        for (std::size_t t = 0; t < steps->inputs.size(); ++t)
            if (t < steps->outputGradients.size() && steps->outputGradients[t].defined()) {
                inputs.push_back(steps->inputs[t]);
                gradients.push_back(steps->outputGradients[t]);
            }
        if (gradients.empty())
            return {torch::Tensor(), torch::Tensor(), torch::Tensor()};
        const auto g = torch::cat(gradients);
        // Computed as (out, in), then viewed as (in, out): the layout of a torch::nn parameter
        // whose transpose `weight` usually is, so the gradient lands in it as one plain copy.
        const auto weightGradient = torch::mm(g.t(), torch::cat(inputs)).t();
        const auto biasGradient = ctx->saved_data["hasBias"].toBool() ? g.sum(0) : torch::Tensor();
        steps->inputs.clear();
        steps->outputGradients.clear();
        return {weightGradient, biasGradient, torch::Tensor()};
    }
};

// One step: its backward passes the gradient on to the input (and addend) and records it.
struct ProjectionStep : torch::autograd::Function<ProjectionStep> {
    static torch::Tensor forward(AutogradContext *ctx, const torch::Tensor &input,
                                 const c10::optional<torch::Tensor> &addend, const torch::Tensor & /*token*/,
                                 const c10::intrusive_ptr<Steps> &steps)
    {
        ctx->saved_data["steps"] = c10::IValue::make_capsule(steps);
        ctx->saved_data["step"] = int64_t(steps->inputs.size());
        ctx->saved_data["hasAddend"] = addend.has_value();
        steps->inputs.push_back(input.detach());
        return project(input, steps->weight, addend ? *addend : steps->bias);
    }

    static variable_list backward(AutogradContext *ctx, variable_list gradients)
    {
        const auto steps = stepsOf(ctx);
        const auto step = std::size_t(ctx->saved_data["step"].toInt());
        const torch::Tensor &g = gradients[0];
        if (steps->outputGradients.size() <= step)
            steps->outputGradients.resize(step + 1);
        steps->outputGradients[step] = g;
        return {ctx->needs_input_grad(0) ? project(g, steps->transposedWeight, {}) : torch::Tensor(),
                ctx->saved_data["hasAddend"].toBool() ? g : torch::Tensor(), torch::Tensor(), torch::Tensor()};
    }
};

}

RecurrentProjection::RecurrentProjection(torch::Tensor weight, torch::Tensor bias)
    : m_weight(std::move(weight))
    , m_bias(std::move(bias))
{
}

torch::Tensor RecurrentProjection::operator()(const torch::Tensor &input, const torch::Tensor &addend) const
{
    // One or the other: the weight's backward credits every step's output gradient to the bias.
    if (addend.defined() && m_bias.defined())
        throw std::logic_error("RecurrentProjection: an addend replaces the bias; this one has a bias");
    const torch::Tensor &offset = addend.defined() ? addend : m_bias;
    const bool trainsWeight = m_weight.requires_grad() || (m_bias.defined() && m_bias.requires_grad());
    if (!torch::GradMode::is_enabled())
        return project(input, m_weight, offset);
    if (!trainsWeight)
        return offset.defined() ? torch::addmm(offset, input, m_weight) : torch::mm(input, m_weight);
    if (!m_steps) {
        auto steps = c10::make_intrusive<Steps>();
        steps->weight = m_weight.detach().contiguous();
        steps->transposedWeight = m_weight.detach().t().contiguous();
        steps->bias = m_bias.defined() ? m_bias.detach() : torch::Tensor();
        m_token = WeightGradient::apply(m_weight, optional(m_bias), steps);
        m_steps = steps;
    }
    return ProjectionStep::apply(input, optional(addend), m_token, c10::static_intrusive_pointer_cast<Steps>(m_steps));
}
