#pragma once

#include "ui/workbench/shareddecoder.h"

#include <memory>

struct TransformerSnapshot;

// The snapshot's weights as a decoder other labs use (Workbench::shareDecoder): greedy and
// teacher-forced decoding, its attention the cross-attention of the last decoder layer with the
// heads averaged (layerHeadMean()), the Transformer's nearest to an RNN's one attention matrix.
// `lowercase`: whether its data was lower-cased, so sentences are read as it read them.
SharedDecoder sharedTransformerDecoder(std::shared_ptr<const TransformerSnapshot> snapshot, bool lowercase,
                                       const QString &description);
