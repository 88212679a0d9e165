#include "ui/core/rowagreementtext.h"

#include "engine/core/faithfulnessreport.h"

#include <QCoreApplication>
#include <QLocale>

#include <cmath>

namespace {

QString trRowAgreement(const char *text, int n = -1)
{
    return QCoreApplication::translate("RowAgreementText", text, nullptr, n);
}

// Rank correlations of about 0.3 and 0.5 are conventionally called moderate and strong.
QString agreementInWords(double rho)
{
    if (rho >= 0.5)
        return trRowAgreement("they mostly agree on which words matter");
    if (rho >= 0.3)
        return trRowAgreement("they partly agree");
    if (rho > -0.3)
        return trRowAgreement("they hardly agree: each tells a different story");
    return trRowAgreement("they disagree: what one ranks high another ranks low");
}

}

RowAgreementText rowAgreementText(const ExplainedSentence &explained, int row)
{
    const std::vector<double> agreement = rowAgreement(explained, row);
    const std::size_t n = explained.maps.size();
    const bool agreementFits = agreement.size() == n * n;
    std::size_t reference = 0;
    for (std::size_t m = 0; m < n; ++m)
        if (explained.maps[m].method == AttributionMethod::Attention)
            reference = m;
    const QLocale locale;
    RowAgreementText text;
    double sum = 0;
    int pairs = 0;
    for (std::size_t m = 0; m < n; ++m) {
        QString note;
        if (agreementFits && m != reference) {
            const double rho = agreement[m * n + reference];
            note = std::isnan(rho) ? trRowAgreement("ρ –") : trRowAgreement("ρ %1").arg(locale.toString(rho, 'f', 2));
        }
        text.notes << note;
        for (std::size_t other = m + 1; other < n && agreementFits; ++other)
            if (!std::isnan(agreement[m * n + other])) {
                sum += agreement[m * n + other];
                ++pairs;
            }
    }
    const QString output = QString::fromStdString(explained.outputTokens[std::size_t(row)]);
    if (pairs == 0)
        text.line = trRowAgreement("Agreement undefined for <b>%1</b>: a rank correlation needs three words, and "
                                   "scores that are not all equal.")
                        .arg(output.toHtmlEscaped());
    else
        text.line = trRowAgreement("For <b>%1</b>, mean ρ over the %n pair(s) of methods: <b>%2</b>: %3.", pairs)
                        .arg(output.toHtmlEscaped(), locale.toString(sum / pairs, 'f', 2), agreementInWords(sum / pairs));
    return text;
}
