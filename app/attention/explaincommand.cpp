#include "app/attention/commands.h"

#include "app/attention/commandmodel.h"
#include "app/attention/runfiles.h"
#include "app/core/attributionarguments.h"
#include "app/core/attributionreport.h"
#include "app/core/commandline.h"
#include "app/core/faithfulnesstables.h"
#include "engine/attention/checkpointformat.h"
#include "engine/attention/faithfulness.h"
#include "engine/attention/seq2seqmodel.h"
#include "engine/attention/wordremovaleffect.h"
#include "engine/core/dataset.h"
#include "engine/core/tokenizer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <stdexcept>

// attnscope explain: does attention explain the output? (WordRemovalEffect, and with --method or
// --faithfulness the attribution methods and their faithfulness)
namespace {

constexpr int kDefaultExplainSentences = 200;
constexpr int kMaxExplainSentences = 100000;
constexpr int kSentencesShown = 10;

// A correlation, or the reason there is none.
std::string rhoText(double rho)
{
    if (std::isnan(rho))
        return "undefined";
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%+.2f", rho);
    return buffer;
}

std::string modeDescription(RemovalMode mode)
{
    return mode == RemovalMode::Drop ? "each word left out in turn" : "each word replaced by <UNK> in turn";
}

// One sentence, word by word.
void printWordRemoval(const WordRemovalEffect &effect)
{
    const std::vector<std::string> &source = effect.original.sourceTokens;
    std::printf("Input:  %s\nOutput: %s  (log P %.3f)\nMode:   %s; the output is scored as it is, the word "
                "included\n\n",
                joinTokens(std::vector<std::string>(source.begin(), source.end() - 1)).c_str(),
                effect.original.text().c_str(), effect.logProb, modeDescription(effect.mode).c_str());
    std::printf("%-14s %9s %6s %11s  %s\n", "word", "attention", "peak", "log P fall", "greedy output without it");
    for (const WordRemoval &w : effect.words) {
        const char *verdict = w.outputUnchanged ? "(unchanged)" : w.changedOutputExpected ? "(as the task asks)" : "(other)";
        std::printf("%-14s %9.3f %6.3f %11.3f  %s %s\n", w.word.c_str(), w.attention, w.peakAttention, w.logProbFall,
                    joinTokens(w.changedOutput).c_str(), verdict);
    }
    std::printf("\nSpearman rho between attention received and log P fall: %s%s\n", rhoText(effect.spearman).c_str(),
                std::isnan(effect.spearman) ? " (fewer than 3 words, or one side has all values equal)" : "");
}

void printWordRemovalSummary(const std::vector<WordRemovalEffect> &effects, const WordRemovalSummary &s,
                             RemovalMode mode)
{
    std::printf("Word removal (%s): %s, %d sentences of the model's test split, %d words\n\n", removalModeName(mode),
                modeDescription(mode).c_str(), s.sentences, s.words);
    std::printf("%9s %9s %10s  %s\n", "rho", "log P", "mean fall", "sentence -> output");
    for (std::size_t i = 0; i < std::min<std::size_t>(effects.size(), kSentencesShown); ++i) {
        const WordRemovalEffect &e = effects[i];
        double falls = 0;
        for (const WordRemoval &w : e.words)
            falls += w.logProbFall;
        const std::vector<std::string> &source = e.original.sourceTokens;
        std::printf("%9s %9.3f %10.3f  %s -> %s\n", rhoText(e.spearman).c_str(), e.logProb, falls / e.words.size(),
                    joinTokens(std::vector<std::string>(source.begin(), source.end() - 1)).c_str(),
                    e.original.text().c_str());
    }
    std::printf("\nSpearman rho between the attention a word received and the fall of log P(output) without it:\n"
                "  mean %s, median %s over %d sentences (%d undefined: fewer than 3 words or one side all equal)\n",
                rhoText(s.meanSpearman).c_str(), rhoText(s.medianSpearman).c_str(), s.correlatedSentences,
                s.sentences - s.correlatedSentences);
    std::printf("Mean log P fall per word: %.3f\n", s.meanLogProbFall);
    std::printf("Output changed from the original: %.2f%% of words; the changed input decoded to what the task "
                "asks of it: %.2f%%\n",
                100.0 * s.changedOutputs / s.words, 100.0 * s.expectedOutputs / s.words);
}

}

