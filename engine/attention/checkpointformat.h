#pragma once

#include "engine/core/signedfile.h"

#include <string>

class Seq2SeqModel;

// The checkpoint file: signedfile's frame (signature, format version, CRC-32, length), then the payload:
// model config, vocabulary, dataset config, training history and every named tensor.
// Format 2 adds the attention variant's name after the model config. A Bahdanau model is still
// written as format 1, byte for byte what versions before the variants wrote, so they can read
// it; a format 1 file is a Bahdanau model. Format 3 adds a pointer flag after the name, and is
// written only for a model with the pointer.
namespace checkpointformat {
inline constexpr signedfile::Signature kSignature = {'A', 'T', 'N', 'S', 'C', 'K', 'P', 'T'};
constexpr unsigned kVersion = 3;
std::string encode(const Seq2SeqModel &model);
// Throws CheckpointError saying what is wrong; builds nothing until the whole file checks out.
Seq2SeqModel decode(const std::string &bytes);
}
