#include "engine/attention/attentionanalysis.h"

#include "engine/attention/evaluation.h"
#include "engine/attention/seq2seqmodel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace {

double entropyBits(const float *row, int n)
{
    double h = 0;
    for (int i = 0; i < n; ++i)
        if (row[i] > 0)
            h -= double(row[i]) * std::log2(double(row[i]));
    return h;
}

int argmax(const float *row, int n)
{
    return int(std::max_element(row, row + n) - row);
}

std::string percent(double share)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f%%", 100.0 * share);
    return buffer;
}

std::string fixed(double value, int decimals)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

// How alignment and the outputs came right over a training run, in two sentences; empty without
// measured epochs.
std::string alignmentOverTraining(const std::vector<EpochStats> &history, const std::vector<EpochAlignment> &alignment)
{
    int alignedEpoch = 0, exactEpoch = 0;
    const EpochAlignment *last = nullptr;
    double bestAccuracy = 0, bestExact = 0;
    for (const EpochAlignment &e : alignment) {
        if (e.score.steps == 0)
            continue;
        const auto stats = std::find_if(history.begin(), history.end(),
                                        [&](const EpochStats &s) { return s.epoch == e.epoch; });
        if (stats == history.end())
            continue;
        last = &e;
        bestAccuracy = std::max(bestAccuracy, e.score.accuracy());
        bestExact = std::max(bestExact, stats->valExactMatch);
        if (alignedEpoch == 0 && e.score.accuracy() >= kAlignmentMilestone)
            alignedEpoch = e.epoch;
        if (exactEpoch == 0 && stats->valExactMatch >= kAlignmentMilestone)
            exactEpoch = e.epoch;
    }
    if (!last)
        return {};
    const std::string milestone = percent(kAlignmentMilestone);
    std::ostringstream md;
    md << "Over training, measured on the validation set after each epoch: ";
    if (alignedEpoch > 0 && exactEpoch > 0) {
        md << "alignment accuracy first reached " << milestone << " at epoch " << alignedEpoch
           << " and exact match at epoch " << exactEpoch << ", so attention lined up ";
        if (alignedEpoch < exactEpoch)
            md << "before the outputs became right. ";
        else if (alignedEpoch == exactEpoch)
            md << "in the same epoch as the outputs became right. ";
        else
            md << "only after the outputs became right. ";
    } else if (alignedEpoch > 0) {
        md << "alignment accuracy first reached " << milestone << " at epoch " << alignedEpoch
           << ", while exact match never did (best " << percent(bestExact) << "): attention lined up before the "
           << "outputs became right. ";
    } else if (exactEpoch > 0) {
        md << "exact match first reached " << milestone << " at epoch " << exactEpoch
           << ", while alignment accuracy never did (best " << percent(bestAccuracy) << "): the outputs became "
           << "right without the strongest weight sitting on the word being written. ";
    } else {
        md << "neither alignment accuracy (best " << percent(bestAccuracy) << ") nor exact match (best "
           << percent(bestExact) << ") reached " << milestone << ". ";
    }
    md << "After epoch " << last->epoch << " alignment accuracy was " << percent(last->score.accuracy())
       << " with a mean weight of " << fixed(last->score.meanRightWeight(), 3) << " on the right words.\n";
    return md.str();
}

// A weight on the needed word at least this large still puts it visibly into the context.
constexpr double kReadableWeight = 0.2;

