#pragma once

#include <string>

class Seq2SeqModel;

// The checkpoint file: magic, format version, CRC-32 and length of the payload, then the payload:
// model config, vocabulary, dataset config, training history and every named tensor.
namespace checkpointformat {
constexpr unsigned kVersion = 1;
std::string encode(const Seq2SeqModel &model);
// Throws CheckpointError saying what is wrong; builds nothing until the whole file checks out.
Seq2SeqModel decode(const std::string &bytes);
}
