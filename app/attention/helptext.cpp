#include "app/attention/helptext.h"

#include "app/charlm/charlmoptions.h"
#include "engine/attention/datasetconfig.h"
#include "engine/attention/modelconfig.h"
#include "engine/attention/trainingconfig.h"
#include "engine/charlm/charlmconfig.h"
#include "engine/word2vec/word2vecconfig.h"

#include <map>
#include <sstream>

namespace {

constexpr std::size_t kOptionColumn = 27;
constexpr std::size_t kLineWidth = 100;

// `option` and then `text`, wrapped into the column after it.
std::string optionLine(const std::string &option, const std::string &text)
{
    std::string out = "  " + option;
    std::size_t column = out.size();
    if (column + 1 >= kOptionColumn) {
        out += "\n";
        column = 0;
    }
    std::istringstream words(text);
    bool first = true;
    for (std::string word; words >> word; first = false) {
        if (!first && column + 1 + word.size() > kLineWidth) {
            out += "\n";
            column = 0;
        }
        if (column < kOptionColumn) {
            out += std::string(kOptionColumn - column, ' ');
            column = kOptionColumn;
        } else {
            out += " ";
            ++column;
        }
        out += word;
        column += word.size();
    }
    return out + "\n";
}

std::string optionName(const FieldSpec &field)
{
    switch (field.type) {
    case FieldType::Integer:
        return "--" + field.key + " N";
    case FieldType::Real:
        return "--" + field.key + " X";
    case FieldType::Flag:
        return "--" + field.key + ", --no-" + field.key;
    case FieldType::Choice: {
        std::string names;
        for (const std::string &choice : field.choices)
            names += (names.empty() ? "" : "|") + choice;
        return "--" + field.key + " " + names;
    }
    case FieldType::Path:
        return "--" + field.key + " FILE";
    }
    return {};
}

// One line per field: its help, its default, its range and what its minimum means when that is special.
// `defaults` replaces the struct's default where the command line sets another.
template <typename Config>
std::string fieldLines(const std::vector<ConfigField<Config>> &fields,
                       const std::map<std::string, std::string> &defaults = {})
{
    std::string out;
    for (const ConfigField<Config> &field : fields) {
        const FieldValue value = field.defaultValue();
        std::string shown = field.type == FieldType::Flag ? (value.number != 0 ? "on" : "off")
                                                           : formatValue(field, value);
        if (defaults.count(field.key))
            shown = defaults.at(field.key);
        std::string text = field.help;
        if (!text.empty() && text.back() == '.')
            text.pop_back();
        if (!shown.empty()) {
            // "(default 32; 0 = one-hot to 1024)", "(default 0 = none; 0 to 0.5)"
            FieldValue minimum, maximum;
            minimum.number = field.minimum;
            maximum.number = field.maximum;
            const bool atMinimum = value.number == field.minimum;
            const std::string means = field.minimumMeans.empty() ? "" : " = " + field.minimumMeans;
            text += " (default " + shown + (atMinimum ? means : "");
            if (field.type == FieldType::Integer || field.type == FieldType::Real)
                text += "; " + formatValue(field, minimum) + (atMinimum ? "" : means) + " to " + formatValue(field, maximum);
            text += ")";
        }
        out += optionLine(optionName(field), text + ".");
    }
    return out;
}

constexpr const char *kExitCodes = "\nExit codes: 0 success, 1 failure while running, 2 bad options.\n";
constexpr const char *kCharLmUsage =
    "  attnscope charlm --text FILE --out DIR [--prime TEXT] [options]\n"
    "  attnscope generate --model FILE [--prime TEXT] [--temperature T] [--top-k K] [--length N]\n"
    "                     [--seed S] [--json | --latency N]\n";

// The character lab's commands, what they write and their options.
std::string charLmSection()
{
    std::string text = R"(charlm trains a character language model on FILE (UTF-8 text): each character embedded (or
one-hot), recurrent layers (a tanh RNN, a GRU or an LSTM), a linear map to the next character's
logits, trained by truncated backpropagation through time with the state carried between windows.
It prints the text's counts, the n-gram baseline (orders 1-5, add-k smoothing, measured on the
validation tail) and a line per epoch, and writes DIR/model.ckpt (weights, alphabet, settings and
history), metrics.json (the settings; per epoch train and validation bits per character and
perplexity, seconds, characters/s and memorised length; the n-gram baseline; characters/s over
the run; peak memory) and samples.txt (a sample at each temperature, 0.5, 0.8 and 1.0). The
memorised length counts the characters of the training text the model recites exactly (greedy)
after its first one, up to )" + std::to_string(kMemorisationLimit) + R"(.

generate samples from a model charlm wrote, after the prime; --json prints the text with each
generated character's probability and the entropy of the distribution it was drawn from.
--latency N instead times sampling N characters one at a time (batch 1, the state carried) and
prints the median and p99 per character, also as a line "JSON {...}".

Character model options (charlm):
)";
    text += fieldLines(charModelFields());
    text += "Character training options (charlm):\n" + fieldLines(charTrainingFields());
    text += optionLine("--prime TEXT", "Starts the samples in samples.txt (default: the text's first " +
                                           std::to_string(kPrimeCharacters) +
                                           " characters); at least one of its characters must be in the text.");
    text += "Generate options:\n";
    text += optionLine("--model FILE", "A model.ckpt written by charlm (required).");
    text += optionLine("--prime TEXT", "Read before sampling; characters the model does not know are left out, "
                                       "and at least one must remain (default: a new line, else a space, else "
                                       "the model's first character).");
    text += fieldLines(generateFields());
    text += optionLine("--json", "Prints the prime, the generated text and, per character, its probability and "
                                 "entropy in bits, as JSON.");
    text += optionLine("--latency N", "Times sampling N characters (1 to " +
                                          std::to_string(kMaxSampleLength) +
                                          ") at --temperature instead of printing them.");
    return text;
}

}

