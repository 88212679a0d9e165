#pragma once

#include <string>
#include <vector>

// Which source words an output word came from, by attention and by methods that never read it:
// gradients (Simonyan et al. 2014), input x gradient, integrated gradients (Sundararajan et al.
// 2017) and occlusion. Each explains f_t = log P(y_t | y_<t, source) for every step t of a model's
// greedy output, the output teacher-forced as it was decoded. What every sequence lab's
// explanations share: the methods, their options and their maps.
enum class AttributionMethod {
    Attention,            // the model's own weights at step t
    Saliency,             // ||df_t / de_i||, e_i the source word's embedding
    InputTimesGradient,   // e_i . df_t / de_i
    IntegratedGradients,  // (e_i - e'_i) . the mean of df_t / de_i over m points from e' to e
    Occlusion,            // f_t(source) - f_t(source without word i): word removal, step by step
    Rollout,              // attention through every layer, the residual mixed in (Abnar & Zuidema 2020)
};

// The five methods every sequence model is explained with, in the order above; rollout needs
// layers of attention and is the Transformer's alone.
const std::vector<AttributionMethod> &allAttributionMethods();
const char *attributionMethodName(AttributionMethod method);   // attention, saliency, inputxgrad, ig, occlusion, rollout
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

// How occlusion takes a word out.
enum class RemovalMode {
    Drop,     // the word is left out: the source is one word shorter
    Unknown,  // the word is replaced by <UNK>: the source keeps its length
};

const char *removalModeName(RemovalMode mode);  // "drop", "unknown"
// `words` with word `i` taken out as `mode` says.
std::vector<std::string> removeWord(const std::vector<std::string> &words, std::size_t i, RemovalMode mode);
bool parseRemovalMode(const std::string &name, RemovalMode *mode);

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

// Throws std::invalid_argument for no method or integration steps out of range.
void validateAttributionOptions(const AttributionOptions &options);

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
