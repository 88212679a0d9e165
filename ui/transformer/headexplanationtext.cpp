#include "ui/transformer/headexplanationtext.h"

#include "engine/transformer/headexplanation.h"
#include "ui/core/explanationtext.h"
#include "ui/core/scaleddotsteps.h"
#include "ui/transformer/transformerresults.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <exception>

namespace {

using Kind = TransformerAttentionKind;
using explanationtext::number;

QString trHead(const char *text)
{
    return QCoreApplication::translate("HeadExplanation", text);
}

QString headItem(const QString &title, const QString &body)
{
    return QStringLiteral("<li><b>%1</b> %2</li>").arg(title, body);
}

QStringList qtWords(const std::vector<std::string> &tokens)
{
    QStringList words;
    for (const std::string &token : tokens)
        words << QString::fromStdString(token);
    return words;
}

QString quoted(const QString &word)
{
    return QStringLiteral("“%1”").arg(word.toHtmlEscaped());
}

// Where a sublayer's input comes from: the embeddings in the first layer, the layer below after it.
QString streamAt(const HeadExplanation &e, const QString &word)
{
    if (e.layer == 0)
        return trHead("the embedding of %1 × √d_model plus its position").arg(word);
    return trHead("the output of layer %1 at %2").arg(e.layer).arg(word);
}

// What x_i or x_j is, in words.
QString inputText(const HeadExplanation &e, bool query, const QString &word)
{
    if (e.kind == Kind::Cross && !query)
        return trHead("the encoder's output at %1 (after its final layer norm in a pre-LN model): every "
                      "cross-attention reads its keys and values from it.")
            .arg(word);
    QString stream = streamAt(e, word);
    if (e.kind == Kind::Cross)
        stream = trHead("%1, with this layer's self-attention added").arg(stream);
    return e.preNorm ? trHead("%1, normalised by the layer norm before this sublayer (pre-LN).").arg(stream)
                     : trHead("%1, as it comes: a post-LN layer normalises after the residual.").arg(stream);
}

QString kindTitle(Kind kind)
{
    switch (kind) {
    case Kind::EncoderSelf: return trHead("the encoder's self-attention");
    case Kind::DecoderSelf: return trHead("the decoder's self-attention");
    case Kind::Cross: break;
    }
    return trHead("the cross-attention");
}

}  // namespace

