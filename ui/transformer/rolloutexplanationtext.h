#pragma once

#include <QString>

struct RolloutMatrix;

// "Explain this weight" for cell (row, column) of an attention rollout, as HTML: the share the row's
// token draws from the column's after the last layer, how the rollout was computed (`cross`: the
// decoder's outputs over the input words, through both stacks) and what it assumes. Empty for a
// cell outside `matrix`.
QString rolloutExplanationHtml(const RolloutMatrix &matrix, bool cross, const QString &rowToken,
                               const QString &columnToken, int row, int column);
