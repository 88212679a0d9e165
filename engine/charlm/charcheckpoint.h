#pragma once

#include "engine/charlm/chartrainer.h"
#include "engine/core/signedfile.h"

#include <stdexcept>
#include <string>
#include <vector>

// A trained character model on disk: its weights (config and alphabet included), the training
// settings and the history of its epochs. Versioned and checksummed like the attention lab's
// checkpoints; every size is checked before anything is allocated.
struct CharCheckpoint {
    CharWeights weights;
    CharTrainingConfig training;
    std::vector<CharEpoch> history;
};

struct CharCheckpointError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The file: signedfile's frame, then the payload: model config, alphabet, every weight array (its
// length first), training config, history. Since format 2 the configs are written through their
// field tables (engine/core/configrecord.h), so every field is kept; format 1 wrote them field by
// field, and is still read.
namespace charcheckpoint {
inline constexpr signedfile::Signature kSignature = {'A', 'T', 'N', 'S', 'C', 'H', 'A', 'R'};
constexpr unsigned kVersion = 2;
std::string encode(const CharCheckpoint &checkpoint);
// Throws CharCheckpointError saying what is wrong: not a checkpoint, another AttnScope file, a
// newer format, damaged.
CharCheckpoint decode(const std::string &bytes);
}

void saveCharCheckpoint(const std::string &path, const CharCheckpoint &checkpoint);  // atomically
CharCheckpoint loadCharCheckpoint(const std::string &path);
