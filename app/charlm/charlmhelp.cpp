#include "app/charlm/charlmhelp.h"

#include "app/charlm/charlmoptions.h"
#include "app/core/helpformat.h"
#include "engine/charlm/charattribution.h"
#include "engine/charlm/charlmconfig.h"

namespace {

std::string charExplainHelp()
{
    std::string text = R"(
Usage: attnscope charlm explain --model FILE [--last N] [--steps M] [--next C] [--json|--csv] CONTEXT

Reads CONTEXT with a model charlm wrote and explains the next character: for each of the last N
characters, saliency (the norm of the gradient of log p(next) over the character's input vector,
its embedding or its one-hot column) and integrated gradients (from all-zero inputs to the
characters' own, in M steps, Sundararajan et al. 2017). It prints the character the model expects
and its probability, a table of both scores per character (position -1 is the last one), and how
far the integrated gradients' sum is from the change in log p(next) they explain (the
completeness gap, 0 as M grows). The characters before the last N only set the state.

Explain options:
)";
    text += optionLine("--model FILE", "A model.ckpt written by charlm (required).");
    text += optionLine("--last N", "How many of the context's last characters to explain (default " +
                                       std::to_string(kDefaultExplainedCharacters) + ", range 1 to " +
                                       std::to_string(kMaxExplainedCharacters) + ").");
    text += optionLine("--steps M", "Integrated gradients' steps (default " + std::to_string(kDefaultCharIntegrationSteps) +
                                        ", range 1 to " + std::to_string(kMaxCharIntegrationSteps) + ").");
    text += optionLine("--next C", "Explains character C instead of the model's likeliest one.");
    text += optionLine("--json", "Prints the prediction and the scores per character as JSON.");
    text += optionLine("--csv", "Prints the scores per character as CSV: position, character, saliency, "
                                "integrated_gradients.");
    text += optionLine("CONTEXT", "The text read, 1 to " + std::to_string(kMaxExplainedContext) +
                                      " characters, every one in the model's alphabet.");
    return text;
}

}

std::string charLmHelp()
{
    std::string text = R"(Usage: attnscope charlm --text FILE --out DIR [--prime TEXT] [options]

Trains a character language model on FILE (UTF-8 text): each character embedded (or one-hot),
recurrent layers (a tanh RNN, a GRU or an LSTM), a linear map to the next character's logits,
trained by truncated backpropagation through time with the state carried between windows. It
prints the text's counts, the n-gram baseline (orders 1-5, add-k smoothing, measured on the
validation tail) and a line per epoch, and writes DIR/model.ckpt (weights, alphabet, settings and
history), metrics.json (the settings; per epoch train and validation bits per character and
perplexity, seconds, characters/s and memorised length; the n-gram baseline; characters/s over
the run; peak memory) and samples.txt (a sample at each temperature, 0.5, 0.8 and 1.0). The
memorised length counts the characters of the training text the model recites exactly (greedy)
after its first one, up to )" + std::to_string(kMemorisationLimit) + R"(. Ctrl+C stops after the
current window and writes the model as it is.

Character model options:
)";
    text += fieldLines(charModelFields());
    text += "Character training options:\n" + fieldLines(charTrainingFields());
    text += optionLine("--prime TEXT", "Starts the samples in samples.txt (default: the text's first " +
                                           std::to_string(kPrimeCharacters) +
                                           " characters); at least one of its characters must be in the text.");
    return text + charExplainHelp() + kExitCodes;
}

std::string generateHelp()
{
    std::string text = R"(Usage: attnscope generate --model FILE [--prime TEXT] [--temperature T] [--top-k K]
                          [--length N] [--seed S] [--json | --latency N]

Samples from a model charlm wrote, after the prime; --json prints the text with each generated
character's probability and the entropy of the distribution it was drawn from. --latency N instead
times sampling N characters one at a time (batch 1, the state carried) and prints the median and
p99 per character, also as a line "JSON {...}".

Generate options:
)";
    text += optionLine("--model FILE", "A model.ckpt written by charlm (required).");
    text += optionLine("--prime TEXT", "Read before sampling; characters the model does not know are left out, "
                                       "and at least one must remain (default: a new line, else a space, else "
                                       "the model's first character).");
    text += fieldLines(generateFields());
    text += optionLine("--json", "Prints the prime, the generated text and, per character, its probability and "
                                 "entropy in bits, as JSON.");
    text += optionLine("--latency N", "Times sampling N characters (1 to " + std::to_string(kMaxSampleLength) +
                                          ") at --temperature instead of printing them.");
    return text + kExitCodes;
}
