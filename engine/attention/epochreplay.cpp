#include "engine/attention/epochreplay.h"

#include "engine/attention/weighthistory.h"
#include "engine/core/projectionseries.h"

#include <algorithm>

EpochReplay::EpochReplay(const WeightHistory &history, std::shared_ptr<const Seq2SeqModel> like)
    : m_history(history), m_like(std::move(like)), m_epochs(history.epochs())
{
}

std::shared_ptr<const Seq2SeqModel> EpochReplay::modelAt(int epoch)
{
    const auto cached = std::find_if(m_models.begin(), m_models.end(),
                                     [epoch](const CachedModel &c) { return c.epoch == epoch; });
    if (cached != m_models.end()) {
        std::rotate(cached, cached + 1, m_models.end());
        return m_models.back().model;
    }
    auto model = std::make_shared<const Seq2SeqModel>(m_history.modelAt(epoch, *m_like));
    if (m_models.size() == kCachedModels)
        m_models.erase(m_models.begin());
    m_models.push_back({epoch, model});
    return model;
}

const std::vector<EmbeddingProjection> &EpochReplay::maps(EmbeddingSide side)
{
    std::vector<EmbeddingProjection> &maps = m_maps[side == EmbeddingSide::Decoder ? 1 : 0];
    if (maps.empty() && !m_epochs.empty()) {
        std::vector<EmbeddingTable> tables;
        // Rebuilt one at a time and dropped: the cache is for the epochs being looked at.
        for (int epoch : m_epochs) {
            const Seq2SeqModel model = m_history.modelAt(epoch, *m_like);
            tables.push_back(side == EmbeddingSide::Decoder ? model.decoderEmbeddings() : model.encoderEmbeddings());
        }
        maps = projectSeries(tables);
    }
    return maps;
}