std::string helpText()
{
    std::string text = R"(AttnScope: train neural sequence models (attention, word embeddings, ...) and look inside them.

Usage:
  attnscope                      open the desktop app (needs a display)
  attnscope train --out DIR [options]
  attnscope reverse [--model FILE] [--json] [--heatmap OUT.png] [--no-unk-replace]
                    [--beam K] [--alpha A] [--nbest N] "a sentence"
  attnscope evaluate [--model FILE] [--corpus FILE] [--examples N] [--batched]
  attnscope explain [--model FILE] [--sentences N] [--mode drop|unknown] [--json] ["a sentence"]
  attnscope compare --out DIR [--attention LIST] [--probe-max-len N] [--probe N] [--seeds N]
                    [train options]
  attnscope reproduce [--threads N] FILE.attnscope
  attnscope bench [--threads N] [--json OUT] [--quick] [--corpus FILE]
  attnscope word2vec --corpus FILE --out DIR [--analogies FILE] [--similarity FILE] [options]
  attnscope neighbours --vectors FILE [--top N] word ...
  attnscope analogy --vectors FILE [--top N] a b c
)" + std::string(kCharLmUsage) + R"(  attnscope --help
  attnscope --version

train writes DIR/model.ckpt (best epoch by validation loss), metrics.json, examples.txt,
attention_heatmap.png, analysis.md and project.attnscope: the run as the desktop app opens it
(settings, seed, corpus text, every epoch's losses, alignment and weights, the best model);
--no-embed-corpus keeps only the corpus file's path, size and checksum in it.

reproduce trains a project's run again with its settings and seed, on the run's own thread count
unless --threads N, and compares every epoch's losses and exact match and the best model's
weights with the stored ones. It reports bit-for-bit identity or the largest differences; exit 0
when identical or within the stated tolerance, 1 when not, 2 for a damaged or foreign file.

compare trains one model per attention variant in --attention LIST (comma-separated; default
bahdanau,luong-dot,luong-general,none,location) one after another, on the same data and seed,
and tests each on the test split and on probe sentences of every length from --min-len to
--probe-max-len (default 3 x --max-len, at most 100; --probe N sentences, default 2000, seed
--data-seed + 1). It writes DIR/comparison.json (per variant: test exact match and token
accuracy, exact match by probe length, epochs, seconds, parameters), DIR/comparison.png (exact
match by length, trained lengths shaded) and DIR/<variant>.ckpt. It takes the train options
except --corpus. --seeds N (1-10, default 1) trains each variant N times, its initial weights
seeded --seed, --seed + 1, ... (data, batch order and dropout unchanged), as
DIR/<variant>-seed<S>.ckpt; comparison.json then gives each run's model_seed and, under
"seed_spread", each variant's mean, min and max exact match on the test split, on the probe and
by probe length, and comparison.png draws the mean in a min-max band.

reverse, evaluate and explain use the model bundled into the program unless --model FILE is given.
reverse decodes greedily; --beam K (1-64) keeps the K best hypotheses per step instead, ranked
at the end by score = log P / length^A (--alpha A, 0-2, default 0.6: 0 favours short outputs, 1
is the mean log-probability per token), and --nbest N (1-K) lists the N best under the output
(--json: "nbest" and "beam_steps", the hypotheses kept at each step). The heatmap is the best's.

explain asks whether attention explains the output (Jain & Wallace 2019, Serrano & Smith 2019):
for each input word in turn it leaves the word out (--mode drop, the default) or replaces it by
<UNK> (--mode unknown), scores the model's own greedy output y again by teacher forcing, y as it
is (in drop mode y still holds the word the model can no longer read), and decodes the changed
input. Per word: the attention it received (summed over y's steps, and its peak), the fall of
log P(y), and the output without it. Per sentence: Spearman's rank correlation between attention
and the fall (undefined below 3 words or when one side is all equal). Without a sentence it takes
the first --sentences N (default 200) of the model's test split and prints the first ten and the
mean and median correlation and how often the output changed; --json prints every figure.

bench trains the default model and measures training samples/s (median over epochs after a
warm-up), wall time to 99% test exact match, greedy and beam-5 latency for one 10-word sentence,
the GUI's worst event-loop stall while the app trains (offscreen window, a sentence typed every
150 ms) and peak memory; --json OUT also writes the figures as JSON, --quick measures fewer epochs.
With --corpus FILE it trains the default model on that text instead (corpus defaults, pointer on)
and measures training samples/s, greedy and beam-5 latency for a test sentence of median length,
peak memory and the share of the parameters in the vocabulary's layers.

Dataset options (train):
)";
    text += optionLine("--words-file FILE", "Words for generated sentences, separated by white space (default: the "
                                            "34 reference words).");
    text += fieldLines(datasetConfigFields(), {{"data-seed", "--seed"}});
    text += "Model options:\n" + fieldLines(modelConfigFields());
    text += R"(      bahdanau scores with the decoder state before its GRU step; luong-dot and luong-general
      (s.h, s.W h) with the state after it, with Luong's attentional layer and input feeding;
      none gives the decoder only the encoder's final state (no heatmap, no <UNK> copying);
      location is bahdanau whose score also reads the previous step's weights, convolved
      (Chorowski et al. 2015).
)";
    text += "Training options:\n" + fieldLines(trainingConfigFields());
    text += R"(
word2vec trains skip-gram (or CBOW) with negative sampling on a text file, one sentence or
paragraph a line, read as lower-cased runs of a-z. It writes DIR/vectors.txt (the word2vec text
format, which gensim's KeyedVectors.load_word2vec_format reads), metrics.json (the settings, loss
and words/s per epoch, corpus counts, peak memory, and the evaluation: --analogies FILE in the
questions-words format, --similarity FILE of "word1 word2 score" lines, Spearman), pca.png (the
100 most frequent words on two principal components) and neighbours.txt (the 50 most frequent
words, each with its 10 nearest by cosine). neighbours and analogy query any such vectors file
(analogy: b - a + c, the three inputs excluded, as gensim's most_similar).

Corpus options (word2vec):
)";
    text += fieldLines(corpusFields());
    text += "Word2vec options:\n" + fieldLines(word2vecFields());
    return text + "\n" + charLmSection() + kExitCodes;
}

std::string charLmHelpText()
{
    return "Usage:\n" + std::string(kCharLmUsage) + "\n" + charLmSection() + kExitCodes;
}
