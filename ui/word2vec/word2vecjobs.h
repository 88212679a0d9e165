#pragma once

#include "ui/workbench/jobcontext.h"
#include "engine/word2vec/word2vecconfig.h"

#include <memory>

struct WordCorpus;

// The word map's axes come from this many most frequent words (projectWordMap).
constexpr int kWordMapFitWords = 500;

// The word-embedding lab's training on the worker's thread: progress as batches (words/s and the
// ETA in the status bar), a snapshot of the vectors with their map about twice a second, each
// epoch's loss and the end, as the types of ui/word2vec/word2vecresults.h.
LabJob word2vecTrainingJob(std::shared_ptr<const WordCorpus> corpus, const CorpusConfig &corpusConfig,
                           const Word2VecConfig &config);

