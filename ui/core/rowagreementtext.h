#pragma once

#include "engine/core/explainedsentence.h"

#include <QString>
#include <QStringList>

// The agreement line over one output word's small multiples, in either lab: Spearman's ρ between
// each pair of methods on that row (rowAgreement), their mean in words, and for each method its ρ
// with the reference (attention when it was computed, otherwise the first method).
struct RowAgreementText {
    QString line;       // HTML: "For <b>word</b>, mean ρ over the 10 pairs of methods: …"
    QStringList notes;  // one per map of the explanation: "ρ 0.53", empty for the reference
};

// `row` must be explained by every map of `explained`.
RowAgreementText rowAgreementText(const ExplainedSentence &explained, int row);
