#pragma once

#include "engine/core/datasetconfig.h"
#include "engine/core/epochstats.h"

#include <QJsonArray>
#include <QJsonObject>

#include <string>
#include <vector>

struct Dataset;

// The pieces of metrics.json and comparison.json that every lab training on the sequence tasks
// writes alike, so that their keys are the same.

QJsonArray stringArray(const std::vector<std::string> &items);
// "epoch", "train_loss", "val_loss", "val_exact_match", "seconds", "samples_per_second".
QJsonObject epochStatsJson(const EpochStats &epoch);
QJsonArray epochStatsJson(const std::vector<EpochStats> &history);
// The dataset's fields, and its word list, which is not one.
QJsonObject datasetJson(const DatasetConfig &dataset);
// What the data settings on auto came to, and what a corpus lost ("effective_settings"):
// "corpus", "min_length", "max_length" and where it came from, the lines skipped, the minimum
// count, the vocabulary's limit and size.
QJsonObject effectiveDataJson(const Dataset &data, const DatasetConfig &dataset, int vocabularySize);
