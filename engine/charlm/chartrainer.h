#pragma once

#include "engine/charlm/chartext.h"
#include "engine/charlm/charweights.h"

#include <atomic>
#include <functional>
#include <memory>

// What one epoch measured. Bits per character = cross-entropy in nats / ln 2; perplexity = 2^bpc.
struct CharEpoch {
    int epoch = 0;
    double trainBitsPerChar = 0;       // mean over the epoch's targets, as trained
    double validationBitsPerChar = 0;  // the held-out tail read from a zero state; NaN without one
    double seconds = 0;                // training time, validation excluded
    double charsPerSecond = 0;         // targets trained per second
    int64_t iteration = 0;             // windows trained so far, all epochs
};

// After every window (one optimiser step over all streams).
struct CharProgress {
    int epoch = 0;                     // 1-based
    int epochs = 0;
    int64_t window = 0;                // 1-based within the epoch
    int64_t windowsPerEpoch = 0;
    int64_t iteration = 0;             // windows trained so far, all epochs
    double bitsPerChar = 0;            // this window's training loss
    double charsPerSecond = 0;         // over the run so far
};

// Trains a character language model by truncated backpropagation through time: the training
// text cut into parallel streams (charStreams), read in windows of seqLen characters with each
// stream's state carried from one window to the next, every target trained once an epoch (the
// tail included); Adam or Adagrad, global-norm clipping. Forward and backward are written by
// hand (each weight's gradient once per window, the cells as vectorised loops), held to LibTorch's
// modules by tests; the streams are shared out over the training threads.
class CharTrainer
{
public:
    struct Callbacks {
        std::function<void(const CharProgress &)> onWindow;  // calling thread; may block (pause)
        std::function<void(const CharEpoch &)> onEpoch;
    };

    // Fresh weights from training.seed, initialised as torch initialises its modules. The text is
    // copied: it need not outlive the trainer.
    CharTrainer(const CharText &text, const CharModelConfig &model, const CharTrainingConfig &training);
    // Training goes on from `start` (its alphabet must be the text's, its weights finite).
    // Both throw std::invalid_argument, with the message to show, for settings out of range or a
    // start that does not fit.
    CharTrainer(const CharText &text, const CharWeights &start, const CharTrainingConfig &training);
    ~CharTrainer();

    // Trains until the epochs are done or *stop is set (read after every window); returns the
    // epochs completed. Throws std::runtime_error when the loss stops being finite. A further call
    // trains training.epochs more, numbered on, the optimiser's state kept.
    std::vector<CharEpoch> train(const Callbacks &callbacks, const std::atomic<bool> *stop = nullptr);

    // The weights now, copied; safe between callbacks.
    CharWeights weights() const;
    // Bits per character of the model now on ids[begin, end) of the text, read from a zero state
    // (std::invalid_argument for a span of fewer than two characters or outside the text).
    double bitsPerChar(int64_t begin, int64_t end) const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};