QString headExplanationHtml(const TransformerSnapshot &snapshot, const TransformerOutput &output,
                            TransformerAttentionKind kind, int layer, int head, int row, int column)
{
    HeadExplanation e;
    try {
        e = explainHead(*snapshot.inference, snapshot.vocabulary, output, kind, layer, head, row, column);
    } catch (const std::exception &error) {
        return trHead("<p>Cannot explain this weight: %1</p>").arg(QString::fromStdString(error.what()).toHtmlEscaped());
    }
    const QStringList source = qtWords(output.sourceTokens);
    const QStringList outputs = qtWords(output.outputTokens);
    // A decoder step reads the token before it: <SOS>, then each output but the last.
    const QStringList decoderInputs = QStringList{QStringLiteral("<SOS>")} + outputs.mid(0, outputs.size() - 1);
    const QStringList keys = kind == Kind::DecoderSelf ? decoderInputs : source;
    const QString keyWord = quoted(keys.value(column));
    const QString queryWord = kind == Kind::EncoderSelf
                                  ? quoted(source.value(row))
                                  : trHead("step %1 (reading %2, writing %3)")
                                        .arg(row + 1)
                                        .arg(quoted(decoderInputs.value(row)), quoted(outputs.value(row)));
    const LayeredAttention &shown = kind == Kind::EncoderSelf ? output.encoderSelf
                                    : kind == Kind::DecoderSelf ? output.decoderSelf
                                                                : output.cross;
    const double shownWeight =
        double(shown.weights[std::size_t(layer)][std::size_t(head)][std::size_t(row * shown.columns + column)]);
    const int dK = int(e.attention.q.size());

    QString html = trHead("<h3>Layer %1, head %2 of %3: query %4 (i = %5) attends to key %6 (j = %7) with weight "
                          "%8</h3>")
                       .arg(QString::number(layer + 1), QString::number(head + 1), kindTitle(kind), queryWord,
                            QString::number(row + 1), keyWord, QString::number(column + 1),
                            number(e.attention.weight(), 3));
    html += trHead("<p>Each head h projects every row x of its input on its own: q = x W<sub>Q</sub><sup>h</sup> + "
                   "b<sub>Q</sub><sup>h</sup>, k = x W<sub>K</sub><sup>h</sup> + b<sub>K</sub><sup>h</sup>, v = x "
                   "W<sub>V</sub><sup>h</sup> + b<sub>V</sub><sup>h</sup>, with d<sub>k</sub> = d<sub>model</sub> / "
                   "heads = %1 / %2 = %3 values each; then s<sub>ij</sub> = q<sub>i</sub> · k<sub>j</sub> / "
                   "√d<sub>k</sub>, a<sub>i</sub> = softmax(s<sub>i</sub>), o<sub>i</sub> = Σ<sub>j</sub> "
                   "a<sub>ij</sub> v<sub>j</sub>. Long vectors are shown by their length ‖·‖ and first values.</p><ol>")
                .arg(e.modelSize)
                .arg(e.modelSize / std::max(1, dK))
                .arg(dK);
    const QString queryToken = kind == Kind::EncoderSelf ? quoted(source.value(row)) : quoted(decoderInputs.value(row));
    html += headItem(trHead("Query input x<sub>i</sub>:"),
                     inputText(e, true, queryToken) + QStringLiteral(" ") + vectorValues(e.queryInput));
    html += headItem(trHead("Key input x<sub>j</sub>:"),
                     inputText(e, false, keyWord) + QStringLiteral(" ") + vectorValues(e.keyInput));
    html += headItem(trHead("Query q<sub>i</sub> = x<sub>i</sub> W<sub>Q</sub><sup>h</sup> + b<sub>Q</sub><sup>h</sup>:"),
                     trHead("%1 columns of W<sub>Q</sub> (rows %2 to %3 of the packed in-projection), bias %4; q<sub>i</sub> = %5")
                         .arg(dK)
                         .arg(head * dK + 1)
                         .arg((head + 1) * dK)
                         .arg(vectorValues(e.queryBias), vectorValues(e.attention.q)));
    html += headItem(trHead("Key k<sub>j</sub> = x<sub>j</sub> W<sub>K</sub><sup>h</sup> + b<sub>K</sub><sup>h</sup>:"),
                     trHead("bias %1; k<sub>j</sub> = %2").arg(vectorValues(e.keyBias), vectorValues(e.attention.k)));
    html += headItem(trHead("Value v<sub>j</sub> = x<sub>j</sub> W<sub>V</sub><sup>h</sup> + b<sub>V</sub><sup>h</sup>:"),
                     trHead("bias %1; v<sub>j</sub> = %2").arg(vectorValues(e.valueBias), vectorValues(e.attention.value)));
    html += scaledDotSteps(e.attention, keys, keyWord, shownWeight);
    html += headItem(trHead("Then:"), trHead("the %1 heads' outputs o<sub>i</sub> side by side (%2 values) go through "
                                             "the output projection W<sub>O</sub> and are added to the stream at %3.")
                                          .arg(e.modelSize / std::max(1, dK))
                                          .arg(e.modelSize)
                                          .arg(queryWord));
    return html + QStringLiteral("</ol>");
}

QString headCellHtml(TransformerAttentionKind kind, bool rolledOut, int row, int column, const QString &rowWord,
                     const QString &columnWord, const QString &weight)
{
    if (rolledOut)
        return trHead("Through all layers, <b>%1</b> draws a share <b>%2</b> of what it holds from input <b>%3</b>")
            .arg(rowWord, weight, columnWord);
    switch (kind) {
    case Kind::EncoderSelf:
        return trHead("Input <b>%1</b> attends to input <b>%2</b> with weight <b>%3</b>").arg(rowWord, columnWord, weight);
    case Kind::DecoderSelf:
        return trHead("Step %1 (output <b>%2</b>) attends to step %3's input <b>%4</b> with weight <b>%5</b>")
            .arg(row + 1)
            .arg(rowWord)
            .arg(column + 1)
            .arg(columnWord, weight);
    case Kind::Cross: break;
    }
    return trHead("Output <b>%1</b> looks at input <b>%2</b> with weight <b>%3</b>").arg(rowWord, columnWord, weight);
}
