#pragma once

#include "engine/attention/beamsearch.h"

#include <QJsonObject>

#include <string>
#include <vector>

class Seq2SeqModel;
struct SentencePair;

// What the benches share: timing statistics, decode latency on the app's own path, and printing.
namespace benchfigures {

constexpr int kLatencyWarmup = 50;
constexpr int kLatencyCalls = 500;

struct Latency {
    std::vector<double> ms;  // sorted
    bool outputCorrect = false;
};

double medianOrZero(std::vector<double> v);
// Same definition as reference.py: the ceil(0.99 n)-th smallest of `sorted`.
double percentile99(const std::vector<double> &sorted);
double mean(const std::vector<double> &v);

// The app's own path: tokens in, words and attention out, stopping at <EOS>; greedy for width 1,
// else beam search. kLatencyCalls timed after kLatencyWarmup.
Latency measureDecodeLatency(const Seq2SeqModel &model, const SentencePair &sentence, const BeamOptions &beam);
QJsonObject latencyJson(const Latency &latency);

// "  figure ......  value", one row of the benches' tables.
void printRow(const std::string &figure, const std::string &value);
std::string format(const char *pattern, double a, double b = 0, double c = 0);

}
