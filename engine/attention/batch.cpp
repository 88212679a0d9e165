#include "engine/attention/batch.h"

#include <algorithm>
#include <numeric>

namespace {

torch::Tensor sourceMaskFor(const torch::Tensor &lengths, int64_t width)
{
    return torch::arange(width, torch::kLong).unsqueeze(0) < lengths.unsqueeze(1);
}

// Each batch holds one length or two, so a plainly shuffled order can run several short or long
// batches in a row, and the weights at the end of an epoch lean towards the lengths seen last.
// Rounds of about kBatchesPerRound batches that each span the lengths (round i takes every
// rounds-th batch by mean length, starting at the i-th), shuffled within and between rounds,
// show Adam every length within a few steps. Validation exact match >= 99% after epoch 4 in 7 of
// 9 seeds, 5 of 9 with the plain shuffle (teacher forcing 0.5, the default then).
constexpr std::size_t kBatchesPerRound = 8;

double meanLength(const std::vector<int> &batch, const std::vector<int> &lengths)
{
    double sum = 0;
    for (int i : batch)
        sum += lengths[std::size_t(i)];
    return batch.empty() ? 0.0 : sum / double(batch.size());
}

std::vector<std::vector<int>> inRounds(std::vector<std::vector<int>> batches, const std::vector<int> &lengths,
                                       std::mt19937_64 &rng)
{
    std::shuffle(batches.begin(), batches.end(), rng);  // ties in mean length fall in random rounds
    std::stable_sort(batches.begin(), batches.end(), [&](const std::vector<int> &a, const std::vector<int> &b) {
        return meanLength(a, lengths) < meanLength(b, lengths);
    });
    const std::size_t rounds = (batches.size() + kBatchesPerRound - 1) / kBatchesPerRound;
    std::vector<std::vector<std::vector<int>>> round(rounds);
    for (std::size_t i = 0; i < batches.size(); ++i)
        round[i % rounds].push_back(std::move(batches[i]));
    std::shuffle(round.begin(), round.end(), rng);
    std::vector<std::vector<int>> order;
    for (auto &r : round) {
        std::shuffle(r.begin(), r.end(), rng);
        for (auto &b : r)
            order.push_back(std::move(b));
    }
    return order;
}

}

Batch makeSourceBatch(const std::vector<std::vector<int>> &sourceIds)
{
    const int64_t b = int64_t(sourceIds.size());
    int64_t width = 0;
    for (const auto &s : sourceIds)
        width = std::max<int64_t>(width, int64_t(s.size()) + 1);
    Batch batch;
    batch.source = torch::full({b, width}, Vocabulary::kPad, torch::kLong);
    batch.sourceLengths = torch::empty({b}, torch::kLong);
    auto src = batch.source.accessor<int64_t, 2>();
    auto len = batch.sourceLengths.accessor<int64_t, 1>();
    for (int64_t i = 0; i < b; ++i) {
        const auto &s = sourceIds[std::size_t(i)];
        for (std::size_t j = 0; j < s.size(); ++j)
            src[i][int64_t(j)] = s[j];
        src[i][int64_t(s.size())] = Vocabulary::kEos;
        len[i] = int64_t(s.size()) + 1;
    }
    batch.sourceMask = sourceMaskFor(batch.sourceLengths, width);
    return batch;
}

Batch makeBatch(const std::vector<const SentencePair *> &pairs, const Vocabulary &vocabulary,
                double unknownRate, std::mt19937_64 *rng)
{
    std::vector<std::vector<int>> sources, targets;
    std::bernoulli_distribution unknown(unknownRate);
    for (const SentencePair *p : pairs) {
        std::vector<int> s, t;
        for (const auto &w : p->source)
            s.push_back(vocabulary.id(w));
        for (const auto &w : p->target)
            t.push_back(vocabulary.id(w));
        if (unknownRate > 0 && rng) {
            // Replace a word type everywhere it occurs, so source and target stay consistent.
            std::vector<int> hidden;
            for (int id : s)
                if (unknown(*rng))
                    hidden.push_back(id);
            for (std::vector<int> *v : {&s, &t})
                for (int &id : *v)
                    if (std::find(hidden.begin(), hidden.end(), id) != hidden.end())
                        id = Vocabulary::kUnk;
        }
        sources.push_back(std::move(s));
        targets.push_back(std::move(t));
    }
    Batch batch = makeSourceBatch(sources);
    int64_t width = 0;
    for (const auto &t : targets)
        width = std::max<int64_t>(width, int64_t(t.size()) + 2);
    batch.target = torch::full({int64_t(targets.size()), width}, Vocabulary::kPad, torch::kLong);
    auto trg = batch.target.accessor<int64_t, 2>();
    for (std::size_t i = 0; i < targets.size(); ++i) {
        const auto &t = targets[i];
        trg[int64_t(i)][0] = Vocabulary::kSos;
        for (std::size_t j = 0; j < t.size(); ++j)
            trg[int64_t(i)][int64_t(j) + 1] = t[j];
        trg[int64_t(i)][int64_t(t.size()) + 1] = Vocabulary::kEos;
    }
    return batch;
}

std::vector<std::vector<int>> batchOrder(const std::vector<int> &lengths, int batchSize,
                                         std::mt19937_64 *rng)
{
    std::vector<int> order(lengths.size());
    std::iota(order.begin(), order.end(), 0);
    if (rng)
        std::shuffle(order.begin(), order.end(), *rng);
    const std::size_t pool = std::size_t(batchSize) * 32;
    for (std::size_t start = 0; start < order.size(); start += pool) {
        auto end = order.begin() + std::ptrdiff_t(std::min(order.size(), start + pool));
        std::stable_sort(order.begin() + std::ptrdiff_t(start), end,
                         [&](int a, int b) { return lengths[std::size_t(a)] < lengths[std::size_t(b)]; });
    }
    std::vector<std::vector<int>> batches;
    for (std::size_t start = 0; start < order.size(); start += std::size_t(batchSize))
        batches.emplace_back(order.begin() + std::ptrdiff_t(start),
                             order.begin() + std::ptrdiff_t(std::min(order.size(), start + std::size_t(batchSize))));
    return rng ? inRounds(std::move(batches), lengths, *rng) : batches;
}
