#include "ui/core/explanationtext.h"

#include <QCoreApplication>
#include <QLocale>
#include <QStringList>

#include <algorithm>
#include <cmath>

namespace explanationtext {

QString number(double value, int decimals)
{
    // A value that rounds to zero is shown without a sign.
    const double rounded = std::round(value * std::pow(10.0, decimals)) / std::pow(10.0, decimals);
    QString text = QLocale().toString(rounded == 0 ? 0.0 : value, 'f', decimals);
    if (text.startsWith(QLatin1Char('-')))
        text.replace(0, 1, QChar(0x2212));
    return text;
}

QString vector(const std::vector<double> &values, int shown)
{
    double squares = 0;
    for (double x : values)
        squares += x * x;
    QStringList head;
    for (std::size_t i = 0; i < values.size() && i < std::size_t(shown); ++i)
        head << number(values[i]);
    if (values.size() > std::size_t(shown))
        head << QStringLiteral("…");
    return QCoreApplication::translate("explanationtext", "‖·‖ = %1, (%2), %3 values")
        .arg(number(std::sqrt(squares)), head.join(QStringLiteral(", ")), QString::number(values.size()));
}

QString softmaxTable(const QStringList &tokens, const std::vector<double> &scores,
                     const std::vector<double> &weights, int chosen, const QString &scoreName)
{
    const auto tr = [](const char *text) { return QCoreApplication::translate("explanationtext", text); };
    // A masked key's score is −∞ and its weight 0.
    const double highest = *std::max_element(scores.begin(), scores.end());
    double sum = 0;
    for (double w : weights)
        sum += w;
    QString html = QStringLiteral("<table cellspacing=\"0\" cellpadding=\"3\" border=\"1\">"
                                  "<tr><th>%1</th><th>%2</th><th>exp(%2 − max)</th><th>%3</th></tr>")
                       .arg(tr("word"), scoreName, tr("weight"));
    for (std::size_t k = 0; k < scores.size(); ++k) {
        const bool isChosen = int(k) == chosen;
        const QString cell =
            isChosen ? QStringLiteral("<td bgcolor=\"#ffd54f\"><b>%1</b></td>") : QStringLiteral("<td>%1</td>");
        html += QStringLiteral("<tr>") + cell.arg(tokens.value(int(k)).toHtmlEscaped())
              + cell.arg(std::isinf(scores[k]) ? QStringLiteral("−∞") : number(scores[k]))
              + cell.arg(number(std::exp(scores[k] - highest)))
              + cell.arg(number(weights[k])) + QStringLiteral("</tr>");
    }
    html += QStringLiteral("<tr><td colspan=\"3\">%1</td><td>%2</td></tr></table>")
                .arg(tr("sum of the weights"), number(sum));
    return html;
}

}
