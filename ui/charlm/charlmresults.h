#pragma once

#include "engine/charlm/charattribution.h"
#include "engine/charlm/charinferencenet.h"
#include "engine/charlm/chartrainer.h"
#include "engine/charlm/hiddenunits.h"
#include "engine/charlm/ngrambaseline.h"

#include <QMetaType>

#include <limits>
#include <memory>
#include <string>
#include <vector>

// What the character lab asks of its training job beside training, and what its jobs report, as
// values that cross to the GUI thread.

// Every `every` iterations the job samples `length` characters at `temperature` from the weights
// of the moment, after the text's first character.
struct CharProbeSettings {
    int every = 25;
    int length = 200;
    double temperature = 0.8;
};

// The counting baseline on the run's split, before the first window.
struct CharBaselineReady {
    NgramBaseline baseline;
};

// The weights at an iteration (a snapshot the views may use on any thread), a sample drawn from
// them and how much of the text they recite. Taken before training, every `every` iterations and
// at the end.
struct CharProbe {
    std::shared_ptr<const CharInferenceNet> net;
    int64_t iteration = 0;
    double epochPosition = 0;  // (epoch - 1) + window / windows per epoch
    // Mean training loss of the windows since the last probe; NaN before training.
    double bitsPerChar = std::numeric_limits<double>::quiet_NaN();
    std::u32string prime;
    std::u32string sample;     // generated after the prime
    int64_t memorised = 0;     // characters recited greedily after the text's first one
    int64_t memorisedLimit = 0;  // the most the meter counts: the text, or its first stretch
    bool memorisedWholeText = false;  // the limit is the whole training part
};

struct CharEpochDone {
    CharEpoch stats;
};

struct CharTrainingFinished {
    int epochsDone = 0;
    int epochs = 0;
    double charsPerSecond = 0;
};

// The hidden units of `net` ranked by how strongly each tracks a feature of `characters`
// characters of the text.
struct CharUnitsRanked {
    std::shared_ptr<const CharInferenceNet> net;
    std::vector<UnitScore> units;
    int64_t characters = 0;
};

// The attribution view asks which of the last characters of `context` drive the next one, under
// the weights `net`; `id` tells its answers apart.
struct CharAttributionRequest {
    int id = 0;
    std::shared_ptr<const CharInferenceNet> net;
    std::u32string context;
    CharAttributionOptions options;
};

// The answer: the attribution, or why there is none (the engine's message).
struct CharAttributionReady {
    int request = 0;
    CharAttribution attribution;
    std::string error;
};

Q_DECLARE_METATYPE(CharBaselineReady)
Q_DECLARE_METATYPE(CharProbe)
Q_DECLARE_METATYPE(CharEpochDone)
Q_DECLARE_METATYPE(CharTrainingFinished)
Q_DECLARE_METATYPE(CharUnitsRanked)
Q_DECLARE_METATYPE(CharAttributionReady)
