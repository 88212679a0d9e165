#pragma once

// What one epoch measured; crosses from the trainer to plots, metrics.json and checkpoints.
struct EpochStats {
    int epoch = 0;
    double trainLoss = 0;
    double valLoss = 0;          // free running (no teacher forcing)
    double valExactMatch = 0;    // 0..1
    double seconds = 0;          // training time of the epoch, validation excluded
    double samplesPerSecond = 0;
    // What the steps were, to tell why validation fell: the learning rate of the epoch's last step,
    // and the mean gradient norm before clipping (0: not measured, as without clipping). Not kept
    // in model files.
    double learningRate = 0;
    double gradientNorm = 0;
};

// One training batch, reported to a progress callback.
struct BatchProgress {
    int epoch = 0;
    int batch = 0;               // 1-based within the epoch
    int batchesPerEpoch = 0;
    double loss = 0;
    double samplesPerSecond = 0; // over the epoch so far

    // Epochs done so far, the current one in part: 2.5 halfway through the third.
    double epochsDone() const { return epoch - 1 + (batchesPerEpoch > 0 ? double(batch) / batchesPerEpoch : 0.0); }
};
