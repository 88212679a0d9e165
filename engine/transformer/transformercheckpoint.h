#pragma once

#include "engine/core/datasetconfig.h"
#include "engine/core/signedfile.h"
#include "engine/transformer/transformermodel.h"
#include "engine/transformer/transformertrainingconfig.h"

#include <stdexcept>
#include <string>

// A trained Transformer on disk: the model (its config, vocabulary, task, history and weights) and
// what it was trained on and how.
struct TransformerCheckpoint {
    TransformerModel model;
    DatasetConfig dataset;
    TransformerTrainingConfig training;
};

struct TransformerCheckpointError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The file: signedfile's frame (signature, format version, CRC-32, length), then the payload: the
// model config, the vocabulary, the task, the dataset config, the training config (each config
// through its field table, engine/core/configrecord.h, so every field is kept), the history (every
// field of EpochStats) and every named parameter with its shape.
namespace transformercheckpoint {
inline constexpr signedfile::Signature kSignature = {'A', 'T', 'N', 'S', 'T', 'F', 'M', 'R'};
constexpr unsigned kVersion = 1;
std::string encode(const TransformerModel &model, const DatasetConfig &dataset,
                   const TransformerTrainingConfig &training);
// Throws TransformerCheckpointError saying what is wrong: not a Transformer checkpoint (another
// AttnScope file or a foreign one), a newer format, truncated, damaged, settings out of range,
// weights that do not fit the settings. Every size is checked before anything is allocated for it,
// and the model is built only once the whole file has been read and checked.
TransformerCheckpoint decode(const std::string &bytes);
}

// Writes atomically (engine/core/atomicfile.h); throws TransformerCheckpointError with the reason.
void saveTransformerCheckpoint(const std::string &path, const TransformerModel &model, const DatasetConfig &dataset,
                               const TransformerTrainingConfig &training);
// Throws TransformerCheckpointError: "cannot load 'PATH': ..." with decode()'s reason, or the
// reason the file cannot be read (missing, a folder, too large).
TransformerCheckpoint loadTransformerCheckpoint(const std::string &path);
