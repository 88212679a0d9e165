#pragma once

#include "engine/attention/seq2seqmodel.h"
#include "engine/core/embeddingprojection.h"

#include <cstddef>
#include <memory>
#include <vector>

class WeightHistory;

enum class EmbeddingSide { Encoder, Decoder };

// A run's kept epochs brought back to be looked at: the model of an epoch, rebuilt from the
// history (the few last asked for are kept, so stepping back and forth rebuilds nothing), and each
// side's embedding maps over the epochs, all turned onto the last epoch's map (projectSeries), made
// once when first asked for. Reads `history` as it is when asked: make a new replay when it changes.
class EpochReplay
{
public:
    static constexpr std::size_t kCachedModels = 3;

    // `like` gives what the history does not keep: configuration, vocabulary, dataset.
    EpochReplay(const WeightHistory &history, std::shared_ptr<const Seq2SeqModel> like);

    const std::vector<int> &epochs() const { return m_epochs; }  // ascending
    // Throws std::out_of_range for an epoch the history does not keep.
    std::shared_ptr<const Seq2SeqModel> modelAt(int epoch);
    // One map per epoch of epochs(), in that order.
    const std::vector<EmbeddingProjection> &maps(EmbeddingSide side);

private:
    struct CachedModel {
        int epoch = 0;
        std::shared_ptr<const Seq2SeqModel> model;
    };

    const WeightHistory &m_history;
    std::shared_ptr<const Seq2SeqModel> m_like;
    std::vector<int> m_epochs;
    std::vector<CachedModel> m_models;  // most recently used last
    std::vector<EmbeddingProjection> m_maps[2];
};
