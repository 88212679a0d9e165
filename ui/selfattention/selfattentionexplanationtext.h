#pragma once

#include "engine/selfattention/scaleddotproductattention.h"

#include <QStringList>

// "Explain this weight" for cell (query, key) of the explorer's attention over `tokens`: q_i and
// k_j, their dot product term by term, the division by √d_k, the softmax over the row and key j's
// share of the output (engine/selfattention/selfattentionexplanation.h), as HTML.
QString selfAttentionExplanationHtml(const ScaledDotProductAttention &attention, const QStringList &tokens,
                                     int query, int key);
