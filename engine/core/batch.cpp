#include "engine/core/batch.h"

#include <algorithm>
#include <numeric>

namespace {

torch::Tensor sourceMaskFor(const torch::Tensor &lengths, int64_t width)
{
    return torch::arange(width, torch::kLong).unsqueeze(0) < lengths.unsqueeze(1);
}

// Rows of ids, each ended by <EOS> and padded with <PAD> to the longest, as a (rows, width) tensor.
torch::Tensor paddedRows(const std::vector<std::vector<int>> &rows, int64_t width, const std::vector<int> &prefix)
{
    auto tensor = torch::full({int64_t(rows.size()), width}, Vocabulary::kPad, torch::kLong);
    auto out = tensor.accessor<int64_t, 2>();
    for (std::size_t i = 0; i < rows.size(); ++i) {
        int64_t column = 0;
        for (int id : prefix)
            out[int64_t(i)][column++] = id;
        for (int id : rows[i])
            out[int64_t(i)][column++] = id;
        out[int64_t(i)][column] = Vocabulary::kEos;
    }
    return tensor;
}

int64_t longestRow(const std::vector<std::vector<int>> &rows)
{
    std::size_t longest = 0;
    for (const auto &r : rows)
        longest = std::max(longest, r.size());
    return int64_t(longest);
}

// Each batch holds one length or two, so a plainly shuffled order can run several short or long
// batches in a row, and the weights at the end of an epoch lean towards the lengths seen last.
// Rounds of about kBatchesPerRound batches that each span the lengths (round i takes every
// rounds-th batch by mean length, starting at the i-th), shuffled within and between rounds,
// show Adam every length within a few steps.
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

ExtendedSource extendedSource(const std::vector<std::string> &words, const Vocabulary &vocabulary,
                              const std::vector<std::string> &hidden)
{
    ExtendedSource s;
    for (const auto &w : words) {
        const bool isHidden = std::find(hidden.begin(), hidden.end(), w) != hidden.end();
        const int id = isHidden ? Vocabulary::kUnk : vocabulary.id(w);
        s.ids.push_back(id);
        if (id != Vocabulary::kUnk) {
            s.extended.push_back(id);
            continue;
        }
        auto found = std::find(s.unknownWords.begin(), s.unknownWords.end(), w);
        if (found == s.unknownWords.end())
            found = s.unknownWords.insert(found, w);
        s.extended.push_back(vocabulary.size() + int(found - s.unknownWords.begin()));
    }
    return s;
}

int extendedId(const std::string &word, const ExtendedSource &source, const Vocabulary &vocabulary)
{
    const auto found = std::find(source.unknownWords.begin(), source.unknownWords.end(), word);
    return found == source.unknownWords.end() ? vocabulary.id(word)
                                              : vocabulary.size() + int(found - source.unknownWords.begin());
}

Batch makeSourceBatch(const std::vector<std::vector<int>> &sourceIds, const std::vector<std::vector<int>> &extendedIds)
{
    const int64_t width = longestRow(sourceIds) + 1;
    Batch batch;
    batch.source = paddedRows(sourceIds, width, {});
    batch.sourceExtended = extendedIds.empty() ? batch.source : paddedRows(extendedIds, width, {});
    batch.sourceLengths = torch::empty({int64_t(sourceIds.size())}, torch::kLong);
    auto len = batch.sourceLengths.accessor<int64_t, 1>();
    for (std::size_t i = 0; i < sourceIds.size(); ++i)
        len[int64_t(i)] = int64_t(sourceIds[i].size()) + 1;
    batch.sourceMask = sourceMaskFor(batch.sourceLengths, width);
    return batch;
}

Batch makeBatch(const std::vector<const SentencePair *> &pairs, const Vocabulary &vocabulary,
                double unknownRate, std::mt19937_64 *rng)
{
    std::vector<std::vector<int>> sources, sourcesExtended, targets, targetsExtended;
    std::bernoulli_distribution unknown(unknownRate);
    for (const SentencePair *p : pairs) {
        // A hidden word type is hidden everywhere it occurs, so source and target stay consistent.
        std::vector<std::string> hidden;
        if (unknownRate > 0 && rng)
            for (const auto &w : p->source)
                if (unknown(*rng))
                    hidden.push_back(w);
        ExtendedSource s = extendedSource(p->source, vocabulary, hidden);
        std::vector<int> t, te;
        for (const auto &w : p->target) {
            te.push_back(extendedId(w, s, vocabulary));
            t.push_back(te.back() >= vocabulary.size() ? Vocabulary::kUnk : te.back());
        }
        sources.push_back(std::move(s.ids));
        sourcesExtended.push_back(std::move(s.extended));
        targets.push_back(std::move(t));
        targetsExtended.push_back(std::move(te));
    }
    Batch batch = makeSourceBatch(sources, sourcesExtended);
    const int64_t width = longestRow(targets) + 2;
    batch.target = paddedRows(targets, width, {Vocabulary::kSos});
    batch.targetExtended = paddedRows(targetsExtended, width, {Vocabulary::kSos});
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

std::vector<int> sourceLengths(const std::vector<SentencePair> &pairs)
{
    std::vector<int> lengths;
    for (const SentencePair &pair : pairs)
        lengths.push_back(int(pair.source.size()));
    return lengths;
}

std::vector<const SentencePair *> pairsAt(const std::vector<SentencePair> &pairs, const std::vector<int> &indices)
{
    std::vector<const SentencePair *> chosen;
    for (int i : indices)
        chosen.push_back(&pairs[std::size_t(i)]);
    return chosen;
}
