#pragma once

#include "engine/core/sentencepair.h"

#include <QJsonObject>

#include <functional>
#include <string>
#include <vector>

// What the benches share: timing statistics, latency of a call, and printing.
namespace benchfigures {

constexpr int kLatencyWarmup = 50;
constexpr int kLatencyCalls = 500;
constexpr int kLatencyWords = 10;  // the sentence timed, as the references' --latency
// The test exact match whose first epoch gives a run's "time to 99%", as the references time it.
constexpr double kTargetExactMatch = 0.99;
constexpr int kTickMs = 10;  // the GUI-thread timer whose lateness is the stall

// The first pair whose source has `words` words; null when none has.
const SentencePair *sentenceOfLength(const std::vector<SentencePair> &pairs, int words);

struct Latency {
    std::vector<double> ms;  // sorted
    bool outputCorrect = false;
};

double medianOrZero(std::vector<double> v);
// Same definition as reference.py: the ceil(0.99 n)-th smallest of `sorted`.
double percentile99(const std::vector<double> &sorted);
double mean(const std::vector<double> &v);

// kLatencyCalls calls of `call` timed after kLatencyWarmup; outputCorrect is what the last one
// returned.
Latency timeCalls(const std::function<bool()> &call);
QJsonObject latencyJson(const Latency &latency);

// "  figure ......  value", one row of the benches' tables.
void printRow(const std::string &figure, const std::string &value);
std::string format(const char *pattern, double a, double b = 0, double c = 0);

}