int runExplain(const std::vector<std::string> &arguments)
{
    CommandLine cl(arguments, {"model", "sentences", "mode", "method", "steps", "baseline"},
                   {"json", "csv", "faithfulness"});
    const int count = cl.integer("sentences", kDefaultExplainSentences, 1, kMaxExplainSentences);
    RemovalMode mode = RemovalMode::Drop;
    if (cl.has("mode") && !parseRemovalMode(cl.text("mode"), &mode))
        cl.fail("--mode must be drop or unknown, got '" + cl.text("mode") + "'");
    const bool faithfulness = cl.flag("faithfulness");
    const bool attributing = faithfulness || cl.has("method");
    const AttributionOptions options = readAttributionOptions(cl, mode, allAttributionMethods());
    for (const char *option : {"steps", "baseline"})
        if (cl.has(option) && !attributing)
            cl.fail(std::string("--") + option + " goes with --method or --faithfulness");
    if (cl.flag("csv") && !attributing)
        cl.fail("--csv goes with --method or --faithfulness; word removal has --json");
    if (cl.flag("csv") && cl.flag("json"))
        cl.fail("give --json or --csv, not both");
    if (cl.positional().size() > 1)
        cl.fail("give at most one sentence (quote it): attnscope explain [--model FILE] \"the cat sat\"");
    std::vector<std::string> sentence;
    if (cl.positional().size() == 1) {
        if (cl.has("sentences"))
            cl.fail("--sentences takes sentences from the test split; it does not go with a sentence of your own");
        if (faithfulness)
            cl.fail("--faithfulness measures the model's test split; it does not go with a sentence of your own");
        sentence = tokenize(cl.positional().front());
        if (sentence.size() < 2)
            cl.fail("the sentence needs at least two words: removing the only word leaves nothing to read");
    } else if (cl.has("method") && !faithfulness) {
        cl.fail("--method explains one sentence: give it (quoted), or add --faithfulness to measure the test split");
    }
    if (!cl.ok())
        return usageError("explain", cl.error());
    try {
        const Seq2SeqModel model = modelToUse(cl);
        if (!model.hasAttention() && !attributing)
            return failure("this model has no attention (variant none): there is no attention to compare with the "
                           "effect of removing a word");
        if (!model.hasAttention() && options.methods == std::vector<AttributionMethod>{AttributionMethod::Attention})
            return failure("this model has no attention (variant none): choose another --method");
        const auto words = [&] { return tokenize(cl.positional().front(), model.lowercase()); };
        const auto testSentences = [&] {
            std::vector<SentencePair> test = Dataset::build(model.datasetConfig).test;
            if (int(test.size()) < count)
                std::cerr << "note: the test split has " << test.size() << " sentences; all are used\n";
            test.resize(std::min(test.size(), std::size_t(count)));
            return test;
        };
        if (faithfulness) {
            const FaithfulnessReport report =
                measureFaithfulness(model, testSentences(), model.datasetConfig.task, options);
            writeFaithfulness(report, options, cl.flag("json"), cl.flag("csv"));
            return 0;
        }
        if (attributing) {
            const SentenceAttribution explained = attribute(model, words(), options);
            writeAttribution(explained, options, "the model's attention weight on each word", cl.flag("json"),
                             cl.flag("csv"));
            return 0;
        }
        std::vector<WordRemovalEffect> effects;
        if (!sentence.empty())
            effects.push_back(measureWordRemoval(model, words(), mode));
        else
            effects = measureWordRemovalOnSentences(model, testSentences(), mode);
        const WordRemovalSummary summary = summarizeWordRemoval(effects);
        if (cl.flag("json"))
            std::cout << runfiles::wordRemovalJson(mode, effects, summary).toStdString();
        else if (!sentence.empty())
            printWordRemoval(effects.front());
        else
            printWordRemovalSummary(effects, summary, mode);
    } catch (const CheckpointError &e) {
        return failure(e.what());
    } catch (const DatasetError &e) {
        return failure(e.what());
    } catch (const std::invalid_argument &e) {
        return failure(e.what());
    }
    return 0;
}
