#include "ui/attention/decodedheatmap.h"

#include "engine/attention/decodedsentence.h"
#include "ui/core/attentionheatmap.h"

#include <QCoreApplication>

void showDecodedSentence(AttentionHeatmap &heatmap, const DecodedSentence &sentence)
{
    if (sentence.attention.empty() && !sentence.outputTokens.empty()) {
        heatmap.showMessage(QCoreApplication::translate("AttentionHeatmap",
                                                        "This model has no attention (variant none): its decoder "
                                                        "sees only the encoder's final state"));
        return;
    }
    HeatmapMatrix matrix;
    for (const std::string &token : sentence.sourceTokens)
        matrix.columns << QString::fromStdString(token);
    for (const std::string &token : sentence.outputTokens)
        matrix.rows << QString::fromStdString(token);
    matrix.weights = sentence.attention;
    matrix.columnKnown = sentence.sourceKnown;
    matrix.rowCopied = sentence.outputCopied;
    matrix.rowGate = sentence.copyGate;
    heatmap.setMatrix(matrix);
}