// Question 3's measured answer: is the emitted word right more often when the step looks at the
// word it must output than when it looks elsewhere?
std::string outputsFollowAttention(const AttentionAnalysis &a)
{
    std::ostringstream md;
    const auto share = [](int right, int steps) { return steps > 0 ? double(right) / steps : 0.0; };
    const double whenAligned = share(a.alignedRight, a.alignedSteps);
    const double otherwise = share(a.otherRight, a.otherSteps);
    md << "At the " << a.alignedSteps << " steps whose strongest weight is on that word, the emitted word is right "
       << percent(whenAligned) << " of the time";
    if (a.otherSteps == 0) {
        md << "; no step looked elsewhere, so these sentences cannot show what happens when attention misses.\n\n";
        return md.str();
    }
    md << "; at the " << a.otherSteps << " steps that look elsewhere, " << percent(otherwise) << ". ";
    if (a.alignedSteps == 0)
        md << "No step looked at the word it must output: whatever carries the words here, it is not attention.\n\n";
    else if (whenAligned - otherwise >= 0.3)
        md << "The output follows where attention looks: attention is how this model finds the word to write.\n\n";
    else if (std::abs(whenAligned - otherwise) < 0.1 && a.otherRightWeight >= kReadableWeight)
        md << "Those steps still give the word a mean weight of " << fixed(a.otherRightWeight, 3)
           << ", not the largest but enough for the decoder to read it: the word reaches the decoder through "
           << "attention even where another word gets a little more.\n\n";
    else if (std::abs(whenAligned - otherwise) < 0.1)
        md << "Those steps give the word a mean weight of only " << fixed(a.otherRightWeight, 3)
           << ", yet the word is right about as often: this model carries the words another way (in the decoder's "
           << "state), so attention is not what finds them.\n\n";
    else
        md << "Looking at the word helps, but the decoder also gets words right without it.\n\n";
    return md.str();
}

}

AttentionAnalysis analyseAttention(const Seq2SeqModel &model, const std::vector<SentencePair> &data, Task task)
{
    AttentionAnalysis a;
    a.task = task;
    a.hasAttention = model.hasAttention();
    if (!a.hasAttention) {
        a.sentences = int(data.size());
        return a;
    }
    std::vector<std::vector<std::string>> sources;
    for (const auto &p : data)
        sources.push_back(p.source);
    const auto decoded = model.decodeBatch(sources);

    double maxWeightSum = 0, rightWeightSum = 0, entropySum = 0, uniformSum = 0, firstWeightSum = 0, eosOnEosSum = 0, eosOnFirstSum = 0;
    int aligned = 0, unmirrored = 0, unmirroredSteps = 0, firstOnExpected = 0, firstSteps = 0, eosSteps = 0, eosOnEos = 0;
    std::map<int, std::pair<int, double>> lengthSteps;  // length -> (aligned count, entropy sum)
    std::map<int, int> lengthWordSteps;
    for (std::size_t s = 0; s < decoded.size(); ++s) {
        const DecodedSentence &d = decoded[s];
        const int n = int(data[s].source.size());
        const int columns = d.columns();
        ++a.byLength[n].sentences;
        for (int t = 0; t < d.rows(); ++t) {
            const float *row = d.attention.data() + std::size_t(t) * std::size_t(columns);
            const bool eosStep = d.outputTokens[std::size_t(t)] == "<EOS>";
            if (eosStep) {
                ++eosSteps;
                eosOnEos += argmax(row, columns) == n;
                eosOnEosSum += row[n];
                if (n > 0)
                    eosOnFirstSum += row[0];
                continue;
            }
            if (t >= n)
                continue;  // an extra word past the sentence's length has no expected source position
            const int expected = rightSourcePosition(task, n, t);
            const int focus = argmax(row, columns);
            const double h = entropyBits(row, columns);
            ++a.wordSteps;
            aligned += focus == expected;
            const auto &target = data[s].target;
            const bool right = std::size_t(t) < target.size() && d.outputTokens[std::size_t(t)] == target[std::size_t(t)];
            if (focus == expected) {
                ++a.alignedSteps;
                a.alignedRight += right;
            } else {
                ++a.otherSteps;
                a.otherRight += right;
                a.otherRightWeight += row[expected];
            }
            rightWeightSum += row[expected];
            if (t != n - 1 - t) {  // the middle word of an odd length is on both diagonals
                ++unmirroredSteps;
                unmirrored += focus == t;
            }
            maxWeightSum += row[focus];
            entropySum += h;
            uniformSum += std::log2(double(columns));
            lengthSteps[n].first += focus == expected;
            lengthSteps[n].second += h;
            ++lengthWordSteps[n];
            if (t == 0) {
                ++firstSteps;
                firstOnExpected += focus == expected;
                firstWeightSum += row[expected];
            }
        }
    }
    a.sentences = int(decoded.size());
    if (a.wordSteps > 0) {
        a.alignedShare = double(aligned) / a.wordSteps;
        a.diagonalShareForReverse = unmirroredSteps ? double(unmirrored) / unmirroredSteps : 0.0;
        a.meanMaxWeight = maxWeightSum / a.wordSteps;
        a.meanRightWeight = rightWeightSum / a.wordSteps;
        if (a.otherSteps > 0)
            a.otherRightWeight /= a.otherSteps;
        a.meanEntropyBits = entropySum / a.wordSteps;
        a.meanUniformEntropyBits = uniformSum / a.wordSteps;
    }
    if (firstSteps > 0) {
        a.firstStepOnExpected = double(firstOnExpected) / firstSteps;
        a.firstStepMeanWeight = firstWeightSum / firstSteps;
    }
    if (eosSteps > 0) {
        a.eosStepOnSourceEos = double(eosOnEos) / eosSteps;
        a.eosStepMeanWeightOnEos = eosOnEosSum / eosSteps;
        a.eosStepMeanWeightOnFirstWord = eosOnFirstSum / eosSteps;
    }
    for (auto &[length, entry] : a.byLength) {
        const int steps = lengthWordSteps[length];
        if (steps > 0) {
            entry.alignedShare = double(lengthSteps[length].first) / steps;
            entry.meanEntropyBits = lengthSteps[length].second / steps;
        }
    }
    return a;
}

