#include "ui/transformer/transformershareddecoder.h"

#include "engine/core/tokenizer.h"
#include "engine/transformer/attentionrollout.h"
#include "ui/transformer/transformerresults.h"

#include <QObject>

namespace {

// The output and its last layer's cross-attention, the source as the words given (not <UNK>).
SharedDecoding sharedDecodingOf(const TransformerOutput &output, const std::vector<std::string> &words,
                                const Vocabulary &vocabulary)
{
    SharedDecoding decoding;
    decoding.sourceTokens = words;
    decoding.sourceTokens.push_back(vocabulary.word(Vocabulary::kEos));
    for (const std::string &word : words)
        decoding.sourceKnown.push_back(vocabulary.contains(word));
    decoding.sourceKnown.push_back(true);
    decoding.outputTokens = output.outputTokens;
    if (!output.cross.weights.empty())
        decoding.attention = layerHeadMean(output.cross, int(output.cross.weights.size()) - 1).values;
    return decoding;
}

}  // namespace

SharedDecoder sharedTransformerDecoder(std::shared_ptr<const TransformerSnapshot> snapshot, bool lowercase,
                                       const QString &description)
{
    SharedDecoder decoder;
    decoder.architecture = QObject::tr("Transformer");
    decoder.description = description;
    const int heads = snapshot->config.heads, layers = snapshot->config.layers;
    decoder.attention = heads == 1 ? QObject::tr("cross-attention of the last decoder layer (%1 of %1)").arg(layers)
                                   : QObject::tr("cross-attention of the last decoder layer (%1 of %1), mean of its "
                                                 "%2 heads")
                                         .arg(layers)
                                         .arg(heads);
    decoder.vocabulary = std::shared_ptr<const Vocabulary>(snapshot, &snapshot->vocabulary);
    decoder.lowercase = lowercase;
    decoder.decode = [snapshot, lowercase](const std::string &sentence) {
        const std::vector<std::string> words = tokenize(sentence, lowercase);
        return sharedDecodingOf(decodeWords(*snapshot->inference, snapshot->vocabulary, words), words,
                                snapshot->vocabulary);
    };
    decoder.decodeAlong = [snapshot](const std::vector<std::string> &words, const std::vector<std::string> &outputs) {
        return sharedDecodingOf(decodeWordsAlong(*snapshot->inference, snapshot->vocabulary, words, outputs), words,
                                snapshot->vocabulary);
    };
    return decoder;
}
