#pragma once

#include "engine/attention/attentioncomparison.h"

struct SharedDecoder;

// Another lab's decoder (a Transformer) as the comparison of two models reads it: its decodings as
// DecodedSentence, with nothing copied from the source, so it stands on either side of the Compare
// page and is fed the other side's words for the difference.
ComparedModel comparedDecoder(const SharedDecoder &decoder);
