#pragma once

#include "engine/core/signedfile.h"

#include <string>

class Seq2SeqModel;

// The checkpoint file: signedfile's frame (signature, format version, CRC-32, length), then the payload:
// model config, vocabulary, dataset config, training history and every named tensor. Since format
// 4 the configs are written through their field tables (engine/core/configrecord.h), so every
// field is kept. Formats 1 to 3 wrote them field by field, and are still read: 1 a Bahdanau
// model's fields, 2 the attention variant's name after them, 3 a pointer flag after the name.
namespace checkpointformat {
inline constexpr signedfile::Signature kSignature = {'A', 'T', 'N', 'S', 'C', 'K', 'P', 'T'};
constexpr unsigned kVersion = 4;
std::string encode(const Seq2SeqModel &model);
// Throws CheckpointError saying what is wrong; builds nothing until the whole file checks out.
Seq2SeqModel decode(const std::string &bytes);
}
