#include "engine/charlm/chartext.h"

#include "engine/core/plaintext.h"
#include "engine/core/thousands.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

int CharText::idOf(char32_t c) const
{
    const auto it = std::lower_bound(alphabet.begin(), alphabet.end(), c);
    return it != alphabet.end() && *it == c ? int(it - alphabet.begin()) : -1;
}

CharText buildCharText(const std::string &utf8, double validationShare, int seqLen)
{
    if (utf8.empty())
        throw std::invalid_argument("The text is empty: give the model some text to learn to write.");
    refuseBinaryText(utf8, "The text", "Give a plain text file.");
    CharText result;
    result.text.reserve(utf8.size());
    // Line ends are read as "\n" whatever system wrote the file, so "\r" is not a character to learn;
    // nor is the byte order mark some editors put first.
    const std::u32string decoded = decodeUtf8(utf8);
    for (size_t i = decoded.empty() || decoded[0] != U'\uFEFF' ? 0 : 1; i < decoded.size(); ++i)
        if (!(decoded[i] == U'\r' && i + 1 < decoded.size() && decoded[i + 1] == U'\n'))
            result.text += decoded[i];
    if (int64_t(result.text.size()) > kMaxCharTextLength)
        throw std::invalid_argument("The text has " + withThousands(int64_t(result.text.size())) +
                                    " characters; the lab takes at most " + withThousands(kMaxCharTextLength) +
                                    ". Give a shorter text.");
    if (result.text.size() < 2)
        throw std::invalid_argument("The text has one character: there is no next character to learn to predict.");

    result.alphabet = result.text;
    std::sort(result.alphabet.begin(), result.alphabet.end());
    result.alphabet.erase(std::unique(result.alphabet.begin(), result.alphabet.end()), result.alphabet.end());
    if (result.alphabet.size() < 2)
        throw std::invalid_argument("The text is one character repeated: every next character is the same, so "
                                    "there is nothing to learn. Give a text with at least two different "
                                    "characters.");
    result.ids.reserve(result.text.size());
    for (char32_t c : result.text)
        result.ids.push_back(int32_t(result.idOf(c)));

    // The held-out tail: the share asked for, at least one window and its next character (as the
    // reference script holds out), as long as two windows are left to train on.
    const int64_t length = result.length();
    result.trainLength = length;
    if (validationShare > 0) {
        const int64_t wanted = std::max<int64_t>(seqLen + 1, int64_t(std::floor(double(length) * validationShare)));
        if (length - wanted >= 2 * int64_t(seqLen) + 1)
            result.trainLength = length - wanted;
        else
            result.validationNote = "No validation: the text's " + withThousands(length) +
                                    " characters cannot spare a held-out tail of " + withThousands(wanted) +
                                    " and still leave two windows to train on; the model is measured on what "
                                    "it trains on.";
    } else {
        result.validationNote = "No validation: the validation share is 0.";
    }
    return result;
}

CharStreams charStreams(int64_t trainLength, int batch, int seqLen)
{
    CharStreams s;
    s.targetsPerEpoch = std::max<int64_t>(0, trainLength - 1);
    if (s.targetsPerEpoch == 0 || batch < 1 || seqLen < 1)
        return s;
    // As many streams as the batch asks, but each at least one window long; then only as many as
    // that length needs, so that no stream is left empty (43 targets in 21 streams of 3 fill 15).
    s.streams = int(std::clamp<int64_t>(s.targetsPerEpoch / seqLen, 1, batch));
    s.streamLength = (s.targetsPerEpoch + s.streams - 1) / s.streams;
    s.streams = int((s.targetsPerEpoch + s.streamLength - 1) / s.streamLength);
    s.windowsPerEpoch = (s.streamLength + seqLen - 1) / seqLen;
    return s;
}

int64_t charModelParameterCount(const CharModelConfig &config, int alphabetSize)
{
    const int64_t v = alphabetSize, h = config.hidden, g = gateCount(config.cell);
    int64_t count = config.embed > 0 ? v * config.embed : 0;
    for (int layer = 0; layer < config.layers; ++layer) {
        const int64_t input = layer > 0 ? h : config.embed > 0 ? config.embed : v;
        count += g * h * (input + h + 2);
    }
    return count + v * h + v;
}

CharTextPreview previewCharText(const CharText &text, const CharModelConfig &model, const CharTrainingConfig &training)
{
    CharTextPreview preview;
    preview.characters = text.length();
    preview.alphabet = text.alphabetSize();
    preview.trainCharacters = text.trainLength;
    preview.validationCharacters = text.validationLength();
    preview.validationNote = text.validationNote;
    preview.streams = charStreams(text.trainLength, training.batch, training.seqLen);
    preview.parameters = charModelParameterCount(model, text.alphabetSize());
    if (preview.streams.streams < training.batch)
        preview.warnings.push_back("The text is short for " + std::to_string(training.batch) + " streams of " +
                                   std::to_string(training.seqLen) + " characters: it is read as " +
                                   std::to_string(preview.streams.streams) + (preview.streams.streams == 1 ? " stream" : " streams") + ".");
    if (preview.parameters > 100 * preview.trainCharacters)
        preview.warnings.push_back("The model has " + withThousands(preview.parameters) + " weights for " +
                                   withThousands(preview.trainCharacters) +
                                   " training characters: it will learn the text by heart rather than how "
                                   "text goes (which may be what you want to see).");
    return preview;
}
