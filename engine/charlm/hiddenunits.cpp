#include "engine/charlm/hiddenunits.h"

#include <algorithm>
#include <cmath>

const std::vector<TextFeature> &allTextFeatures()
{
    static const std::vector<TextFeature> features = {TextFeature::PositionInLine, TextFeature::InsideQuotes,
                                                      TextFeature::InsideBrackets, TextFeature::AfterSpace};
    return features;
}

std::string featureName(TextFeature feature)
{
    switch (feature) {
    case TextFeature::PositionInLine:
        return "position in line";
    case TextFeature::InsideQuotes:
        return "inside quotes";
    case TextFeature::InsideBrackets:
        return "inside brackets";
    case TextFeature::AfterSpace:
        return "after a space";
    }
    return {};
}

// Each feature's value after reading the character at a position:
// - position in line: the characters of the current line read so far, this one included; 0 just
//   after a line break ("\n" itself reads 0, the character after it 1);
// - inside quotes: 1 from an opening quote through the character before its closing quote, else 0.
//   '"' opens when outside and closes when inside; the typographic quotes (“ ”, « ») open and close
//   as they look. The apostrophe is left out: in "don't" it quotes nothing;
// - inside brackets: 1 while more of ( [ { have been read than of ) ] }, the opening bracket itself
//   included, its closing one not; a closing bracket with none open is ignored;
// - after a space: 1 when the character is white space (space, tab, line break), so that the next
//   one starts a word or a line.
std::vector<double> textFeature(const std::u32string &text, TextFeature feature)
{
    std::vector<double> values;
    values.reserve(text.size());
    int line = 0, brackets = 0;
    bool quoted = false;
    for (char32_t c : text) {
        switch (feature) {
        case TextFeature::PositionInLine:
            line = c == U'\n' ? 0 : line + 1;
            values.push_back(line);
            break;
        case TextFeature::InsideQuotes:
            if (c == U'"')
                quoted = !quoted;
            else if (c == U'\u201C' || c == U'\u00AB')
                quoted = true;
            else if (c == U'\u201D' || c == U'\u00BB')
                quoted = false;
            values.push_back(quoted ? 1 : 0);
            break;
        case TextFeature::InsideBrackets:
            if (c == U'(' || c == U'[' || c == U'{')
                ++brackets;
            else if ((c == U')' || c == U']' || c == U'}') && brackets > 0)
                --brackets;
            values.push_back(brackets > 0 ? 1 : 0);
            break;
        case TextFeature::AfterSpace:
            values.push_back(c == U' ' || c == U'\t' || c == U'\n' || c == U'\r' || c == U'\v' || c == U'\f' ? 1 : 0);
            break;
        }
    }
    return values;
}

// Over the positions whose character was read (not those marked unknown): a unit constant there
// has no correlation and is left out, as is a feature constant there.
std::vector<UnitScore> rankUnits(const CharReadout &readout, int count)
{
    std::vector<std::size_t> positions;
    for (std::size_t p = 0; p < readout.text.size(); ++p)
        if (!readout.unknown[p])
            positions.push_back(p);
    const double n = double(positions.size());
    const std::size_t units = std::size_t(readout.layers) * std::size_t(readout.hidden);
    if (positions.size() < 2 || units == 0 || count <= 0)
        return {};

    // Each feature centred over the positions, and its norm; constant ones dropped.
    struct Feature {
        TextFeature feature;
        std::vector<double> centred;
        double norm;
    };
    std::vector<Feature> features;
    for (TextFeature feature : allTextFeatures()) {
        const std::vector<double> all = textFeature(readout.text, feature);
        Feature f{feature, {}, 0};
        double mean = 0;
        for (std::size_t p : positions)
            mean += all[p];
        mean /= n;
        for (std::size_t p : positions) {
            f.centred.push_back(all[p] - mean);
            f.norm += f.centred.back() * f.centred.back();
        }
        if (f.norm > 0) {
            f.norm = std::sqrt(f.norm);
            features.push_back(std::move(f));
        }
    }
    if (features.empty())
        return {};

    // Position by position, every unit at once: the readout is stored position-major.
    const auto unitsAt = [&](std::size_t p) { return readout.activations.data() + p * units; };
    std::vector<double> mean(units, 0.0), squares(units, 0.0), products(units * features.size(), 0.0);
    std::vector<float> lowest(unitsAt(positions.front()), unitsAt(positions.front()) + units), highest = lowest;
    for (std::size_t p : positions) {
        const float *a = unitsAt(p);
        for (std::size_t u = 0; u < units; ++u) {
            mean[u] += a[u];
            lowest[u] = std::min(lowest[u], a[u]);
            highest[u] = std::max(highest[u], a[u]);
        }
    }
    for (double &m : mean)
        m /= n;
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const float *a = unitsAt(positions[i]);
        for (std::size_t u = 0; u < units; ++u) {
            const double centred = a[u] - mean[u];
            squares[u] += centred * centred;
            for (std::size_t f = 0; f < features.size(); ++f)
                products[f * units + u] += centred * features[f].centred[i];
        }
    }

    std::vector<UnitScore> scores;
    for (std::size_t u = 0; u < units; ++u) {
        if (lowest[u] == highest[u])
            continue;
        UnitScore best;
        best.layer = int(u / std::size_t(readout.hidden));
        best.unit = int(u % std::size_t(readout.hidden));
        bool found = false;
        for (std::size_t f = 0; f < features.size(); ++f) {
            const double r = products[f * units + u] / (std::sqrt(squares[u]) * features[f].norm);
            if (!found || std::abs(r) > std::abs(best.correlation)) {
                best.feature = features[f].feature;
                best.correlation = r;
                found = true;
            }
        }
        scores.push_back(best);
    }
    std::stable_sort(scores.begin(), scores.end(), [](const UnitScore &a, const UnitScore &b) {
        return std::abs(a.correlation) > std::abs(b.correlation);
    });
    if (scores.size() > std::size_t(count))
        scores.resize(std::size_t(count));
    return scores;
}
