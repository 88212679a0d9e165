#pragma once

#include "engine/attention/evaluation.h"
#include "engine/core/dataset.h"

#include <string>
#include <vector>

// Exact match by sentence length beside how much of the corpus each length is: a real corpus's long
// tail is where a model fails, and this names the lengths and what share of the text they hold.
struct LengthRow {
    int length = 0;            // words of the target sentence, as EvaluationReport::byLength counts
    int corpusSentences = 0;   // in the run's three splits together
    double corpusShare = 0;    // 0..1
    LengthAccuracy test;       // the test sentences of this length, and how many came out right
};

struct LengthReport {
    std::vector<LengthRow> rows;  // every length the splits hold, shortest first
    double bar = 0;               // the exact match a length should reach
    std::vector<int> below;       // the lengths with test sentences whose exact match is under it
    double belowShare = 0;        // of the corpus, 0..1, held by those lengths
};

constexpr double kLengthBar = 0.9;

LengthReport lengthReport(const Dataset &data, const EvaluationReport &test, double bar = kLengthBar);

// A row per length (words, corpus sentences and share, test sentences, exact match), then the
// lengths under the bar and the corpus share they hold, or that there are none.
std::string formatLengthReport(const LengthReport &report);
