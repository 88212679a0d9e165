#include "ui/attention/attentionexplanationtext.h"

#include "engine/attention/attentionexplanation.h"
#include "engine/attention/seq2seqmodel.h"
#include "ui/core/explanationtext.h"

#include <QCoreApplication>
#include <QStringList>

#include <exception>

namespace {

using explanationtext::number;
using explanationtext::vector;

QString trAttentionExplanation(const char *text)
{
    return QCoreApplication::translate("AttentionExplanation", text);
}

QString item(const QString &title, const QString &body)
{
    return QStringLiteral("<li><b>%1</b> %2</li>").arg(title, body);
}

QString word(const std::string &token)
{
    return QStringLiteral("“%1”").arg(QString::fromStdString(token).toHtmlEscaped());
}

QString formula(AttentionKind kind)
{
    switch (kind) {
    case AttentionKind::Bahdanau:
        return trAttentionExplanation("bahdanau (additive): e<sub>tj</sub> = vᵀ tanh(W<sub>s</sub> s<sub>t−1</sub> + W<sub>h</sub> "
                  "h<sub>j</sub>)");
    case AttentionKind::Location:
        return trAttentionExplanation("location: e<sub>tj</sub> = vᵀ tanh(W<sub>s</sub> s<sub>t−1</sub> + W<sub>h</sub> h<sub>j</sub> + "
                  "U f<sub>tj</sub> + b), f<sub>t</sub> = F * a<sub>t−1</sub>");
    case AttentionKind::LuongDot:
        return trAttentionExplanation("luong-dot: e<sub>tj</sub> = s<sub>t</sub>ᵀ h<sub>j</sub>");
    case AttentionKind::LuongGeneral:
        return trAttentionExplanation("luong-general: e<sub>tj</sub> = s<sub>t</sub>ᵀ W<sub>a</sub> h<sub>j</sub>");
    case AttentionKind::ScaledDot:
        return trAttentionExplanation("scaled-dot: e<sub>tj</sub> = s<sub>t</sub>ᵀ h<sub>j</sub> / √H");
    case AttentionKind::BahdanauAfter:
        return trAttentionExplanation("bahdanau-after (additive, with the new state): e<sub>tj</sub> = vᵀ tanh(W<sub>s</sub> "
                  "s<sub>t</sub> + W<sub>h</sub> h<sub>j</sub>)");
    case AttentionKind::None:
        break;
    }
    return {};
}

// "GRU", "RNN" or "LSTM": the decoder's cell.
QString cellText(const AttentionExplanation &e)
{
    return QString::fromLatin1(cellName(e.cell)).toUpper();
}

// The steps up to the score e_tj, which differ by variant.
QString scoreSteps(const AttentionExplanation &e, const QString &source)
{
    QString html;
    if (!isMultiplicative(e.kind)) {
        const bool location = e.kind == AttentionKind::Location;
        const bool after = e.kind == AttentionKind::BahdanauAfter;
        const QString s = after ? trAttentionExplanation("s<sub>t</sub>") : trAttentionExplanation("s<sub>t−1</sub>");
        html += item(trAttentionExplanation("Decoder state %1:").arg(s),
                     after ? trAttentionExplanation("the top %1 layer's state after this step's %1, which read the previous output "
                                "word. %2").arg(cellText(e), vector(e.state))
                           : trAttentionExplanation("the top %1 layer's state before this step (at the first step, the encoder's final "
                                "state through the bridge, or zeros without it). %2").arg(cellText(e), vector(e.state)));
        html += item(trAttentionExplanation("Encoder state h<sub>j</sub>:"),
                     trAttentionExplanation("the encoder's output at %1. %2").arg(source, vector(e.encoderState)));
        html += item(trAttentionExplanation("W<sub>s</sub>·%1:").arg(s), vector(e.query));
        html += item(trAttentionExplanation("W<sub>h</sub>·h<sub>j</sub>:"), vector(e.key));
        if (location) {
            html += item(trAttentionExplanation("Previous weights a<sub>t−1</sub>:"),
                         trAttentionExplanation("the row above (zeros at the first step). %1").arg(vector(e.previousWeights)));
            html += item(trAttentionExplanation("U·f<sub>tj</sub> + b:"),
                         trAttentionExplanation("f<sub>t</sub> = F * a<sub>t−1</sub>, the previous weights convolved with the learned "
                            "filters F, read at j. %1").arg(vector(e.location)));
            html += item(trAttentionExplanation("tanh(W<sub>s</sub>·s<sub>t−1</sub> + W<sub>h</sub>·h<sub>j</sub> + U·f<sub>tj</sub> + "
                            "b):"),
                         vector(e.energy));
        } else {
            html += item(trAttentionExplanation("tanh(W<sub>s</sub>·%1 + W<sub>h</sub>·h<sub>j</sub>):").arg(s), vector(e.energy));
        }
        html += item(trAttentionExplanation("Score e<sub>tj</sub> = vᵀ tanh(…):"),
                     trAttentionExplanation("the sum of %1 products with v = %2 gives <b>%3</b>.")
                         .arg(QString::number(e.energy.size()), vector(e.scoreWeights), number(e.score())));
        return html;
    }
    html += item(trAttentionExplanation("Decoder state s<sub>t</sub>:"),
                 trAttentionExplanation("the top %1 layer's state after this step's %1, which read the previous output word and "
                    "h̃<sub>t−1</sub>. %2").arg(cellText(e), vector(e.state)));
    html += item(trAttentionExplanation("Encoder state h<sub>j</sub>:"),
                 trAttentionExplanation("the encoder's output at %1. %2").arg(source, vector(e.encoderState)));
    if (e.kind == AttentionKind::LuongGeneral) {
        html += item(trAttentionExplanation("W<sub>a</sub>·h<sub>j</sub>:"), vector(e.key));
        html += item(trAttentionExplanation("Score e<sub>tj</sub> = s<sub>t</sub> · (W<sub>a</sub>·h<sub>j</sub>):"),
                     trAttentionExplanation("the sum of %1 products gives <b>%2</b>.")
                         .arg(QString::number(e.key.size()), number(e.score())));
    } else if (e.kind == AttentionKind::ScaledDot) {
        html += item(trAttentionExplanation("h<sub>j</sub> / √H:"),
                     trAttentionExplanation("the encoder state divided by √%1, so that the score of %1 products stays in the range "
                        "where the softmax still tells the words apart. %2")
                         .arg(QString::number(e.key.size()), vector(e.key)));
        html += item(trAttentionExplanation("Score e<sub>tj</sub> = s<sub>t</sub> · (h<sub>j</sub> / √H):"),
                     trAttentionExplanation("the sum of %1 products gives <b>%2</b>.")
                         .arg(QString::number(e.key.size()), number(e.score())));
    } else {
        html += item(trAttentionExplanation("Score e<sub>tj</sub> = s<sub>t</sub> · h<sub>j</sub>:"),
                     trAttentionExplanation("the sum of %1 products gives <b>%2</b>.")
                         .arg(QString::number(e.key.size()), number(e.score())));
    }
    return html;
}

}

