#pragma once

#include "engine/charlm/charsampling.h"

#include <string>
#include <vector>

// Things about each position of a text a unit may track, measured so people can find the units
// that do (Karpathy et al. 2015 found quote and line-position cells this way).
enum class TextFeature { PositionInLine, InsideQuotes, InsideBrackets, AfterSpace };
const std::vector<TextFeature> &allTextFeatures();
std::string featureName(TextFeature feature);  // "position in line", ...

// The feature's value at every position of `text` (after reading that character).
std::vector<double> textFeature(const std::u32string &text, TextFeature feature);

struct UnitScore {
    int layer = 0;
    int unit = 0;
    TextFeature feature = TextFeature::PositionInLine;
    double correlation = 0;  // Pearson r of the unit's activation with the feature, over the text
};
// Each unit's best feature by |r| over the positions of the readout whose character was read
// (features and units constant there are skipped), strongest first, at most `count`.
std::vector<UnitScore> rankUnits(const CharReadout &readout, int count);
