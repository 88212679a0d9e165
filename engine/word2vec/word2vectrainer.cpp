#include "engine/word2vec/word2vectrainer.h"

#include "engine/core/elapsed.h"
#include "engine/core/trainingfields.h"
#include "engine/fast/parallelfor.h"
#include "engine/word2vec/noisedistribution.h"
#include "engine/word2vec/sgnsupdate.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <memory>
#include <random>
#include <stdexcept>

namespace {

using Clock = std::chrono::steady_clock;

// The learning rate falls linearly to this share of alpha over all epochs' words, as in word2vec.c.
constexpr double kFinalAlphaShare = 1e-4;
// The loss is computed for one centre position in this many: a log and an exp per logit would
// otherwise cost as much as the step itself, and a sampled mean reads the same on the plot.
constexpr int kLossSampleEvery = 8;
// Below this many tokens an epoch measures every centre: it costs nothing there, and a sampled mean
// over a few dozen centres would bounce from epoch to epoch.
constexpr int64_t kMeasureEveryCentreBelow = 100000;
// Rounds are sized so that one takes about this long: progress, pause and stop wait at most that.
constexpr double kRoundSeconds = 0.1;
constexpr int64_t kFirstRoundWords = 20000;
// A round is cut into jobs of about this many words, which the threads take in order as each
// finishes its last, as gensim's workers take its batches of 10,000 words.
constexpr int64_t kJobWords = 10000;

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

// Lines [firstLine, endLine), which start `offset` words into their round.
struct TrainingJob {
    int firstLine = 0, endLine = 0;
    int64_t offset = 0;
};

// One training thread: its random numbers, its buffers and its counts. On a
// cache line of its own: the threads' counters and random states written at every word would
// otherwise share one, and the threads would take it from each other (two threads then ran at
// times no faster than one).
struct alignas(64) TrainingShare {
    FastRandom random{0};
    std::vector<int32_t> sentence;  // the current line after subsampling
    std::unique_ptr<PaddedRows> scratch;  // the mean of a CBOW window, the input's step
    // Counted over the current round.
    int64_t wordsDone = 0, tokensKept = 0, pairs = 0, lossPairs = 0;
    double loss = 0;
    int64_t centres = 0;     // all rounds: picks the positions whose loss is computed
};

}

Word2VecTrainer::Word2VecTrainer(const WordCorpus &corpus, const CorpusConfig &corpusConfig,
                                 const Word2VecConfig &config)
    : m_corpus(corpus), m_corpusConfig(corpusConfig), m_config(config),
      m_input(corpus.vocabularySize(), config.dimensions), m_output(corpus.vocabularySize(), config.dimensions)
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

    if (config.initStd > 0) {
        std::mt19937_64 generator(config.seed);
        std::normal_distribution<float> normal(0.0f, float(config.initStd));
        for (PaddedRows *rows : {&m_input, &m_output})
            for (int64_t w = 0; w < rows->rows(); ++w)
                for (int d = 0; d < config.dimensions; ++d)
                    rows->row(w)[d] = normal(generator);
        return;
    }
    FastRandom random{config.seed};
    const float scale = 1.0f / float(config.dimensions);
    for (int64_t w = 0; w < m_input.rows(); ++w)
        for (int d = 0; d < config.dimensions; ++d)
            m_input.row(w)[d] = (random.uniform() - 0.5f) * scale;
}

WordVectors Word2VecTrainer::vectors() const
{
    WordVectors vectors;
    vectors.words = m_corpus.words;
    vectors.dimensions = m_config.dimensions;
    vectors.values = m_input.unpadded();
    vectors.counts = m_corpus.counts;
    return vectors;
}

