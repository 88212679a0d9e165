#pragma once

#include "app/jobcontext.h"
#include "engine/word2vec/word2vecconfig.h"

#include <memory>

class TrainingWorker;
class Word2VecLab;
struct WordCorpus;

// The word-embedding lab's training on the worker's thread: progress as batches (words/s and the
// ETA in the status bar), a snapshot of the vectors with their map about twice a second, each
// epoch's loss and the end, as the types of ui/word2vec/word2vecresults.h.
LabJob word2vecTrainingJob(std::shared_ptr<const WordCorpus> corpus, const CorpusConfig &corpusConfig,
                           const Word2VecConfig &config);

// Turns the lab's requests into jobs for `worker` and hands it the worker's reports.
void connectWord2VecLab(Word2VecLab *lab, TrainingWorker *worker);
