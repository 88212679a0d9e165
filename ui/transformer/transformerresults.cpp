#include "ui/transformer/transformerresults.h"

std::shared_ptr<const TransformerSnapshot> transformerSnapshotOf(const TransformerModel &model, int epoch)
{
    TransformerSnapshot snapshot{model.inference(), model.vocabulary(), model.config(), model.task(), epoch,
                                 model.parameterCount()};
    snapshot.weights = std::make_shared<const std::vector<NamedTensor>>(model.parameters());
    return std::make_shared<const TransformerSnapshot>(std::move(snapshot));
}