QString attentionExplanationHtml(const Seq2SeqModel &model, const DecodedSentence &sentence, int row, int column)
{
    AttentionExplanation e;
    try {
        e = explainAttention(model, sentence, row, column);
    } catch (const std::exception &error) {
        return trAttentionExplanation("<p>Cannot explain this weight: %1</p>").arg(QString::fromStdString(error.what()).toHtmlEscaped());
    }
    const QString output = word(sentence.outputTokens[std::size_t(row)]);
    const QString source = word(sentence.sourceTokens[std::size_t(column)]);
    const QString read = sentence.sourceKnown[std::size_t(column)]
                             ? source
                             : source + trAttentionExplanation(" (not in the vocabulary: read as &lt;UNK&gt;)");
    QStringList tokens;
    for (const std::string &token : sentence.sourceTokens)
        tokens << QString::fromStdString(token);

    QString html = trAttentionExplanation("<h3>Output %1 (step t = %2) looks at input %3 (j = %4) with weight %5</h3>")
                       .arg(output, QString::number(row + 1), source, QString::number(column + 1),
                            number(e.weight(), 3));
    html += trAttentionExplanation("<p>Attention variant %1; then a<sub>t</sub> = softmax(e<sub>t</sub>) over the input words, "
               "c<sub>t</sub> = Σ<sub>j</sub> a<sub>tj</sub> h<sub>j</sub>. Vectors are shown by their length "
               "‖·‖ and first values.</p>")
                .arg(formula(e.kind));
    html += QStringLiteral("<ol>") + scoreSteps(e, read);
    html += item(trAttentionExplanation("Softmax over the row:"),
                 trAttentionExplanation("every input word gets its score the same way; a<sub>tk</sub> = exp(e<sub>tk</sub> − max) / "
                    "Σ exp(e − max).<br>%1")
                     .arg(explanationtext::softmaxTable(tokens, e.scores, e.weights, column, QStringLiteral("e"))));
    html += item(trAttentionExplanation("Weight:"), trAttentionExplanation("a<sub>tj</sub> = <b>%1</b>; the heatmap, from the decoding pass, shows %2.")
                                    .arg(number(e.weight()), number(double(sentence.weight(row, column)))));
    QString context = trAttentionExplanation("c<sub>t</sub> = Σ<sub>k</sub> a<sub>tk</sub> h<sub>k</sub>: %1.<br>The share of %2, "
                         "a<sub>tj</sub> h<sub>j</sub>: %3.<br>‖a<sub>tj</sub> h<sub>j</sub>‖ / ‖c<sub>t</sub>‖ = "
                         "%4; measured along c<sub>t</sub>, it makes up %5% of it (these shares add up to "
                         "100% over the row).")
                          .arg(vector(e.context), source, vector(e.share), number(e.shareNormRatio, 3),
                               number(100 * e.shareAlongContext, 1));
    if (isMultiplicative(e.kind))
        context += trAttentionExplanation("<br>The output layer then reads h̃<sub>t</sub> = tanh(W<sub>c</sub> [c<sub>t</sub>; "
                      "s<sub>t</sub>]).");
    else if (e.kind == AttentionKind::BahdanauAfter)
        context += trAttentionExplanation("<br>The output layer then reads [s<sub>t</sub>; c<sub>t</sub>].");
    else
        context += trAttentionExplanation("<br>The decoder's %1 then reads [embedding of the previous word; c<sub>t</sub>], and the "
                      "output layer [s<sub>t</sub>; c<sub>t</sub>; embedding].").arg(cellText(e));
    html += item(trAttentionExplanation("Context vector:"), context);
    return html + QStringLiteral("</ol>");
}
