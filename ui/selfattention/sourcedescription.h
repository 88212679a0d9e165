#pragma once

#include "ui/selfattention/selfattentioncontrols.h"
#include "ui/workbench/sharedattentionhead.h"

#include <QString>

// What the explorer says above its tables about where X, W_Q, W_K and W_V come from: drawn from
// the seed, trained embeddings (`embeddings` names them) with random projections, or a trained
// head, whose text links back to the random numbers ("random").
QString sourceDescription(SelfAttentionControls::Source source, bool positions, const QString &embeddings,
                          const SharedAttentionHead &head);
