#include "engine/charlm/charsampling.h"

#include "engine/core/plaintext.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>

namespace {

// The first index of the largest logit.
int argmax(const float *logits, int count)
{
    return int(std::max_element(logits, logits + count) - logits);
}

// Indices of `values`, largest first, the lower index first on a tie; only the first `k` are sorted.
template <typename T>
std::vector<int> largestFirst(const T *values, int count, int k)
{
    std::vector<int> order(static_cast<std::size_t>(count));
    std::iota(order.begin(), order.end(), 0);
    std::partial_sort(order.begin(), order.begin() + k, order.end(),
                      [&](int a, int b) { return values[a] > values[b] || (values[a] == values[b] && a < b); });
    order.resize(std::size_t(k));
    return order;
}

// An index drawn from `p` (summing to 1): the first whose cumulative probability exceeds a uniform
// draw in [0, 1); rounding that leaves the draw past the last sum picks the last possible index.
int draw(const std::vector<double> &p, std::mt19937_64 &random)
{
    const double u = double(random() >> 11) * 0x1.0p-53;
    double cumulative = 0;
    int last = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (p[i] <= 0)
            continue;
        cumulative += p[i];
        last = int(i);
        if (u < cumulative)
            return last;
    }
    return last;
}

double entropyBits(const std::vector<double> &p)
{
    double bits = 0;
    for (double q : p)
        if (q > 0)
            bits -= q * std::log2(q);
    return bits;
}

std::string alphabetText(const std::u32string &alphabet)
{
    constexpr std::size_t kShown = 60;
    std::u32string shown;
    for (char32_t c : alphabet.substr(0, kShown))
        if (c >= 0x20)
            shown += c;
    return encodeUtf8(shown) + (alphabet.size() > kShown ? "..." : "");
}

}

std::vector<double> samplingDistribution(const float *logits, int count, double temperature, int topK)
{
    std::vector<double> p(std::size_t(std::max(count, 0)), 0.0);
    if (count <= 0)
        return p;
    if (temperature <= 0) {
        p[std::size_t(argmax(logits, count))] = 1;
        return p;
    }
    const int k = topK > 0 && topK < count ? topK : count;
    std::vector<int> kept;
    if (k < count) {
        kept = largestFirst(logits, count, k);
    } else {
        kept.resize(std::size_t(count));
        std::iota(kept.begin(), kept.end(), 0);
    }
    const double highest = logits[argmax(logits, count)];
    double sum = 0;
    for (int i : kept)
        sum += p[std::size_t(i)] = std::exp((double(logits[i]) - highest) / temperature);
    for (int i : kept)
        p[std::size_t(i)] /= sum;
    return p;
}

SampledText sampleText(const CharInferenceNet &net, const SamplingOptions &options)
{
    if (!std::isfinite(options.temperature) || options.temperature < 0)
        throw std::invalid_argument("The temperature must be 0 (always the likeliest character) or more.");
    if (options.topK < 0)
        throw std::invalid_argument("Top-k must be 0 (draw from every character) or more.");
    if (options.length < 0 || options.length > kMaxSampleLength)
        throw std::invalid_argument("The length must be from 0 to " + std::to_string(kMaxSampleLength) + " characters.");
    SampledText out;
    std::vector<int> primeIds;
    for (char32_t c : options.prime) {
        const int id = net.idOf(c);
        if (id >= 0) {
            primeIds.push_back(id);
            out.prime += c;
        }
    }
    if (options.prime.empty())
        throw std::invalid_argument("The prime is empty: give the model at least one character to start from.");
    if (primeIds.empty())
        throw std::invalid_argument("None of the prime's characters is one the model knows, so there is nothing to "
                                    "start from. Give a prime with some of these: " + alphabetText(net.alphabet()));

    CharInferenceNet::State state = net.start();
    std::vector<float> logits(std::size_t(net.alphabetSize()));
    for (int id : primeIds)
        net.step(id, state, logits.data());
    std::mt19937_64 random(options.seed);
    out.generated.reserve(std::size_t(options.length));
    out.entropyBits.reserve(std::size_t(options.length));
    out.probabilities.reserve(std::size_t(options.length));
    for (int i = 0; i < options.length; ++i) {
        const std::vector<double> p = samplingDistribution(logits.data(), net.alphabetSize(), options.temperature, options.topK);
        const int id = draw(p, random);
        out.generated += net.alphabet()[std::size_t(id)];
        out.entropyBits.push_back(entropyBits(p));
        out.probabilities.push_back(p[std::size_t(id)]);
        if (i + 1 < options.length)
            net.step(id, state, logits.data());
    }
    return out;
}

int64_t memorisedLength(const CharInferenceNet &net, const std::vector<int32_t> &ids, int primeLength, int64_t limit)
{
    if (primeLength < 1)
        throw std::invalid_argument("memorisedLength needs at least one character to start from.");
    const int64_t length = int64_t(ids.size());
    if (primeLength >= length || limit <= 0)
        return 0;
    CharInferenceNet::State state = net.start();
    std::vector<float> logits(std::size_t(net.alphabetSize()));
    for (int i = 0; i < primeLength; ++i)
        net.step(ids[std::size_t(i)], state, logits.data());
    const int64_t end = std::min(length, primeLength + limit);
    int64_t matched = 0;
    for (int64_t i = primeLength; i < end; ++i) {
        if (argmax(logits.data(), net.alphabetSize()) != ids[std::size_t(i)])
            break;
        ++matched;
        if (i + 1 < end)
            net.step(ids[std::size_t(i)], state, logits.data());
    }
    return matched;
}

CharReadout readOut(const CharInferenceNet &net, const std::u32string &text, int topK)
{
    CharReadout out;
    out.text = text;
    out.layers = net.layers();
    out.hidden = net.hiddenSize();
    const std::size_t layerValues = std::size_t(out.layers) * std::size_t(out.hidden);
    out.activations.reserve(text.size() * layerValues);
    out.unknown.reserve(text.size());
    out.next.reserve(text.size());
    const int k = std::clamp(topK, 0, net.alphabetSize());
    CharInferenceNet::State state = net.start();
    std::vector<float> logits(std::size_t(net.alphabetSize()));
    for (char32_t c : text) {
        const int id = net.idOf(c);
        out.unknown.push_back(id < 0);
        out.next.emplace_back();
        if (id >= 0) {
            net.step(id, state, logits.data());
            const std::vector<double> p = samplingDistribution(logits.data(), net.alphabetSize(), 1.0, 0);
            for (int i : largestFirst(p.data(), net.alphabetSize(), k))
                out.next.back().push_back({net.alphabet()[std::size_t(i)], p[std::size_t(i)]});
        }
        for (int layer = 0; layer < out.layers; ++layer) {
            const float *h = net.hidden(state, layer);
            out.activations.insert(out.activations.end(), h, h + out.hidden);
        }
    }
    return out;
}

int64_t memorisationLimit(const CharText &text)
{
    return std::max<int64_t>(0, std::min(kMemorisationLimit, text.trainLength - 1));
}

int64_t memorisationMeter(const CharInferenceNet &net, const CharText &text)
{
    return memorisedLength(net, text.ids, 1, memorisationLimit(text));
}
