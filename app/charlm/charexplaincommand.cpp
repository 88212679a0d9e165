// attnscope charlm explain: which of a context's last characters drive a model's next one.
#include "app/charlm/charlmcommands.h"

#include "app/core/commandline.h"
#include "engine/charlm/charattribution.h"
#include "engine/charlm/charcheckpoint.h"
#include "engine/core/plaintext.h"
#include "ui/core/plotexport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <numeric>

namespace {

// A character as the table shows it: a line break or tab spelled out, a space seen.
std::string shown(char32_t c)
{
    if (c == U'\n')
        return "\\n";
    if (c == U'\t')
        return "\\t";
    if (c == U' ')
        return "' '";
    if (c < 0x20 || c == 0x7f)
        return "U+" + std::to_string(uint32_t(c));
    return encodeUtf8(c);
}

std::string quotedEnd(const std::u32string &text)
{
    constexpr std::size_t kShown = 30;
    std::string out;
    for (char32_t c : text.substr(text.size() > kShown ? text.size() - kShown : 0))
        out += c == U'\n' ? "\\n" : c == U'\t' ? "\\t" : encodeUtf8(c);
    return (text.size() > kShown ? "\"..." : "\"") + out + "\"";
}

QString utf8(char32_t c)
{
    return QString::fromStdString(encodeUtf8(c));
}

QJsonObject attributionJson(const std::u32string &context, const CharAttribution &a)
{
    QJsonArray characters;
    const int count = int(a.characters.size());
    for (int i = 0; i < count; ++i)
        characters.append(QJsonObject{{"position", i - count},
                                      {"character", utf8(a.characters[std::size_t(i)])},
                                      {"saliency", a.saliency[std::size_t(i)]},
                                      {"integrated_gradients", a.integratedGradients[std::size_t(i)]}});
    return {{"context", QString::fromStdString(encodeUtf8(context))},
            {"next", utf8(a.next)},
            {"probability", a.probability},
            {"predicted", utf8(a.predicted)},
            {"predicted_probability", *std::max_element(a.probabilities.begin(), a.probabilities.end())},
            {"integration_steps", a.integrationSteps},
            {"log_probability", a.logProbability},
            {"baseline_log_probability", a.baselineLogProbability},
            {"completeness_gap", a.completenessGap},
            {"characters", characters}};
}

// A row per character, for a spreadsheet: the character as it is, quoted where CSV needs it.
QString attributionCsv(const CharAttribution &a)
{
    QString csv = QStringLiteral("position,character,saliency,integrated_gradients\n");
    const int count = int(a.characters.size());
    for (int i = 0; i < count; ++i)
        csv += QStringLiteral("%1,%2,%3,%4\n")
                   .arg(i - count)
                   .arg(csvField(utf8(a.characters[std::size_t(i)])))
                   .arg(a.saliency[std::size_t(i)], 0, 'g', 9)
                   .arg(a.integratedGradients[std::size_t(i)], 0, 'g', 9);
    return csv;
}

void printTable(const std::string &modelFile, const std::u32string &context, const CharAttribution &a)
{
    const double best = *std::max_element(a.probabilities.begin(), a.probabilities.end());
    std::printf("%s: after %s the model expects %s (p = %.4f)", modelFile.c_str(), quotedEnd(context).c_str(),
                shown(a.predicted).c_str(), best);
    if (a.next != a.predicted)
        std::printf("; explaining %s (p = %.4f)", shown(a.next).c_str(), a.probability);
    std::printf("\n%9s  %-9s %12s %22s\n", "position", "character", "saliency", "integrated gradients");
    const int count = int(a.characters.size());
    for (int i = 0; i < count; ++i)
        std::printf("%9d  %-9s %12.6f %22.6f\n", i - count, shown(a.characters[std::size_t(i)]).c_str(),
                    a.saliency[std::size_t(i)], a.integratedGradients[std::size_t(i)]);
    const double sum = std::accumulate(a.integratedGradients.begin(), a.integratedGradients.end(), 0.0);
    std::printf("integrated gradients (m = %d) add up to %.6f; log p(next) - log p(next | explained inputs zero) = "
                "%.6f; completeness gap %.2g\n",
                a.integrationSteps, sum, a.logProbability - a.baselineLogProbability, a.completenessGap);
}

}

int runCharExplain(const std::vector<std::string> &arguments)
{
    CommandLine cl({"model", "last", "steps", "next"}, {"json", "csv"});
    cl.parse(arguments);
    CharAttributionOptions options;
    options.last = cl.integer("last", kDefaultExplainedCharacters, 1, kMaxExplainedCharacters);
    options.integrationSteps = cl.integer("steps", kDefaultCharIntegrationSteps, 1, kMaxCharIntegrationSteps);
    if (cl.ok() && !cl.has("model"))
        cl.fail("--model FILE is required");
    if (cl.ok() && cl.has("next")) {
        const std::u32string next = decodeUtf8(cl.text("next"));
        if (next.size() != 1)
            cl.fail("--next takes one character, not \"" + cl.text("next") + "\"");
        else
            options.next = next.front();
    }
    if (cl.ok() && cl.positional().empty())
        cl.fail("the context to explain is missing: attnscope charlm explain --model FILE \"context\"");
    if (cl.ok() && cl.positional().size() > 1)
        cl.fail("unexpected argument '" + cl.positional()[1] + "' (quote the context as one argument)");
    if (cl.ok() && cl.positional().front().empty())
        cl.fail("the context is empty: give at least one character");
    if (cl.ok() && cl.flag("json") && cl.flag("csv"))
        cl.fail("give --json or --csv, not both");
    if (!cl.ok())
        return usageError("charlm explain", cl.error());

    const std::string modelFile = cl.text("model");
    CharCheckpoint checkpoint;
    try {
        checkpoint = loadCharCheckpoint(modelFile);  // its messages name the file
    } catch (const std::exception &e) {
        return failure(e.what());
    }
    const std::u32string context = decodeUtf8(cl.positional().front());
    CharAttribution attribution;
    try {
        attribution = explainNextCharacter(checkpoint.weights, context, options);
    } catch (const std::invalid_argument &e) {
        return failure(modelFile + ": " + e.what());
    }
    if (cl.flag("json"))
        std::cout << QJsonDocument(attributionJson(context, attribution)).toJson(QJsonDocument::Indented).toStdString();
    else if (cl.flag("csv"))
        std::cout << attributionCsv(attribution).toStdString();
    else
        printTable(modelFile, context, attribution);
    return 0;
}
