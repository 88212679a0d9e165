#pragma once

#include "ui/attention/metatypes.h"

#include <QString>

// How the attention lab words its numbers and models.
QString percent(double share);  // "97.5 %"
QString threeDigits(double value);  // losses near zero still show how near
QString describeEpoch(const EpochStats &stats);
QString describeModel(const Seq2SeqModel &model, const QString &origin);
