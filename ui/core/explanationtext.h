#pragma once

#include <QString>
#include <QStringList>

#include <vector>

// The pieces the "Explain this weight" windows are written with, as HTML.
namespace explanationtext {

// Fixed decimals in the user's locale, with a true minus sign.
QString number(double value, int decimals = 4);
// Its length and first values: "‖·‖ = 3.2100, (0.1200, −0.5300, …), 128 values".
QString vector(const std::vector<double> &values, int shown = 6);
// A table of one row of scores and weights over `tokens`, column `chosen` highlighted: the token,
// the score (−∞ for a masked key), exp(score − max) and the weight; the last line sums the weights.
QString softmaxTable(const QStringList &tokens, const std::vector<double> &scores,
                     const std::vector<double> &weights, int chosen, const QString &scoreName);

}