std::vector<Word2VecEpoch> Word2VecTrainer::train(const Callbacks &callbacks, const std::atomic<bool> *stop)
{
    // The kernels run over the padded rows: the padding is zero and stays so.
    const int dims = m_input.stride();
    const bool cbow = m_config.architecture == Word2VecArchitecture::Cbow;
    const NoiseDistribution noise(m_corpus.counts, m_config.noiseExponent);
    const int64_t corpusTokens = int64_t(m_corpus.tokens.size());
    const int64_t wordsTotal = corpusTokens * m_config.epochs;

    // Keep thresholds as 24-bit integers: a word is kept when its random number is below.
    std::vector<uint32_t> keepBelow(m_corpus.counts.size());
    for (size_t w = 0; w < keepBelow.size(); ++w)
        keepBelow[w] = uint32_t(std::ceil(keepProbability(m_corpus.counts[w], corpusTokens, m_corpusConfig.sample) *
                                          16777216.0));

    const int lossEvery = corpusTokens < kMeasureEveryCentreBelow ? 1 : kLossSampleEvery;
    const int threads = std::max(1, std::min(resolvedThreads(m_config.threads), m_corpus.lines()));
    std::vector<TrainingShare> shares(static_cast<size_t>(threads));
    // Each thread's stream starts at a mixed number: starts a fixed step apart would make every
    // stream the same sequence shifted by one draw, as splitmix64 walks its state in that step.
    FastRandom streamStarts{~m_config.seed};
    for (int t = 0; t < threads; ++t) {
        TrainingShare &share = shares[size_t(t)];
        share.random.state = streamStarts.next();
        share.scratch = std::make_unique<PaddedRows>(2, dims);
    }


    const int window = m_config.window;
    const bool wholeWindow = m_config.wholeWindow;
    const int negatives = m_config.negatives;
    const double alphaStart = m_config.alpha;
    const bool constantRate = m_config.constantRate;
    const auto rateAt = [alphaStart, constantRate](double progress) {
        return constantRate ? alphaStart : alphaStart * std::max(kFinalAlphaShare, 1.0 - progress);
    };

    // What one centre position draws: its window's half-width and its noise words, shared by the
    // whole window (Intel's pWord2Vec: a sixth of the draws and rows). Drawn one position ahead, so
    // that the rows they name are fetched while the position before trains: the kernel otherwise
    // waits for them.
    struct CentreDraws {
        int halfWidth = 0;
        int targetCount = 0;
        int32_t targets[kMaxSgnsRows];
    };
    auto prefetchRow = [dims](const float *row) {
        for (int d = 0; d < dims; d += 16)
            __builtin_prefetch(row + d, /*write=*/1);
    };
    auto drawCentre = [&](TrainingShare &share, size_t position, CentreDraws &draws) {
        const std::vector<int32_t> &sentence = share.sentence;
        draws.halfWidth = wholeWindow ? window : 1 + int(share.random.next() % uint64_t(window));
        const int32_t centre = sentence[position];
        draws.targetCount = 0;
        draws.targets[draws.targetCount++] = centre;
        for (int k = 0; k < negatives; ++k) {
            const int32_t drawn = noise.draw(share.random.next());
            if (drawn != centre)  // word2vec.c skips a noise word that is the true one
                draws.targets[draws.targetCount++] = drawn;
        }
        for (int j = 0; j < draws.targetCount; ++j)
            prefetchRow(m_output.row(draws.targets[j]));
        // The word entering the window; the others were in the last one.
        if (position + size_t(draws.halfWidth) < sentence.size())
            prefetchRow(m_input.row(sentence[position + size_t(draws.halfWidth)]));
    };

    // One centre position: its contexts' vectors (or their mean) against the word and its noise.
    auto trainCentre = [&](TrainingShare &share, size_t position, const CentreDraws &draws, float alpha) {
        const std::vector<int32_t> &sentence = share.sentence;
        const int b = draws.halfWidth;
        const size_t first = position >= size_t(b) ? position - size_t(b) : 0;
        const size_t end = std::min(sentence.size(), position + size_t(b) + 1);
        int32_t contexts[kMaxSgnsRows];
        int contextCount = 0;
        for (size_t c = first; c < end; ++c)
            if (c != position)
                contexts[contextCount++] = sentence[c];
        if (contextCount == 0)
            return;
        const int32_t *targets = draws.targets;
        const int targetCount = draws.targetCount;
        float *outputRows[kMaxSgnsRows];
        for (int j = 0; j < targetCount; ++j)
            outputRows[j] = m_output.row(targets[j]);
        float *inputRows[kMaxSgnsRows];
        for (int c = 0; c < contextCount; ++c)
            inputRows[c] = m_input.row(contexts[c]);
        float *step = share.scratch->row(1);
        // Every round measures at least one centre, so that even a tiny corpus reports a loss.
        const bool withLoss = share.centres++ % lossEvery == 0 || share.lossPairs == 0;
        double loss = 0;
        if (cbow) {
            float *mean = share.scratch->row(0);
            meanOfRows(inputRows, contextCount, dims, mean);
            loss = sgnsStep(mean, outputRows, targetCount, dims, alpha, step, withLoss);
            // Every context word takes the whole step of their mean, as word2vec.c does.
            addRows(inputRows, contextCount, step, 0, dims);
        } else {
            // Each context word in turn, the output vectors moved by those before it, as word2vec.c
            // and gensim do: one update for the whole window from the vectors as they were before
            // it (Intel's pWord2Vec) gave neighbours measurably unlike gensim's.
            for (int c = 0; c < contextCount; ++c) {
                loss += sgnsStep(inputRows[c], outputRows, targetCount, dims, alpha, step, withLoss);
                addRows(&inputRows[c], 1, step, 0, dims);
            }
        }
        const int pairs = cbow ? 1 : contextCount;
        share.pairs += pairs;
        if (withLoss) {
            share.loss += loss;
            share.lossPairs += pairs;
        }
    };

    // A round's jobs, taken by the threads in order until none is left.
    std::vector<TrainingJob> jobs;
    std::atomic<size_t> nextJob{0};
    auto trainRound = [&](TrainingShare &share, int64_t wordsBefore) {
        share.wordsDone = share.tokensKept = share.pairs = share.lossPairs = 0;
        share.loss = 0;
        for (size_t j = nextJob++; j < jobs.size(); j = nextJob++) {
            int64_t jobDone = 0;
            for (int line = jobs[j].firstLine; line < jobs[j].endLine; ++line) {
                const int64_t begin = m_corpus.lineStarts[size_t(line)];
                const int64_t end = m_corpus.lineStarts[size_t(line) + 1];
                share.sentence.clear();
                for (int64_t t = begin; t < end; ++t) {
                    const int32_t word = m_corpus.tokens[size_t(t)];
                    if (uint32_t(share.random.next() >> 40) < keepBelow[size_t(word)])
                        share.sentence.push_back(word);
                }
                // The rate falls with the words before this line, wherever its thread is.
                const double progress = double(wordsBefore + jobs[j].offset + jobDone) / double(wordsTotal);
                const float alpha = float(rateAt(progress));
                CentreDraws draws[2];
                if (!share.sentence.empty())
                    drawCentre(share, 0, draws[0]);
                for (size_t position = 0; position < share.sentence.size(); ++position) {
                    if (position + 1 < share.sentence.size())
                        drawCentre(share, position + 1, draws[(position + 1) % 2]);
                    trainCentre(share, position, draws[position % 2], alpha);
                }
                jobDone += end - begin;
                share.tokensKept += int64_t(share.sentence.size());
            }
            share.wordsDone += jobDone;
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
            // The next lines, cut into jobs that the threads take in order, so that together they
            // go through the corpus in its order, as gensim's workers do: with a half each, or a
            // run of lines each per round, the vectors came out measurably unlike gensim's.
            jobs.clear();
            nextJob = 0;
            int64_t words = 0;
            while (cursor < m_corpus.lines() && words < roundWords * threads) {
                TrainingJob job;
                job.firstLine = cursor;
                job.offset = words;
                const int64_t jobEnd = std::min(words + kJobWords, roundWords * threads);
                while (cursor < m_corpus.lines() && words < jobEnd) {
                    words += m_corpus.lineStarts[size_t(cursor) + 1] - m_corpus.lineStarts[size_t(cursor)];
                    ++cursor;
                }
                job.endLine = cursor;
                jobs.push_back(job);
            }
            const Clock::time_point roundStarted = Clock::now();
            parallelFor(
                threads, [&](int t) { trainRound(shares[size_t(t)], wordsDone); },
                Workers::PooledSingleThreadedOps);
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
                progress.alpha = rateAt(double(wordsDone) / double(wordsTotal));
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
