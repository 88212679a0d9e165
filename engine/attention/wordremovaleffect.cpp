#include "engine/attention/wordremovaleffect.h"

#include "engine/attention/outputlogprob.h"
#include "engine/attention/seq2seqmodel.h"
#include "engine/core/dataset.h"
#include "engine/core/median.h"
#include "engine/core/rankcorrelation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

WordRemovalEffect measureWordRemoval(const Seq2SeqModel &model, const std::vector<std::string> &words,
                                     RemovalMode mode)
{
    if (!model.hasAttention())
        throw std::invalid_argument("this model has no attention (variant none): there is no attention to compare "
                                    "with the effect of removing a word");
    WordRemovalEffect effect;
    effect.mode = mode;
    effect.original = model.decode(words);
    const std::vector<std::string> source(effect.original.sourceTokens.begin(), effect.original.sourceTokens.end() - 1);
    if (source.size() < 2)
        throw std::invalid_argument("a sentence of fewer than two words has no other word to read when one is removed; "
                                    "give at least two");

    std::vector<std::vector<std::string>> sources{source};
    for (std::size_t i = 0; i < source.size(); ++i)
        sources.push_back(removeWord(source, i, mode));
    const std::vector<double> logProbs = outputLogProbs(model, sources, effect.original);
    effect.logProb = logProbs.front();
    const std::vector<DecodedSentence> changed =
        model.decodeBatch(std::vector<std::vector<std::string>>(sources.begin() + 1, sources.end()));

    const Task task = model.datasetConfig.task;
    const std::vector<std::string> output = effect.original.words();
    std::vector<double> attention, falls;
    for (std::size_t i = 0; i < source.size(); ++i) {
        WordRemoval w;
        w.word = source[i];
        for (int row = 0; row < effect.original.rows(); ++row) {
            const double weight = effect.original.weight(row, int(i));
            w.attention += weight;
            w.peakAttention = std::max(w.peakAttention, weight);
        }
        w.logProbFall = effect.logProb - logProbs[i + 1];
        w.changedOutput = changed[i].words();
        w.changedOutputExpected = w.changedOutput == targetFor(task, sources[i + 1]);
        w.outputUnchanged = w.changedOutput == output;
        attention.push_back(w.attention);
        falls.push_back(w.logProbFall);
        effect.words.push_back(std::move(w));
    }
    effect.spearman = source.size() < std::size_t(kMinimumCorrelatedWords)
                          ? std::numeric_limits<double>::quiet_NaN()
                          : spearmanCorrelation(attention, falls);
    return effect;
}

std::vector<WordRemovalEffect> measureWordRemovalOnSentences(const Seq2SeqModel &model,
                                                             const std::vector<SentencePair> &data, RemovalMode mode)
{
    std::vector<WordRemovalEffect> effects;
    effects.reserve(data.size());
    for (const SentencePair &pair : data)
        effects.push_back(measureWordRemoval(model, pair.source, mode));
    return effects;
}

WordRemovalSummary summarizeWordRemoval(const std::vector<WordRemovalEffect> &effects)
{
    WordRemovalSummary summary;
    std::vector<double> correlations;
    double falls = 0;
    for (const WordRemovalEffect &effect : effects) {
        ++summary.sentences;
        if (!std::isnan(effect.spearman))
            correlations.push_back(effect.spearman);
        for (const WordRemoval &w : effect.words) {
            ++summary.words;
            falls += w.logProbFall;
            summary.changedOutputs += !w.outputUnchanged;
            summary.expectedOutputs += w.changedOutputExpected;
        }
    }
    const double nan = std::numeric_limits<double>::quiet_NaN();
    summary.correlatedSentences = int(correlations.size());
    summary.meanSpearman = correlations.empty()
                               ? nan
                               : std::accumulate(correlations.begin(), correlations.end(), 0.0) / correlations.size();
    summary.medianSpearman = median(correlations);
    summary.meanLogProbFall = summary.words ? falls / summary.words : nan;
    return summary;
}
