#include "ui/transformer/rolloutexplanationtext.h"

#include "engine/transformer/attentionrollout.h"

#include <QCoreApplication>
#include <QLocale>

namespace {

QString trRollout(const char *text)
{
    return QCoreApplication::translate("RolloutExplanation", text);
}

}  // namespace

QString rolloutExplanationHtml(const RolloutMatrix &matrix, bool cross, const QString &rowToken,
                               const QString &columnToken, int row, int column)
{
    if (row < 0 || column < 0 || row >= matrix.rows || column >= matrix.columns)
        return QString();
    const QString share = QLocale().toString(double(matrix.at(row, column)), 'f', 3);
    const QString method =
        cross ? trRollout("An output position is followed as a mix of the tokens on both sides. In each decoder "
                          "layer the self-attention (heads averaged, the residual mixed in: "
                          "0.5&nbsp;A&nbsp;+&nbsp;0.5&nbsp;I) mixes the positions; the cross-attention adds half of "
                          "the encoder's output, whose mix of input words is the encoder's own rollout. The part on "
                          "the input words, its rows renormalised, is shown.")
              : trRollout("Each layer's heads are averaged into A, the residual is mixed in "
                          "(0.5&nbsp;A&nbsp;+&nbsp;0.5&nbsp;I, rows renormalised), and the layers are multiplied, the "
                          "last on the left: R&nbsp;=&nbsp;A'<sub>L</sub>&nbsp;…&nbsp;A'<sub>1</sub>.");
    return trRollout("<h3>Attention rollout</h3><p><b>%1</b> draws <b>%2</b> of what it holds after the last layer "
                     "from <b>%3</b>.</p><p>%4</p><p>Rollout (Abnar &amp; Zuidema 2020) assumes attention is all "
                     "that moves information between positions, and that the residual carries as much as the "
                     "attention: it is an estimate of where a position's information came from, not a measured "
                     "one.</p>")
        .arg(rowToken.toHtmlEscaped(), share, columnToken.toHtmlEscaped(), method);
}
