#include "engine/charlm/charattribution.h"

#include "engine/core/plaintext.h"
#include "engine/core/torchapi.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace {

// A character as a message quotes it: a line break or tab spelled out.
std::string quoted(char32_t c)
{
    if (c == U'\n')
        return "'\\n'";
    if (c == U'\t')
        return "'\\t'";
    if (c < 0x20 || c == 0x7f)
        return "U+" + std::to_string(uint32_t(c));
    return "'" + encodeUtf8(c) + "'";
}

int idOf(const std::u32string &alphabet, char32_t c)
{
    const auto it = std::lower_bound(alphabet.begin(), alphabet.end(), c);
    return it != alphabet.end() && *it == c ? int(it - alphabet.begin()) : -1;
}

torch::Tensor tensorOf(const std::vector<float> &values, torch::IntArrayRef shape)
{
    return torch::from_blob(const_cast<float *>(values.data()), shape, torch::kFloat).to(torch::kDouble);
}

// The model as LibTorch's own modules (the ones the hand-written network is tested against), in
// double precision so that the gradients and the completeness gap are not float's rounding.
class TorchCharModel
{
public:
    explicit TorchCharModel(const CharWeights &w) : m_config(w.config), m_alphabet(w.alphabetSize())
    {
        const int input = w.inputSize(0), h = w.config.hidden;
        torch::nn::Module *recurrent = nullptr;
        switch (w.config.cell) {
        case RecurrentCell::Rnn:
            m_rnn = torch::nn::RNN(torch::nn::RNNOptions(input, h).num_layers(w.config.layers).batch_first(true));
            recurrent = m_rnn.get();
            break;
        case RecurrentCell::Gru:
            m_gru = torch::nn::GRU(torch::nn::GRUOptions(input, h).num_layers(w.config.layers).batch_first(true));
            recurrent = m_gru.get();
            break;
        case RecurrentCell::Lstm:
            m_lstm = torch::nn::LSTM(torch::nn::LSTMOptions(input, h).num_layers(w.config.layers).batch_first(true));
            recurrent = m_lstm.get();
            break;
        }
        recurrent->to(torch::kDouble);
        const int64_t rows = int64_t(gateCount(w.config.cell)) * h;
        torch::NoGradGuard noGrad;
        auto parameters = recurrent->named_parameters();
        for (int l = 0; l < w.config.layers; ++l) {
            const CharLayerWeights &layer = w.layers[size_t(l)];
            const std::string suffix = "_l" + std::to_string(l);
            parameters["weight_ih" + suffix].copy_(tensorOf(layer.inputWeights, {rows, w.inputSize(l)}));
            parameters["weight_hh" + suffix].copy_(tensorOf(layer.hiddenWeights, {rows, h}));
            parameters["bias_ih" + suffix].copy_(tensorOf(layer.inputBias, {rows}));
            parameters["bias_hh" + suffix].copy_(tensorOf(layer.hiddenBias, {rows}));
        }
        // Only the inputs' gradients are wanted.
        for (torch::Tensor &p : recurrent->parameters())
            p.requires_grad_(false);
        if (w.config.embed > 0)
            m_embedding = tensorOf(w.embedding, {m_alphabet, w.config.embed});
        m_outputWeights = tensorOf(w.outputWeights, {m_alphabet, h});
        m_outputBias = tensorOf(w.outputBias, {m_alphabet});
    }

    // The input vectors of `ids`: (ids, inputSize).
    torch::Tensor inputs(const std::vector<int64_t> &ids) const
    {
        const torch::Tensor index = torch::tensor(ids, torch::kLong);
        return m_embedding.defined() ? m_embedding.index_select(0, index)
                                     : torch::one_hot(index, m_alphabet).to(torch::kDouble);
    }

    // Every layer's h (and c) at zero for `rows` streams: (layers, rows, hidden) each.
    std::vector<torch::Tensor> start(int64_t rows) const
    {
        std::vector<torch::Tensor> state;
        for (int k = 0; k < (m_config.cell == RecurrentCell::Lstm ? 2 : 1); ++k)
            state.push_back(torch::zeros({m_config.layers, rows, m_config.hidden}, torch::kDouble));
        return state;
    }

    // Reads x (rows, steps, inputSize) from `state`, which becomes the state after it; returns the
    // top layer's h at every step (rows, steps, hidden).
    torch::Tensor run(const torch::Tensor &x, std::vector<torch::Tensor> &state)
    {
        if (!m_lstm.is_empty()) {
            auto [out, hc] = m_lstm(x, std::make_tuple(state[0], state[1]));
            state = {std::get<0>(hc), std::get<1>(hc)};
            return out;
        }
        auto [out, h] = !m_gru.is_empty() ? m_gru(x, state[0]) : m_rnn(x, state[0]);
        state = {h};
        return out;
    }

    torch::Tensor logProbabilities(const torch::Tensor &h) const
    {
        return torch::log_softmax(torch::addmm(m_outputBias, h, m_outputWeights.t()), -1);
    }

private:
    CharModelConfig m_config;
    int64_t m_alphabet;
    torch::nn::RNN m_rnn{nullptr};
    torch::nn::GRU m_gru{nullptr};
    torch::nn::LSTM m_lstm{nullptr};
    torch::Tensor m_embedding, m_outputWeights, m_outputBias;
};

