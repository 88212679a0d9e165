#pragma once

#include "engine/core/attributionmethods.h"

class AttentionHeatmap;

// Whether a method's scores can be negative (a diverging colour scale) or not.
bool isSignedMethod(AttributionMethod method);

// Gives `heatmap` the colour scale of `map`: viridis from 0 to the largest score for a method that
// is never negative, a diverging scale centred on 0 (to the largest |score|, in nats) for one that
// can be; each method's units differ, so the scale is the map's own.
void setMethodColorScale(AttentionHeatmap &heatmap, const AttributionMap &map);
