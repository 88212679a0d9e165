#include "ui/selfattention/sourcedescription.h"

#include <QCoreApplication>

namespace {

QString trSource(const char *text)
{
    return QCoreApplication::translate("SourceDescription", text);
}

}  // namespace

QString sourceDescription(SelfAttentionControls::Source source, bool positions, const QString &embeddings,
                          const SharedAttentionHead &head)
{
    using Source = SelfAttentionControls::Source;
    if (source == Source::Head) {
        const int dModel = head.head.projections.modelSize;
        return trSource("X, W_Q, W_K and W_V: %1. X is the layer's input at each word, d_model = %2 numbers, as the "
                        "head read it (after the layer norm in a pre-LN model; the word's embedding and position "
                        "already in it). The projections' biases are folded in exactly: X has a last column of 1s "
                        "(column %3) and each W a last row holding its bias, so X·W_Q = x W_Q + b_Q and these "
                        "weights are the head's; d_k = %4. <a href=\"random\">Back to random numbers</a>")
            .arg(head.description.toHtmlEscaped())
            .arg(dModel)
            .arg(dModel + 1)
            .arg(head.head.projections.headSize);
    }
    const QString added = positions ? trSource(" Each row of X also has its position added (sinusoidal, as in the "
                                               "Transformer), so the same word reads differently in another place.")
                                    : QString();
    if (source == Source::Random)
        return trSource("X: each word gets d_model numbers drawn from the seed and the word itself (multiples of 0.1 "
                        "between −1 and 1), so a repeated word has the same row. W_Q, W_K and W_V are drawn from the "
                        "seed the same way.") + added;
    const QString model = embeddings.isEmpty() ? trSource("the trained model") : embeddings;
    return trSource("X: the word embeddings of %1, projected onto their first d_model principal components (PCA over "
                    "the whole vocabulary) and scaled to the spread of the random numbers, so the tables stay small "
                    "and similar words keep similar rows; words the model does not know (marked *) use the &lt;UNK&gt; "
                    "row. W_Q, W_K and W_V stay random from the seed: the model has no query, key and value "
                    "projections to borrow.")
               .arg(model.toHtmlEscaped())
           + added;
}
