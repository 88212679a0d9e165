#include "ui/core/scaleddotsteps.h"

#include "ui/core/explanationtext.h"

#include <QCoreApplication>

#include <cmath>

namespace {

using explanationtext::number;

// Vectors up to this long are written out in full.
constexpr std::size_t kAllValues = 8;

QString trScaledDot(const char *text)
{
    return QCoreApplication::translate("ScaledDotSteps", text);
}

QString stepItem(const QString &title, const QString &body)
{
    return QStringLiteral("<li><b>%1</b> %2</li>").arg(title, body);
}

}  // namespace

QString vectorValues(const std::vector<double> &values)
{
    if (values.size() > kAllValues)
        return explanationtext::vector(values);
    QStringList shown;
    for (double x : values)
        shown << number(x, 3);
    return QStringLiteral("(%1)").arg(shown.join(QStringLiteral(", ")));
}

QString scaledDotSteps(const ScaledDotExplanation &e, const QStringList &keys, const QString &keyWord,
                       double shownWeight)
{
    QStringList terms;
    for (std::size_t m = 0; m < e.products.size(); ++m)
        terms << QStringLiteral("%1×%2").arg(number(e.q[m], 3), number(e.k[m], 3));
    QStringList products;
    for (double p : e.products)
        products << number(p);
    std::vector<double> shownScores = e.scores;
    for (std::size_t j = std::size_t(e.visibleKeys); j < shownScores.size(); ++j)
        shownScores[j] = -HUGE_VAL;

    QString html = stepItem(trScaledDot("Dot product term by term:"),
                            trScaledDot("q<sub>i</sub> · k<sub>j</sub> = %1<br>= %2<br>= <b>%3</b>")
                                .arg(terms.join(QStringLiteral(" + ")), products.join(QStringLiteral(" + ")),
                                     number(e.dot)));
    html += stepItem(trScaledDot("Scaled:"), trScaledDot("%1 / √%2 = %1 / %3 = <b>%4</b>")
                                                 .arg(number(e.dot))
                                                 .arg(e.q.size())
                                                 .arg(number(e.scale), number(e.score())));
    QString softmax = trScaledDot("every key gets its score the same way; a<sub>ik</sub> = exp(s<sub>ik</sub> − max) / "
                                  "Σ exp(s − max).");
    if (e.visibleKeys < int(e.scores.size()))
        softmax += trScaledDot(" The causal mask adds −∞ to the scores of the keys after the query's own step: "
                               "a token cannot look at what comes after it, so their weight is exactly 0.");
    html += stepItem(trScaledDot("Softmax over the row:"),
                     softmax + QStringLiteral("<br>") +
                         explanationtext::softmaxTable(keys, shownScores, e.weights, e.key, QStringLiteral("s")));
    html += stepItem(trScaledDot("Weight:"),
                     (e.masked() ? trScaledDot("a<sub>ij</sub> = <b>%1</b>, masked; the heatmap shows %2.")
                                 : trScaledDot("a<sub>ij</sub> = <b>%1</b>; the heatmap shows %2."))
                         .arg(number(e.weight()), number(shownWeight)));
    html += stepItem(trScaledDot("Output:"),
                     trScaledDot("the share of key %1, a<sub>ij</sub> v<sub>j</sub> = %2 × %3 = %4, in "
                                 "o<sub>i</sub> = Σ<sub>j</sub> a<sub>ij</sub> v<sub>j</sub> = %5.")
                         .arg(keyWord, number(e.weight(), 3), vectorValues(e.value), vectorValues(e.share),
                              vectorValues(e.output)));
    return html;
}
