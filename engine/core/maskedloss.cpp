#include "engine/core/maskedloss.h"

#include "engine/core/vocabulary.h"

torch::Tensor maskedCrossEntropy(const torch::Tensor &logits, const torch::Tensor &targets)
{
    namespace F = torch::nn::functional;
    return F::cross_entropy(logits.reshape({-1, logits.size(-1)}), targets.reshape({-1}),
                            F::CrossEntropyFuncOptions().ignore_index(Vocabulary::kPad));
}
