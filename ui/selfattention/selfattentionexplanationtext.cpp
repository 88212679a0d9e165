#include "ui/selfattention/selfattentionexplanationtext.h"

#include "engine/selfattention/selfattentionexplanation.h"
#include "ui/core/explanationtext.h"
#include "ui/core/scaleddotsteps.h"

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

}

QString selfAttentionExplanationHtml(const ScaledDotProductAttention &attention, const QStringList &tokens,
                                     int query, int key)
{
    ScaledDotExplanation e;
    try {
        e = explainSelfAttention(attention, query, key);
    } catch (const std::exception &error) {
        return trSelfAttentionExplanation("<p>Cannot explain this weight: %1</p>").arg(QString::fromStdString(error.what()).toHtmlEscaped());
    }
    const QString queryWord = QStringLiteral("“%1”").arg(tokens.value(query).toHtmlEscaped());
    const QString keyWord = QStringLiteral("“%1”").arg(tokens.value(key).toHtmlEscaped());

    QString html = trSelfAttentionExplanation("<h3>Query %1 (row i = %2) attends to key %3 (column j = %4) with weight %5</h3>")
                       .arg(queryWord, QString::number(query + 1), keyWord, QString::number(key + 1),
                            number(e.weight(), 3));
    html += trSelfAttentionExplanation("<p>Scaled dot-product attention: s<sub>ij</sub> = q<sub>i</sub> · k<sub>j</sub> / √d<sub>k</sub>, "
               "a<sub>i</sub> = softmax(s<sub>i</sub>) over the keys, o<sub>i</sub> = Σ<sub>j</sub> a<sub>ij</sub> "
               "v<sub>j</sub>.</p><ol>");
    html += item(trSelfAttentionExplanation("Query q<sub>i</sub>:"), trSelfAttentionExplanation("row %1 of Q = X W<sub>Q</sub>: %2").arg(query + 1).arg(vectorValues(e.q)));
    html += item(trSelfAttentionExplanation("Key k<sub>j</sub>:"), trSelfAttentionExplanation("row %1 of K = X W<sub>K</sub>: %2").arg(key + 1).arg(vectorValues(e.k)));
    html += scaledDotSteps(e, tokens, keyWord, attention.weights.at(query, key));
    return html + QStringLiteral("</ol>");
}
