#pragma once

#include "engine/attention/decodedsentence.h"
#include "engine/attention/wordremovaleffect.h"

#include <string>
#include <vector>

class Seq2SeqModel;

// Which source words an output word came from, by attention and by methods that never read it:
// gradients (Simonyan et al. 2014), input x gradient, integrated gradients (Sundararajan et al.
// 2017) and occlusion. Each explains f_t = log P(y_t | y_<t, source) for every step t of the
// model's greedy output, the output teacher-forced as it was decoded.
enum class AttributionMethod {
    Attention,            // the model's own weights at step t
    Saliency,             // ||df_t / de_i||, e_i the source word's embedding
    InputTimesGradient,   // e_i . df_t / de_i
    IntegratedGradients,  // (e_i - e'_i) . the mean of df_t / de_i over m points from e' to e
    Occlusion,            // f_t(source) - f_t(source without word i): word removal, step by step
};

const std::vector<AttributionMethod> &allAttributionMethods();  // in the order above
const char *attributionMethodName(AttributionMethod method);   // attention, saliency, inputxgrad, ig, occlusion
const char *attributionMethodTitle(AttributionMethod method);  // "Attention", "Saliency", "Input × gradient", ...
// Saliency, input × gradient and integrated gradients: the costly methods, which read gradients.
bool attributionReadsGradients(AttributionMethod method);
bool parseAttributionMethod(const std::string &name, AttributionMethod *method);

// Integrated gradients' starting point e' for every source word (the source's <EOS> stays as it
// is): the zero vector, or <UNK>'s embedding, the model's own "a word I do not know". (<PAD>'s
// embedding is no third choice: padding_idx keeps it at zero.)
enum class IntegrationBaseline { Zero, Unknown };

const char *integrationBaselineName(IntegrationBaseline baseline);  // zero, unknown
bool parseIntegrationBaseline(const std::string &name, IntegrationBaseline *baseline);

constexpr int kDefaultIntegrationSteps = 64;
constexpr int kMaxIntegrationSteps = 1024;

struct AttributionOptions {
    std::vector<AttributionMethod> methods = allAttributionMethods();
    int integrationSteps = kDefaultIntegrationSteps;  // m, 1..kMaxIntegrationSteps
    IntegrationBaseline baseline = IntegrationBaseline::Zero;
    RemovalMode occlusion = RemovalMode::Drop;
    // >= 0: the gradient methods explain this output step alone (none where the output is shorter),
    // for a view that shows one step: a step costs about a tenth of a 10-word sentence's steps.
    int gradientRow = -1;
};

// How sure the model was at one output step.
struct StepScore {
    double logProb = 0;    // log P(y_t | y_<t, source)
    double entropy = 0;    // of the output distribution at t, in nats
    double margin = 0;     // log P(y_t) - log P(runner-up)
    std::string runnerUp;  // the likeliest word other than y_t
};

// One method's scores: a row per output step (<EOS> included), a column per source word (the
// source's own <EOS> is not a column). Higher means more of y_t is put down to the word; saliency
// and attention are never negative, the others can be.
struct AttributionMap {
    AttributionMethod method = AttributionMethod::Attention;
    int rows = 0;
    int columns = 0;
    std::vector<double> scores;  // rows x columns, row-major

    double at(int row, int column) const { return scores[std::size_t(row) * std::size_t(columns) + std::size_t(column)]; }
    std::vector<double> row(int row) const;
};

struct SentenceAttribution {
    DecodedSentence sentence;          // the greedy decode explained, with its attention
    std::vector<std::string> words;    // the columns: the source words as the model read them
    std::vector<StepScore> steps;      // one per output step
    std::vector<AttributionMap> maps;  // the methods asked for, in the order asked; attention only with attention
    // Integrated gradients only, one per step: f_t(x) - f_t(x') and |sum_i IG_i - (f_t(x) - f_t(x'))|,
    // which the method's completeness axiom says is 0 as m grows.
    std::vector<double> integrationDelta;
    std::vector<double> completenessGap;
    // As AttributionOptions::gradientRow: -1, or the one row the gradient methods' maps hold (their
    // other rows, and the integration figures there, are NaN).
    int gradientRow = -1;

    const AttributionMap *map(AttributionMethod method) const;  // nullptr when it was not computed
    // Whether `method`'s map was computed and holds `row`, or with -1 every row.
    bool explains(AttributionMethod method, int row = -1) const;
};

// Decodes `words` greedily (cut to Seq2SeqModel::kMaxInputTokens) and explains every output step
// by each method asked. Throws std::invalid_argument for fewer than two words (removing the only
// word leaves nothing to read), or options out of range.
SentenceAttribution attribute(const Seq2SeqModel &model, const std::vector<std::string> &words,
                              const AttributionOptions &options = {});

// Why this word and not that one: at output step `row` of `explained`, each method explains
// f = log P(y_row) - log P(alternative) instead. Attention has no contrastive form; its row is
// the attention row as it is.
struct ContrastiveAttribution {
    int row = 0;
    std::string alternative;
    double logProbDifference = 0;      // f itself
    std::vector<AttributionMap> maps;  // one row each, methods as in `explained`
};

// Throws std::invalid_argument for a row outside the output, or an alternative that is y_row
// itself or a word the model cannot write (outside its vocabulary, and with the pointer, outside the source).
ContrastiveAttribution attributeContrast(const Seq2SeqModel &model, const SentenceAttribution &explained, int row,
                                         const std::string &alternative, const AttributionOptions &options = {});