std::vector<double> toVector(const torch::Tensor &t)
{
    const torch::Tensor values = t.detach().contiguous().to(torch::kDouble);
    return {values.data_ptr<double>(), values.data_ptr<double>() + values.numel()};
}

}

std::string validate(const CharAttributionOptions &options)
{
    if (options.last < 1 || options.last > kMaxExplainedCharacters)
        return "The number of characters to explain must be from 1 to " + std::to_string(kMaxExplainedCharacters) +
               ", not " + std::to_string(options.last) + ".";
    if (options.integrationSteps < 1 || options.integrationSteps > kMaxCharIntegrationSteps)
        return "Integrated gradients need from 1 to " + std::to_string(kMaxCharIntegrationSteps) + " steps, not " +
               std::to_string(options.integrationSteps) + ".";
    return {};
}

const char *charAttributionMethodTitle(CharAttributionMethod method)
{
    return method == CharAttributionMethod::Saliency ? "Saliency" : "Integrated gradients";
}

CharAttribution explainNextCharacter(const CharWeights &weights, const std::u32string &context,
                                     const CharAttributionOptions &options)
{
    if (const std::string problem = validate(options); !problem.empty())
        throw std::invalid_argument(problem);
    if (const std::string problem = weights.checkSizes(); !problem.empty())
        throw std::invalid_argument(problem);
    if (context.empty())
        throw std::invalid_argument("The context is empty: there is nothing to predict the next character from.");
    if (context.size() > size_t(kMaxExplainedContext))
        throw std::invalid_argument("The context has " + std::to_string(context.size()) + " characters; at most " +
                                    std::to_string(kMaxExplainedContext) + " are read.");
    std::vector<int64_t> ids;
    for (size_t i = 0; i < context.size(); ++i) {
        const int id = idOf(weights.alphabet, context[i]);
        if (id < 0)
            throw std::invalid_argument("The context's character " + quoted(context[i]) + " (position " +
                                        std::to_string(i + 1) + ") is not in the model's alphabet.");
        ids.push_back(id);
    }
    int nextId = -1;
    if (options.next) {
        nextId = idOf(weights.alphabet, *options.next);
        if (nextId < 0)
            throw std::invalid_argument("The character to explain, " + quoted(*options.next) +
                                        ", is not in the model's alphabet.");
    }

    TorchCharModel model(weights);
    const int explained = std::min(options.last, int(ids.size()));
    const size_t prefix = ids.size() - size_t(explained);
    const int64_t m = options.integrationSteps, points = m + 1;
    torch::Tensor logProbabilities, gradients, x;
    {
        // Inference of its own on a thread that may have turned gradients off.
        torch::AutoGradMode enableGradients(true);
        std::vector<torch::Tensor> state = model.start(1);
        if (prefix > 0) {
            torch::NoGradGuard noGrad;
            model.run(model.inputs({ids.begin(), ids.begin() + std::ptrdiff_t(prefix)}).unsqueeze(0), state);
        }
        for (torch::Tensor &s : state)
            s = s.expand({-1, points, -1}).contiguous();
        x = model.inputs({ids.begin() + std::ptrdiff_t(prefix), ids.end()});
        // Row k reads (k / m) x: the baseline in row 0, x itself in row m.
        const torch::Tensor alphas = torch::linspace(0, 1, points, torch::kDouble).view({points, 1, 1});
        const torch::Tensor path = (alphas * x.unsqueeze(0)).detach().requires_grad_(true);
        const torch::Tensor top = model.run(path, state).select(1, explained - 1);
        logProbabilities = model.logProbabilities(top);
        if (nextId < 0)
            nextId = int(logProbabilities[m].argmax().item<int64_t>());
        logProbabilities.select(1, nextId).sum().backward();
        gradients = path.grad();
    }

    CharAttribution a;
    a.characters = context.substr(prefix);
    a.contextLength = int(context.size());
    a.next = weights.alphabet[size_t(nextId)];
    a.probabilities = toVector(logProbabilities[m].exp());
    a.probability = a.probabilities[size_t(nextId)];
    a.predicted = weights.alphabet[size_t(std::max_element(a.probabilities.begin(), a.probabilities.end()) -
                                          a.probabilities.begin())];
    a.integrationSteps = int(m);
    a.logProbability = logProbabilities[m][nextId].item<double>();
    a.baselineLogProbability = logProbabilities[0][nextId].item<double>();
    a.inputSize = int(x.size(1));
    a.gradients = toVector(gradients[m]);
    a.saliency = toVector(gradients[m].pow(2).sum(1).sqrt());
    // The trapezoidal rule: the path's ends count half.
    torch::Tensor rule = torch::full({points, 1, 1}, 1.0 / double(m), torch::kDouble);
    rule[0].fill_(0.5 / double(m));
    rule[m].fill_(0.5 / double(m));
    a.integratedGradients = toVector((x * (rule * gradients).sum(0)).sum(1));
    double sum = 0;
    for (double ig : a.integratedGradients)
        sum += ig;
    a.completenessGap = std::abs(sum - (a.logProbability - a.baselineLogProbability));
    return a;
}
