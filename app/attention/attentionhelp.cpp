#include "app/attention/attentionhelp.h"

#include "app/core/datasetoptions.h"
#include "app/core/helpformat.h"
#include "engine/attention/modelconfig.h"
#include "engine/attention/trainingconfig.h"

namespace {

// The options of train and compare: every field of the three configurations.
std::string runOptions()
{
    std::string text = "Dataset options:\n";
    text += optionLine("--out DIR", "Where the results go (required); made if it does not exist.");
    text += datasetOptionLines();
    text += "Model options:\n" + fieldLines(modelConfigFields());
    text += R"(      bahdanau scores with the decoder state before its recurrent step; luong-dot and luong-general
      (s.h, s.W h) with the state after it, with Luong's attentional layer and input feeding;
      none gives the decoder only the encoder's final state (no heatmap, no <UNK> copying);
      location is bahdanau whose score also reads the previous step's weights, convolved
      (Chorowski et al. 2015); scaled-dot is luong-dot with the score divided by sqrt(hidden),
      as the Transformer scales it; bahdanau-after scores as bahdanau with the state after the
      recurrent step, which reads the word alone, and predicts from [s; c] (the course's digits exercise).
)";
    text += "Training options:\n" + fieldLines(trainingConfigFields());
    return text;
}

constexpr const char *kBundledModel =
    "\nWithout --model FILE it uses the model bundled into the program.\n";

}

