#include "engine/word2vec/word2vectrainer.h"

#include "engine/fast/parallelfor.h"
#include "engine/word2vec/noisedistribution.h"
#include "engine/word2vec/sgnsupdate.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

namespace {

using Clock = std::chrono::steady_clock;

// The learning rate falls linearly to this share of alpha over all epochs' words, as in word2vec.c.
constexpr double kFinalAlphaShare = 1e-4;
// The loss is computed for one centre position in this many: a log and an exp per logit would
// otherwise cost as much as the step itself, and a sampled mean reads the same on the plot.
constexpr int kLossSampleEvery = 8;
// Rounds are sized so that one takes about this long: progress, pause and stop wait at most that.
constexpr double kRoundSeconds = 0.1;
constexpr int64_t kFirstRoundWords = 20000;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// splitmix64: one add and three multiply-xorshifts a number, well mixed in every bit.
struct FastRandom {
    uint64_t state;
    uint64_t next()
    {
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    float uniform() { return float(next() >> 40) * (1.0f / 16777216.0f); }  // [0, 1)
};

// One training thread: its lines, where it is in them, its random numbers and its buffers.
struct TrainingShare {
    int nextLine = 0, endLine = 0;  // this round's lines
    FastRandom random{0};
    std::vector<int32_t> sentence;  // the current line after subsampling
    std::vector<float> mean, inputSteps, outputSteps;
    // Counted over the current round.
    int64_t wordsDone = 0, tokensKept = 0, pairs = 0, lossPairs = 0;
    double loss = 0;
    int64_t centres = 0;     // all rounds: picks the positions whose loss is computed
};

}

Word2VecTrainer::Word2VecTrainer(const WordCorpus &corpus, const CorpusConfig &corpusConfig,
                                 const Word2VecConfig &config)
    : m_corpus(corpus), m_corpusConfig(corpusConfig), m_config(config)
{
    for (const std::string &problem : {validate(corpusConfig), validate(config)})
        if (!problem.empty())
            throw std::invalid_argument(problem);
    if (corpus.vocabularySize() < config.dimensions)
        throw std::invalid_argument("The corpus has " + std::to_string(corpus.vocabularySize()) +
                                    " distinct words (after the minimum count), fewer than the " +
                                    std::to_string(config.dimensions) +
                                    " dimensions: the vectors could not be told apart by more than the words "
                                    "themselves. Lower the dimensions or give a larger corpus.");
    if (corpus.tokens.empty())
        throw std::invalid_argument("The corpus has no words to train on.");

    const size_t size = size_t(corpus.vocabularySize()) * size_t(config.dimensions);
    m_input.resize(size);
    m_output.assign(size, 0.0f);
    FastRandom random{config.seed};
    const float scale = 1.0f / float(config.dimensions);
    for (float &value : m_input)
        value = (random.uniform() - 0.5f) * scale;
}

WordVectors Word2VecTrainer::vectors() const
{
    WordVectors vectors;
    vectors.words = m_corpus.words;
    vectors.dimensions = m_config.dimensions;
    vectors.values = m_input;
    vectors.counts = m_corpus.counts;
    return vectors;
}

std::vector<Word2VecEpoch> Word2VecTrainer::train(const Callbacks &callbacks, const std::atomic<bool> *stop)
{
    const int dims = m_config.dimensions;
    const bool cbow = m_config.architecture == Word2VecArchitecture::Cbow;
    const NoiseDistribution noise(m_corpus.counts, m_config.noiseExponent);
    const int64_t corpusTokens = int64_t(m_corpus.tokens.size());
    const int64_t wordsTotal = corpusTokens * m_config.epochs;

    // Keep thresholds as 24-bit integers: a word is kept when its random number is below.
    std::vector<uint32_t> keepBelow(m_corpus.counts.size());
    for (size_t w = 0; w < keepBelow.size(); ++w)
        keepBelow[w] = uint32_t(std::ceil(keepProbability(m_corpus.counts[w], corpusTokens, m_corpusConfig.sample) *
                                          16777216.0));

    const int threads = std::max(1, std::min(m_config.threads, m_corpus.lines()));
    std::vector<TrainingShare> shares(static_cast<size_t>(threads));
    for (int t = 0; t < threads; ++t) {
        TrainingShare &share = shares[size_t(t)];
        share.random.state = m_config.seed * 0x2545F4914F6CDD1Dull + uint64_t(t + 1) * 0x9E3779B97F4A7C15ull;
        const size_t rows = size_t(kMaxSgnsRows) * size_t(dims);
        share.mean.resize(size_t(dims));
        share.inputSteps.resize(rows);
        share.outputSteps.resize(rows);
    }

    float *input = m_input.data();
    float *output = m_output.data();
    const int window = m_config.window;
    const int negatives = m_config.negatives;
    const double alphaStart = m_config.alpha;

    // One centre position: its contexts' vectors (or their mean) against the word and its noise.
    auto trainCentre = [&](TrainingShare &share, size_t position, float alpha) {
        const std::vector<int32_t> &sentence = share.sentence;
        const int b = 1 + int(share.random.next() % uint64_t(window));
        const size_t first = position >= size_t(b) ? position - size_t(b) : 0;
        const size_t end = std::min(sentence.size(), position + size_t(b) + 1);
        int32_t contexts[kMaxSgnsRows];
        int contextCount = 0;
        for (size_t c = first; c < end; ++c)
            if (c != position)
                contexts[contextCount++] = sentence[c];
        if (contextCount == 0)
            return;
        const int32_t centre = sentence[position];
        int32_t targets[kMaxSgnsRows];
        int targetCount = 0;
        targets[targetCount++] = centre;
        for (int k = 0; k < negatives; ++k) {
            const int32_t drawn = noise.draw(share.random.next() >> 16);
            if (drawn != centre)  // word2vec.c skips a noise word that is the true one
                targets[targetCount++] = drawn;
        }
        float *outputRows[kMaxSgnsRows];
        for (int j = 0; j < targetCount; ++j)
            outputRows[j] = output + size_t(targets[j]) * size_t(dims);
        float *inputRows[kMaxSgnsRows];
        for (int c = 0; c < contextCount; ++c)
            inputRows[c] = input + size_t(contexts[c]) * size_t(dims);
        float *mean = share.mean.data();
        if (cbow)
            meanOfRows(inputRows, contextCount, dims, mean);
        // Every round measures at least one centre, so that even a tiny corpus reports a loss.
        const bool withLoss = share.centres++ % kLossSampleEvery == 0 || share.lossPairs == 0;
        const double loss = sgnsStep(cbow ? &mean : inputRows, cbow ? 1 : contextCount, outputRows, targetCount,
                                     dims, alpha, share.inputSteps.data(), share.outputSteps.data(), withLoss);
        const int pairs = cbow ? 1 : contextCount;
        share.pairs += pairs;
        if (withLoss) {
            share.loss += loss;
            share.lossPairs += pairs;
        }
        // The steps were all taken from the vectors before this update; now they are applied.
        addRows(outputRows, targetCount, share.outputSteps.data(), dims, dims);
        // CBOW gives every context word the whole step of their mean, as word2vec.c does.
        addRows(inputRows, contextCount, share.inputSteps.data(), cbow ? 0 : dims, dims);
    };

    // The lines of one share, this round's.
    auto trainRound = [&](TrainingShare &share, int64_t wordsBefore) {
        share.wordsDone = share.tokensKept = share.pairs = share.lossPairs = 0;
        share.loss = 0;
        while (share.nextLine < share.endLine) {
            const int64_t begin = m_corpus.lineStarts[size_t(share.nextLine)];
            const int64_t end = m_corpus.lineStarts[size_t(share.nextLine) + 1];
            ++share.nextLine;
            share.sentence.clear();
            for (int64_t t = begin; t < end; ++t) {
                const int32_t word = m_corpus.tokens[size_t(t)];
                if (uint32_t(share.random.next() >> 40) < keepBelow[size_t(word)])
                    share.sentence.push_back(word);
            }
            // The rate as word2vec.c has it: from the words all threads are estimated to have done.
            const double progress = double(wordsBefore + share.wordsDone * threads) / double(wordsTotal);
            const float alpha = float(alphaStart * std::max(kFinalAlphaShare, 1.0 - progress));
            for (size_t position = 0; position < share.sentence.size(); ++position)
                trainCentre(share, position, alpha);
            share.wordsDone += end - begin;
            share.tokensKept += int64_t(share.sentence.size());
        }
    };

    std::vector<Word2VecEpoch> epochs;
    const Clock::time_point started = Clock::now();
    int64_t wordsDone = 0;
    int64_t roundWords = std::max<int64_t>(1, kFirstRoundWords / threads);
    for (int epoch = 1; epoch <= m_config.epochs; ++epoch) {
        if (stop && stop->load())
            break;
        const Clock::time_point epochStarted = Clock::now();
        int cursor = 0;  // the first line no thread has taken yet this epoch
        Word2VecEpoch summary;
        summary.epoch = epoch;
        double epochLoss = 0;
        int64_t epochLossPairs = 0;
        bool stopped = false;
        while (cursor < m_corpus.lines()) {
            // Each round the threads take the next runs of lines side by side, so that together
            // they move through the corpus in its order, as gensim's workers do: with a fixed half
            // each, the vectors came out measurably unlike gensim's.
            for (TrainingShare &share : shares) {
                share.nextLine = cursor;
                int64_t words = 0;
                while (cursor < m_corpus.lines() && words < roundWords) {
                    words += m_corpus.lineStarts[size_t(cursor) + 1] - m_corpus.lineStarts[size_t(cursor)];
                    ++cursor;
                }
                share.endLine = cursor;
            }
            const Clock::time_point roundStarted = Clock::now();
            parallelFor(
                threads, [&](int t) { trainRound(shares[size_t(t)], wordsDone); },
                Workers::StartedSingleThreadedOps);
            Word2VecProgress progress;
            int64_t lossPairs = 0;
            int64_t roundDone = 0;
            for (const TrainingShare &share : shares) {
                roundDone += share.wordsDone;
                summary.tokensKept += share.tokensKept;
                summary.pairs += share.pairs;
                progress.loss += share.loss;
                lossPairs += share.lossPairs;
            }
            wordsDone += roundDone;
            epochLoss += progress.loss;
            epochLossPairs += lossPairs;
            const double roundSeconds = secondsSince(roundStarted);
            if (roundSeconds > 0 && roundDone > 0)
                roundWords = std::clamp<int64_t>(int64_t(double(roundDone) / threads * kRoundSeconds / roundSeconds),
                                                 1000, 1000000);
            if (callbacks.onProgress) {
                progress.epoch = epoch;
                progress.epochs = m_config.epochs;
                progress.wordsDone = wordsDone;
                progress.wordsTotal = wordsTotal;
                progress.loss = lossPairs > 0 ? progress.loss / double(lossPairs) : 0;
                progress.wordsPerSecond = double(wordsDone) / std::max(1e-9, secondsSince(started));
                progress.alpha = alphaStart * std::max(kFinalAlphaShare, 1.0 - double(wordsDone) / double(wordsTotal));
                callbacks.onProgress(progress);
            }
            if (stop && stop->load()) {
                stopped = true;
                break;
            }
        }
        if (stopped)
            break;
        summary.loss = epochLossPairs > 0 ? epochLoss / double(epochLossPairs) : 0;
        summary.seconds = secondsSince(epochStarted);
        summary.wordsPerSecond = double(corpusTokens) / std::max(1e-9, summary.seconds);
        epochs.push_back(summary);
        if (callbacks.onEpoch)
            callbacks.onEpoch(summary);
    }
    return epochs;
}
