#pragma once

#include "ui/core/beamlisting.h"

struct BeamDecoded;
class Vocabulary;

// `result` of a beam search with length normalisation `alpha`, in words for BeamView: its token ids
// named by `vocabulary` and the words a pointer copied.
BeamListing beamDecodedListing(const BeamDecoded &result, const Vocabulary &vocabulary, double alpha);
