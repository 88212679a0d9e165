#pragma once

#include "engine/core/faithfulnessreport.h"

#include <QTest>

#include <string>

// What every FaithfulnessReport must be, whichever lab made it: a square agreement table and a
// top-word share per method, a curve per method then "random", each with a comprehensiveness and
// a sufficiency per erasure fraction, all falls in P within [-1, 1].
inline void checkFaithfulnessShape(const FaithfulnessReport &r)
{
    const std::size_t methods = r.methods.size();
    QCOMPARE(r.agreement.size(), methods * methods);
    QCOMPARE(r.topAnswerAgreement.size(), methods);
    for (double share : r.topAnswerAgreement)
        QVERIFY(share >= 0 && share <= 1);
    QCOMPARE(r.curves.size(), methods + 1);
    for (std::size_t m = 0; m < methods; ++m)
        QCOMPARE(r.curves[m].name, std::string(attributionMethodName(r.methods[m])));
    QCOMPARE(r.curves.back().name, std::string("random"));
    for (const ErasureCurve &curve : r.curves) {
        QCOMPARE(curve.comprehensiveness.size(), erasureFractions().size());
        QCOMPARE(curve.sufficiency.size(), erasureFractions().size());
        for (std::size_t f = 0; f < erasureFractions().size(); ++f) {
            QVERIFY(curve.comprehensiveness[f] >= -1 && curve.comprehensiveness[f] <= 1);
            QVERIFY(curve.sufficiency[f] >= -1 && curve.sufficiency[f] <= 1);
        }
    }
}