std::string analysisMarkdown(const AttentionAnalysis &a, const EvaluationReport &report,
                             const std::vector<EpochStats> &history, const std::vector<EpochAlignment> &alignment)
{
    const bool reverse = a.task == Task::Reverse;
    const char *expectedName = reverse ? "mirrored source word (the anti-diagonal)" : "same-position source word (the diagonal)";
    std::ostringstream md;
    if (!a.hasAttention) {
        md << "# Attention analysis\n\n"
           << "This model has no attention (variant none): its decoder starts from the encoder's final state and "
           << "never looks back at the source words, so there are no attention weights to analyse and no heatmap. "
           << "Unknown words are not copied either (that needs a source word to attend to).\n\n"
           << "Test exact match: " << percent(report.exactMatch) << ", token accuracy: "
           << percent(report.tokenAccuracy) << " (" << report.sentences << " sentences). By source length, all that "
           << "one fixed-size state has to carry:\n\n| words | sentences | exact match |\n|---|---|---|\n";
        for (const auto &[length, bucket] : report.byLength)
            md << "| " << length << " | " << bucket.total << " | "
               << (bucket.total ? percent(double(bucket.correct) / bucket.total) : "–") << " |\n";
        return md.str();
    }
    md << "# Attention analysis\n\n"
       << "Computed from the model over " << a.sentences << " test sentences (" << a.wordSteps
       << " decoder steps that emit a word). Test exact match: " << percent(report.exactMatch)
       << ", token accuracy: " << percent(report.tokenAccuracy) << ".\n\n";

    md << "## 1. What patterns do the attention weights show?\n\n"
       << "At " << percent(a.alignedShare) << " of word-emitting steps the strongest weight falls on the "
       << expectedName << ". ";
    if (reverse)
        md << "Only " << percent(a.diagonalShareForReverse) << " fall on the unmirrored position (the main diagonal, "
           << "the pattern a copy model would show; middle words of odd-length sentences, on both diagonals, excluded). ";
    md << "The largest weight of a step is " << fixed(a.meanMaxWeight, 3) << " on average, and the mean entropy is "
       << fixed(a.meanEntropyBits, 2) << " bits against " << fixed(a.meanUniformEntropyBits, 2)
       << " bits for uniform attention over the same tokens: ";
    if (a.meanEntropyBits < 0.25 * a.meanUniformEntropyBits)
        md << "the weights are sharp, close to one source word per step.\n\n";
    else if (a.meanEntropyBits < 0.75 * a.meanUniformEntropyBits)
        md << "the weights are concentrated but spread over neighbouring words.\n\n";
    else
        md << "the weights are diffuse, close to uniform.\n\n";

    md << "## 2. Does the attention align input and output correctly?\n\n";
    if (a.alignedShare >= 0.95)
        md << "Yes: ";
    else if (a.alignedShare >= 0.6)
        md << "Mostly: ";
    else
        md << "No: ";
    md << percent(a.alignedShare) << " of steps attend most to the word they must output. By source length:\n\n"
       << "| words | sentences | aligned steps | mean entropy (bits) | exact match |\n|---|---|---|---|---|\n";
    for (const auto &[length, entry] : a.byLength) {
        auto found = report.byLength.find(length);
        const std::string exact = found == report.byLength.end() || found->second.total == 0
                                      ? "–"
                                      : percent(double(found->second.correct) / found->second.total);
        md << "| " << length << " | " << entry.sentences << " | " << percent(entry.alignedShare) << " | "
           << fixed(entry.meanEntropyBits, 2) << " | " << exact << " |\n";
    }
    if (a.byLength.size() >= 2) {
        const auto &shortest = a.byLength.begin()->second;
        const auto &longest = a.byLength.rbegin()->second;
        md << "\nFrom " << a.byLength.begin()->first << " to " << a.byLength.rbegin()->first << " words the aligned share goes from "
           << percent(shortest.alignedShare) << " to " << percent(longest.alignedShare) << " and the entropy from "
           << fixed(shortest.meanEntropyBits, 2) << " to " << fixed(longest.meanEntropyBits, 2) << " bits.\n";
    }
    const std::string overTraining = alignmentOverTraining(history, alignment);
    if (!overTraining.empty())
        md << "\n" << overTraining;
    md << "\n";

    md << "## 3. How does attention help with the " << (reverse ? "reversal" : "copy") << " task?\n\n"
       << "The decoder must emit word t of the output, which is source word " << (reverse ? "n−1−t" : "t")
       << ". Without attention it would have to recover that word from one fixed-size summary of the whole "
       << "sentence; with attention, the context vector at step t is a weighted sum of the encoder's per-word "
       << "outputs, and here it gives the word to be output a mean weight of " << fixed(a.meanRightWeight, 3)
       << ".\n\n" << outputsFollowAttention(a);

    md << "## 4. What happens at the beginning and end of sequences?\n\n"
       << "First decoder step: its strongest weight is on the " << (reverse ? "last" : "first") << " source word in "
       << percent(a.firstStepOnExpected) << " of sentences, with a mean weight of " << fixed(a.firstStepMeanWeight, 3)
       << " there.\n"
       << "Final step (the one that emits <EOS>): its strongest weight is on the source <EOS> token in "
       << percent(a.eosStepOnSourceEos) << " of sentences (mean weight " << fixed(a.eosStepMeanWeightOnEos, 3)
       << "; mean weight on the first source word " << fixed(a.eosStepMeanWeightOnFirstWord, 3) << "). ";
    if (a.eosStepOnSourceEos >= 0.5)
        md << "The model ends the sentence by looking at the end marker it was given.\n";
    else if (reverse && a.eosStepMeanWeightOnFirstWord > a.eosStepMeanWeightOnEos)
        md << "The model mostly looks back at the first source word, the last one it emitted, before ending.\n";
    else
        md << "The end-of-sentence decision is not tied to one source position.\n";
    return md.str();
}
