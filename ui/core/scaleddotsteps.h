#pragma once

#include "engine/core/scaleddotexplanation.h"

#include <QString>
#include <QStringList>

#include <vector>

// What every "Explain this weight" of scaled dot-product attention shows after q_i and k_j, as HTML
// list items (<li>) for its numbered list: q_i · k_j term by term, the division by √d_k, the softmax
// over the row over `keys` (masked keys shown with −∞), the weight beside `shownWeight`, the one the
// heatmap shows, and key j's share a_ij v_j of the output o_i. `keyWord` names key j.
QString scaledDotSteps(const ScaledDotExplanation &e, const QStringList &keys, const QString &keyWord,
                       double shownWeight);

// A short vector's every value, "(0.120, −0.530, 1.000)"; a long one's length and first values.
QString vectorValues(const std::vector<double> &values);
