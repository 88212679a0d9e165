#pragma once

#include "engine/core/configfield.h"

#include <cstdint>
#include <string>
#include <vector>

// How the learning rate moves after its linear warm-up: it stays (the measuring stick's schedule),
// or it falls as 1 / sqrt(step), the 2017 paper's.
enum class WarmupSchedule { Constant, InverseSquareRoot };

// How the Transformer trains: as the measuring stick (shared/bench/transformer_reference.py) does,
// Adam with betas 0.9 and 0.98, 200 warm-up steps, batches of 64, gradients clipped to norm 1; but
// to three times its rate, shrinking by 0.6 over every epoch. At its constant 1e-3, validation
// swung by up to 20 points from epoch to epoch and never settled.
struct TransformerTrainingConfig {
    double learningRate = 3e-3;
    int warmupSteps = 200;
    WarmupSchedule schedule = WarmupSchedule::Constant;
    double epochDecay = 0.6;  // the rate shrinks by this over every epoch, a little at each step; 1: off
    int batchSize = 64;
    int epochs = 10;
    double clipNorm = 1.0;  // 0: no clipping
    std::uint64_t seed = 42;
    int threads = 0;  // 0: all cores
};

// Every field of TransformerTrainingConfig: key, range, help and access (see ConfigField).
const std::vector<ConfigField<TransformerTrainingConfig>> &transformerTrainingConfigFields();

// Empty when valid, otherwise a message naming the offending field.
std::string validate(const TransformerTrainingConfig &config);

// The rate of optimiser step `step` (from 0), taken after `epochs` epochs' worth of steps:
// learningRate * (step + 1) / warmupSteps during the warm-up, then learningRate, or
// learningRate * sqrt(warmupSteps / (step + 1)); either times epochDecay^epochs.
double learningRateAt(const TransformerTrainingConfig &config, long step, double epochs);
