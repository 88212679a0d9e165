#include "app/core/faithfulnesstables.h"

#include "app/core/attributionreport.h"
#include "app/core/faithfulnessfiles.h"
#include "engine/core/faithfulnessreport.h"

#include <cstdio>
#include <iostream>

using attributionformat::figure;

namespace {

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

void writeFaithfulness(const FaithfulnessReport &report, const AttributionOptions &options, bool json, bool csv)
{
    if (json)
        std::cout << runfiles::faithfulnessJson(report, options).toStdString();
    else if (csv)
        std::cout << runfiles::faithfulnessCsv(report).toStdString();
    else
        printFaithfulness(report, options);
}
