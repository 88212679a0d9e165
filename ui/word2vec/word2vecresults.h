#pragma once

#include "engine/core/embeddingprojection.h"
#include "engine/word2vec/word2vectrainer.h"

#include <QMetaType>

#include <memory>

// What the word-embedding lab's training job reports, as values that cross to the GUI thread.

// The vectors as they are now, and their map (aligned to the last snapshot's), made on the worker.
struct Word2VecSnapshot {
    std::shared_ptr<const WordVectors> vectors;
    EmbeddingProjection map;
    int epoch = 0;
    double progress = 0;  // share of the run done, 0..1
};

struct Word2VecEpochDone {
    Word2VecEpoch stats;
};

struct Word2VecFinished {
    int epochsDone = 0;
    int epochs = 0;
    double wordsPerSecond = 0;
};

Q_DECLARE_METATYPE(Word2VecSnapshot)
Q_DECLARE_METATYPE(Word2VecEpochDone)
Q_DECLARE_METATYPE(Word2VecFinished)
