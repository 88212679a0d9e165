#include "ui/selfattention/selfattentionexplanationtext.h"

#include "engine/selfattention/selfattentionexplanation.h"
#include "ui/core/explanationtext.h"

#include <QCoreApplication>

#include <exception>

namespace {

using explanationtext::number;

QString trSelfAttentionExplanation(const char *text)
{
    return QCoreApplication::translate("SelfAttentionExplanation", text);
}

QString item(const QString &title, const QString &body)
{
    return QStringLiteral("<li><b>%1</b> %2</li>").arg(title, body);
}

QString values(const std::vector<double> &v)
{
    QStringList shown;
    for (double x : v)
        shown << number(x, 3);
    return QStringLiteral("(%1)").arg(shown.join(QStringLiteral(", ")));
}

}

QString selfAttentionExplanationHtml(const ScaledDotProductAttention &attention, const QStringList &tokens,
                                     int query, int key)
{
    SelfAttentionExplanation e;
    try {
        e = explainSelfAttention(attention, query, key);
    } catch (const std::exception &error) {
        return trSelfAttentionExplanation("<p>Cannot explain this weight: %1</p>").arg(QString::fromStdString(error.what()).toHtmlEscaped());
    }
    const QString queryWord = QStringLiteral("“%1”").arg(tokens.value(query).toHtmlEscaped());
    const QString keyWord = QStringLiteral("“%1”").arg(tokens.value(key).toHtmlEscaped());
    QStringList terms;
    for (std::size_t m = 0; m < e.products.size(); ++m)
        terms << QStringLiteral("%1×%2").arg(number(e.q[m], 3), number(e.k[m], 3));
    QStringList products;
    for (double p : e.products)
        products << number(p);

    QString html = trSelfAttentionExplanation("<h3>Query %1 (row i = %2) attends to key %3 (column j = %4) with weight %5</h3>")
                       .arg(queryWord, QString::number(query + 1), keyWord, QString::number(key + 1),
                            number(e.weight(), 3));
    html += trSelfAttentionExplanation("<p>Scaled dot-product attention: s<sub>ij</sub> = q<sub>i</sub> · k<sub>j</sub> / √d<sub>k</sub>, "
               "a<sub>i</sub> = softmax(s<sub>i</sub>) over the keys, o<sub>i</sub> = Σ<sub>j</sub> a<sub>ij</sub> "
               "v<sub>j</sub>.</p><ol>");
    html += item(trSelfAttentionExplanation("Query q<sub>i</sub>:"), trSelfAttentionExplanation("row %1 of Q = X W<sub>Q</sub>: %2").arg(query + 1).arg(values(e.q)));
    html += item(trSelfAttentionExplanation("Key k<sub>j</sub>:"), trSelfAttentionExplanation("row %1 of K = X W<sub>K</sub>: %2").arg(key + 1).arg(values(e.k)));
    html += item(trSelfAttentionExplanation("Dot product term by term:"),
                 trSelfAttentionExplanation("q<sub>i</sub> · k<sub>j</sub> = %1<br>= %2<br>= <b>%3</b>")
                     .arg(terms.join(QStringLiteral(" + ")), products.join(QStringLiteral(" + ")), number(e.dot)));
    html += item(trSelfAttentionExplanation("Scaled:"), trSelfAttentionExplanation("%1 / √%2 = %1 / %3 = <b>%4</b>")
                                    .arg(number(e.dot))
                                    .arg(e.q.size())
                                    .arg(number(e.scale), number(e.score())));
    html += item(trSelfAttentionExplanation("Softmax over the row:"),
                 trSelfAttentionExplanation("every key gets its score the same way; a<sub>ik</sub> = exp(s<sub>ik</sub> − max) / "
                    "Σ exp(s − max).<br>%1")
                     .arg(explanationtext::softmaxTable(tokens, e.scores, e.weights, key, QStringLiteral("s"))));
    html += item(trSelfAttentionExplanation("Weight:"), trSelfAttentionExplanation("a<sub>ij</sub> = <b>%1</b>; the heatmap shows %2.")
                                    .arg(number(e.weight()), number(attention.weights.at(query, key))));
    html += item(trSelfAttentionExplanation("Output:"), trSelfAttentionExplanation("the share of key %1, a<sub>ij</sub> v<sub>j</sub> = %2 × %3 = %4, in "
                                   "o<sub>i</sub> = %5.")
                                    .arg(keyWord, number(e.weight(), 3), values(e.value), values(e.share),
                                         values(e.output)));
    return html + QStringLiteral("</ol>");
}
