#pragma once

#include "engine/transformer/transformerinference.h"

#include <QString>

struct TransformerOutput;
struct TransformerSnapshot;

// "Explain this weight" for cell (row, column) of head `head` in layer `layer` of `kind` on
// `output`, which `snapshot` decoded: the rows the query and the key were projected from, q_i and k_j
// with the head's biases, q · k term by term, √d_k, the softmax over the row (the causal mask in the
// decoder's self-attention) and the value mix, with the snapshot's own numbers
// (engine/transformer/headexplanation.h), as HTML. What went wrong, when something did.
QString headExplanationHtml(const TransformerSnapshot &snapshot, const TransformerOutput &output,
                            TransformerAttentionKind kind, int layer, int head, int row, int column);

// What cell (row, column) of a head of `kind` (or of the rollout across layers, with `rolledOut`)
// says in a line, as HTML: the row's and the column's tokens (HTML-escaped) and the weight, formatted.
QString headCellHtml(TransformerAttentionKind kind, bool rolledOut, int row, int column, const QString &rowWord,
                     const QString &columnWord, const QString &weight);