std::string trainHelp()
{
    return std::string(R"(Usage: attnscope train --out DIR [options]

Trains the attention lab's model (a GRU, RNN or LSTM encoder and decoder with attention) to reverse (or copy)
sentences, generated from a word list or read from a corpus file (--corpus), and writes
DIR/model.ckpt (best epoch by validation loss), metrics.json (settings, settings in effect, every
epoch, the test split's scores, peak memory), examples.txt, attention_heatmap.png, analysis.md and
project.attnscope: the run as the desktop app opens it (settings, seed, corpus text, every epoch's
losses, alignment and weights, the best model); --no-embed-corpus keeps only the corpus file's
path, size and checksum in it. Ctrl+C stops after the current batch and writes what was trained.

)") + runOptions() +
           optionLine("--no-embed-corpus", "Keep only the corpus file's path, size and checksum in the project.") +
           kExitCodes;
}

std::string compareHelp()
{
    return std::string(R"(Usage: attnscope compare --out DIR [--attention LIST] [--probe-max-len N] [--probe N]
                         [--seeds N] [train options]

Trains one model per attention variant in --attention LIST (comma-separated; default
bahdanau,luong-dot,luong-general,none,location,scaled-dot,bahdanau-after) one after another, on the same data and seed,
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

Compare options:
)") + optionLine("--attention LIST", "The variants to train, comma-separated.") +
           optionLine("--probe-max-len N", "The longest probe sentences (default 3 x --max-len, at most 100).") +
           optionLine("--probe N", "Probe sentences (default 2000).") +
           optionLine("--seeds N", "Runs per variant, each with its own initial weights (1 to 10, default 1).") +
           runOptions() + kExitCodes;
}

std::string reverseHelp()
{
    return std::string(R"(Usage: attnscope reverse [--model FILE] [--json] [--heatmap OUT.png] [--no-unk-replace]
                         [--beam K] [--alpha A] [--nbest N] "a sentence"

Decodes the sentence greedily and prints the output; --heatmap writes the attention heatmap as an
image, --json prints the tokens, the output and every attention weight. --beam K (1-64) keeps the
K best hypotheses per step instead, ranked at the end by score = log P / length^A (--alpha A, 0-2,
default 0.6: 0 favours short outputs, 1 is the mean log-probability per token), and --nbest N (1-K)
lists the N best under the output (--json: "nbest" and "beam_steps", the hypotheses kept at each
step). The heatmap is the best's. An unknown word comes out as <UNK> replaced by the source word
the model attends to most, unless --no-unk-replace.
)") + kBundledModel +
           kExitCodes;
}

std::string evaluateHelp()
{
    return std::string(R"(Usage: attnscope evaluate [--model FILE] [--corpus FILE] [--examples N] [--batched]
       attnscope evaluate [--model FILE] [--corpus FILE] [--examples N] (--beam K [--alpha A] | --beams)
                          [--json]

Scores the model on its test split, made again from the settings the model was trained with:
exact match, token accuracy, exact match by length and on sentences with unknown words, and the
first --examples N (default 10) sentences. --corpus FILE scores every sentence of FILE instead, read
with those settings. --batched decodes in batches instead of one sentence at a time (the same
answers, faster).

--beam K (1-64) sets greedy decoding beside beam search of width K, whose hypotheses are ranked by
log P(y) / |y|^A with --alpha A (0-2, default 0.6); --beams sets greedy beside widths 2, 5 and 10,
each with alpha 0, 0.6 and 1. Per setting: exact match, the mean log P(y) of its outputs, their mean
length and how many differ from greedy's; then the first --examples N sentences where they differ.
--json prints every figure and every such sentence.
)") + kBundledModel +
           kExitCodes;
}

std::string explainHelp()
{
    return std::string(R"(Usage: attnscope explain [--model FILE] [--sentences N] [--mode drop|unknown] [--json]
                         ["a sentence"]
       attnscope explain [--model FILE] --method METHOD [--steps M] [--baseline zero|unknown]
                         [--mode drop|unknown] [--json|--csv] "a sentence"
       attnscope explain [--model FILE] --faithfulness [--method METHOD] [--sentences N]
                         [--steps M] [--baseline zero|unknown] [--mode drop|unknown] [--json|--csv]

Asks whether attention explains the output (Jain & Wallace 2019, Serrano & Smith 2019): for each
input word in turn it leaves the word out (--mode drop, the default) or replaces it by <UNK>
(--mode unknown), scores the model's own greedy output y again by teacher forcing, y as it is (in
drop mode y still holds the word the model can no longer read), and decodes the changed input.
Per word: the attention it received (summed over y's steps, and its peak), the fall of log P(y),
and the output without it. Per sentence: Spearman's rank correlation between attention and the
fall (undefined below 3 words or when one side is all equal). Without a sentence it takes the
first --sentences N (default 200) of the model's test split and prints the first ten and the mean
and median correlation and how often the output changed; --json prints every figure.

--method explains each output step y_t of the sentence, log P(y_t), by methods that do not all
read attention: attention (its weights), saliency (the norm of the gradient over the word's
embedding), inputxgrad (embedding times gradient), ig (integrated gradients from a --baseline of
zero vectors or the <UNK> embedding in --steps M steps, 1-1024, default 64, with its completeness
gap) and occlusion (the fall when the word is taken out as --mode says), or all. It prints a table
of output step x source word per method and each step's log P, entropy, margin to the runner-up
and the runner-up; --json gives the same figures, --csv one row per method, step and word.

--faithfulness measures the methods (--method, default all) on the first --sentences N of the
test split: their agreement (Spearman's rho per output step, mean), how often each one's top word
is the word the task says the output comes from, and, per k = 10% to 50%, comprehensiveness (the
fall in P(y_t) when the top k of the words are left out) and sufficiency (the fall when only
they are kept), beside a random ranking (DeYoung et al. 2020); as tables, --json or --csv.
)") + kBundledModel +
           kExitCodes;
}

std::string reproduceHelp()
{
    return std::string(R"(Usage: attnscope reproduce [--threads N] FILE.attnscope

Trains a project's run again with its settings and seed, on the run's own thread count unless
--threads N, and compares every epoch's losses and exact match and the best model's weights with
the stored ones. It reports bit-for-bit identity or the largest differences; exit 0 when identical
or within the stated tolerance, 1 when not, 2 for a damaged or foreign file.
)") + kExitCodes;
}

std::string benchHelp()
{
    return std::string(R"(Usage: attnscope bench [--threads N] [--json OUT] [--quick] [--corpus FILE | --load | --startup]

Trains the default model and measures training samples/s (median over epochs after a warm-up),
wall time to 99% test exact match, greedy and beam-5 latency for one 10-word sentence, the GUI's
worst event-loop stall while the app trains (offscreen window, a sentence typed every 150 ms) and
peak memory; --json OUT also writes the figures as JSON, --quick measures fewer epochs. With
--corpus FILE it trains the default model on that text instead (corpus defaults, pointer on) and
measures training samples/s, greedy and beam-5 latency for a test sentence of median length, peak
memory and the share of the parameters in the vocabulary's layers. With --load it trains every
lab that trains on its own defaults in the app (offscreen, as Train does; at most 20 s a run, 10
with --quick; --threads does not apply) next to 0, 1 and 2 busy processes started in this session,
three rounds (one with --quick), and reports each lab's training rate, its share of the quiet rate
and the GUI's worst stall. With --startup it launches the app seven times (three with --quick),
each quitting once its window has painted its first frame, and reports the time from exec to that
frame.
)") + kExitCodes;
}
