#include "app/attention/attributiontables.h"

#include "engine/attention/faithfulness.h"
#include "engine/core/tokenizer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace {

constexpr int kNumberWidth = 8;

// A figure, or "-" where it is undefined.
std::string figure(double value, const char *format = "%.3f")
{
    if (std::isnan(value))
        return "-";
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, format, value);
    return buffer;
}

int columnWidth(const std::string &heading)
{
    return std::max(kNumberWidth, int(heading.size()));
}

std::string methodDescription(AttributionMethod method, const AttributionOptions &options)
{
    switch (method) {
    case AttributionMethod::Attention:
        return "the model's attention weight on each word";
    case AttributionMethod::Saliency:
        return "the norm of the gradient of log P(y_t) with respect to the word's embedding";
    case AttributionMethod::InputTimesGradient:
        return "the word's embedding times the gradient of log P(y_t) with respect to it";
    case AttributionMethod::IntegratedGradients:
        return std::to_string(options.integrationSteps) + " steps from the " +
               integrationBaselineName(options.baseline) +
               " baseline; f(x)-f(x') is what the row should add up to, gap how far it is from that";
    case AttributionMethod::Occlusion:
        return std::string("the fall in log P(y_t) when the word is ") +
               (options.occlusion == RemovalMode::Drop ? "left out" : "replaced by <UNK>");
    case AttributionMethod::Rollout:
        return "the share of y_t flowing from the word through every layer's attention, each layer mixed half and "
               "half with its residual (Abnar & Zuidema 2020)";
    }
    return {};
}

void printStepScores(const SentenceAttribution &explained, int labelWidth)
{
    std::printf("Step scores: log P of each output word, the entropy of the step's distribution (nats) and the\n"
                "margin in log P to the likeliest other word.\n");
    std::printf("%4s  %-*s %9s %8s %8s  %s\n", "step", labelWidth, "output", "log P", "entropy", "margin", "runner-up");
    for (std::size_t t = 0; t < explained.steps.size(); ++t) {
        const StepScore &s = explained.steps[t];
        std::printf("%4zu  %-*s %9.3f %8.3f %8.3f  %s\n", t + 1, labelWidth,
                    explained.sentence.outputTokens[t].c_str(), s.logProb, s.entropy, s.margin, s.runnerUp.c_str());
    }
}

void printMap(const SentenceAttribution &explained, const AttributionMap &map, const AttributionOptions &options,
              int labelWidth)
{
    const bool integrated = map.method == AttributionMethod::IntegratedGradients;
    std::printf("\n%s (%s): %s\n", attributionMethodTitle(map.method), attributionMethodName(map.method),
                methodDescription(map.method, options).c_str());
    std::printf("%-*s", labelWidth, "");
    for (const std::string &word : explained.words)
        std::printf(" %*s", columnWidth(word), word.c_str());
    if (integrated)
        std::printf(" %10s %8s", "f(x)-f(x')", "gap");
    std::printf("\n");
    for (int row = 0; row < map.rows; ++row) {
        std::printf("%-*s", labelWidth, explained.sentence.outputTokens[std::size_t(row)].c_str());
        for (int column = 0; column < map.columns; ++column)
            std::printf(" %*.3f", columnWidth(explained.words[std::size_t(column)]), map.at(row, column));
        if (integrated)
            std::printf(" %10.3f %8.4f", explained.integrationDelta[std::size_t(row)],
                        explained.completenessGap[std::size_t(row)]);
        std::printf("\n");
    }
}

// A methods x methods table of figures with the methods' names along both sides.
void printAgreement(const FaithfulnessReport &report)
{
    const std::size_t count = report.methods.size();
    std::printf("%-12s", "");
    for (AttributionMethod method : report.methods)
        std::printf(" %10s", attributionMethodName(method));
    std::printf("\n");
    for (std::size_t i = 0; i < count; ++i) {
        std::printf("%-12s", attributionMethodName(report.methods[i]));
        for (std::size_t j = 0; j < count; ++j)
            std::printf(" %10s", figure(report.agreement[i * count + j], "%+.2f").c_str());
        std::printf("\n");
    }
}

void printCurves(const FaithfulnessReport &report, bool comprehensiveness)
{
    std::printf("%-12s", comprehensiveness ? "comprehens." : "sufficiency");
    for (double k : erasureFractions())
        std::printf(" %7.0f%%", 100 * k);
    std::printf("\n");
    for (const ErasureCurve &curve : report.curves) {
        std::printf("%-12s", curve.name.c_str());
        for (double value : comprehensiveness ? curve.comprehensiveness : curve.sufficiency)
            std::printf(" %8s", figure(value).c_str());
        std::printf("\n");
    }
}

}

void printAttribution(const SentenceAttribution &explained, const AttributionOptions &options)
{
    const std::vector<std::string> &source = explained.sentence.sourceTokens;
    const std::string input = joinTokens(std::vector<std::string>(source.begin(), source.end() - 1));
    std::printf("Input:  %s\nOutput: %s\n\n", input.c_str(), explained.sentence.text().c_str());
    int labelWidth = int(std::string("output").size());
    for (const std::string &token : explained.sentence.outputTokens)
        labelWidth = std::max(labelWidth, int(token.size()));
    printStepScores(explained, labelWidth);
    std::printf("\nEach table explains log P(y_t), one row per output step y_t and one column per source word;\n"
                "higher puts more of y_t down to the word.\n");
    for (const AttributionMap &map : explained.maps)
        printMap(explained, map, options, labelWidth);
}

void printFaithfulness(const FaithfulnessReport &report, const AttributionOptions &options)
{
    std::printf("Faithfulness over %d sentences of the model's test split (%d output steps); integrated gradients: "
                "%d steps from the %s baseline; occlusion: %s.\n\n",
                report.sentences, report.steps, options.integrationSteps, integrationBaselineName(options.baseline),
                removalModeName(options.occlusion));
    std::printf("Agreement between methods: Spearman's rho between their scores on one output step, mean over the\n"
                "steps where it is defined (3 words or more, neither side all equal).\n");
    printAgreement(report);
    std::printf("\nTop-word agreement with the known answer (the source word the task says the output word comes\n"
                "from), over %d steps:\n",
                report.answeredSteps);
    for (std::size_t m = 0; m < report.methods.size(); ++m)
        std::printf("  %-12s %s\n", attributionMethodName(report.methods[m]),
                    figure(report.topAnswerAgreement[m]).c_str());
    std::printf("\nComprehensiveness: the fall in P(y_t) when the method's top k of the source words are left out\n"
                "(higher is more faithful), mean over steps; random ranks the words at random.\n");
    printCurves(report, true);
    std::printf("\nSufficiency: the fall in P(y_t) when only those words are kept, in their order (lower is more "
                "faithful).\n");
    printCurves(report, false);
}
