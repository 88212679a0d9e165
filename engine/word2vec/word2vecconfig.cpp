#include "engine/word2vec/word2vecconfig.h"

#include "engine/core/trainingfields.h"

const std::vector<ConfigField<CorpusConfig>> &corpusFields()
{
    using C = CorpusConfig;
    static const std::vector<ConfigField<C>> fields = {
        integerField<&C::minCount>("min-count", "minimum count", 1, 1000000,
                                   "Words seen fewer times than this are dropped from the corpus before training: "
                                   "rare words get poor vectors and cost time."),
        integerField<&C::maxVocabulary>("max-vocabulary", "vocabulary cap", 0, 10000000,
                                        "Only this many of the most frequent words are kept; the rest are dropped "
                                        "from the corpus.",
                                        "no limit"),
        realField<&C::sample>("sample", "subsampling threshold", 0, 0.1, 1e-4,
                              "Words more frequent than this share of the corpus are randomly skipped, the more "
                              "frequent the more often (word2vec's t, typically 1e-3 to 1e-5): it speeds training "
                              "and helps rarer words. On a small corpus it throws away most of the text.",
                              "off"),
        flagField<&C::punctuation>("punctuation", "punctuation as words",
                                   "Keep the marks . , ! ? ; : as words of their own, as the course's toy corpus "
                                   "keeps the full stop; otherwise they only separate words."),
    };
    return fields;
}

const std::vector<ConfigField<Word2VecConfig>> &word2vecFields()
{
    using C = Word2VecConfig;
    static const std::vector<ConfigField<C>> fields = {
        flagField<&C::architecture>("cbow", "CBOW",
                                    "Train CBOW (the mean of the context words predicts the word) instead of "
                                    "skip-gram (each context word predicts the word)."),
        integerField<&C::dimensions>("dim", "dimensions", 2, 1000,
                                     "Length of each word vector: more can hold finer distinctions but need more "
                                     "text and time."),
        integerField<&C::window>("window", "window", 1, 20,
                                 "The largest distance between a word and its context words; each position draws "
                                 "its own window from 1 to this, so near words count more."),
        flagField<&C::wholeWindow>("whole-window", "whole window",
                                   "Every position takes the whole window instead of drawing its own from 1 to the "
                                   "window, as the course's exercise does: far words count as much as near ones."),
        integerField<&C::negatives>("negative", "negative samples", 1, 50,
                                    "Noise words each true pair is contrasted with: 5 to 20 for small corpora, 2 "
                                    "to 5 for large ones."),
        realField<&C::noiseExponent>("noise-exponent", "noise exponent", 0, 1, 0.05,
                                     "Noise words are drawn in proportion to count^exponent: 1 follows the word "
                                     "counts, 0 is uniform, and word2vec's 0.75 lifts rare words a little."),
        epochsField<&C::epochs>("Passes over the corpus."),
        realField<&C::alpha>("alpha", "learning rate", 1e-5, 1, 0.005,
                             "The starting step size; it falls linearly to 1e-4 of this by the end of training."),
        flagField<&C::constantRate>("constant-rate", "constant rate",
                                    "Keep the learning rate at alpha throughout (plain SGD, as the course's exercise "
                                    "does) instead of letting it fall to nothing by the end."),
        realField<&C::initStd>("init-std", "initial spread", 0, 1, 0.01,
                               "Start every input and output vector from N(0, this), as the course's exercise "
                               "does (0.1); 0 starts as word2vec.c does: inputs uniform in ±0.5/dimensions, "
                               "outputs at zero.",
                               "word2vec.c's"),
        seedField<&C::seed>("Seeds the initial vectors, the windows, the noise words and the subsampling: with one "
                            "thread the same seed and settings train the same vectors."),
        threadsField<&C::threads>("Training threads, each on its own share of the lines; they update the shared "
                                  "vectors without locks, as word2vec does, so results vary slightly above one."),
    };
    return fields;
}

std::string validate(const CorpusConfig &config)
{
    return checkFields(config, corpusFields());
}

std::string validate(const Word2VecConfig &config)
{
    return checkFields(config, word2vecFields());
}
