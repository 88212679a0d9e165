#include "app/transformer/transformerhelp.h"

#include "app/core/datasetoptions.h"
#include "app/core/helpformat.h"
#include "engine/transformer/transformerconfig.h"
#include "engine/transformer/transformertrainingconfig.h"

namespace {

// The options of train and compare: every field of the three configurations.
std::string runOptions()
{
    std::string text = "Dataset options:\n";
    text += optionLine("--out DIR", "Where the results go (required); made if it does not exist.");
    text += datasetOptionLines();
    text += "Model options:\n" + fieldLines(transformerConfigFields());
    text += R"(      --max-positions must reach the longest sentence plus two (greedy decoding's steps). Learned
      positions are trained only up to the longest training sentence; those beyond keep their random
      initial vectors, so a learned model is expected to fail on longer sentences.
)";
    text += "Training options:\n" + fieldLines(transformerTrainingConfigFields());
    return text;
}

}  // namespace

std::string transformerTrainHelp()
{
    return std::string(R"(Usage: attnscope train --architecture transformer --out DIR [options]

Trains the Transformer lab's encoder-decoder Transformer to reverse (or copy) sentences, generated
from a word list or read from a corpus file (--corpus): teacher forcing, Adam after a linear warm-up,
the weights of the epoch with the lowest validation loss kept. It prints every epoch's losses and
validation exact match, then the test split's scores, and writes DIR/model.ckpt (the Transformer
checkpoint, which the other commands --architecture transformer and the lab open), metrics.json
(settings, settings in effect, every epoch, the test split's scores, peak memory), loss_curve.csv
(every batch's training loss) and examples.txt (every test sentence decoded). Ctrl+C stops after the
current batch and writes what was trained.

)") + runOptions() +
           kExitCodes;
}

std::string transformerReverseHelp()
{
    return std::string(R"(Usage: attnscope reverse --architecture transformer --model FILE [--json]
                         [--beam K] [--alpha A] [--nbest N] "a sentence"

Decodes the sentence greedily (or with a beam of K, each hypothesis with its own key/value cache)
with a Transformer checkpoint (attnscope train --architecture
transformer writes one) and prints the output. --json prints the RNN's keys: the tokens, the output
and "attention" (output x source: the last decoder layer's cross-attention, the mean of its heads);
then every layer's and head's weights as [layer][head][row][column]: "encoder_self_attention"
(source x source), "decoder_self_attention" (output step x "decoder_input_tokens", <SOS> and the
outputs before the step) and "cross_attention" (output x source). A word outside the model's
vocabulary is read as <UNK>. A sentence longer than the model's positions reach (--max-positions
less 2) is cut to fit, with a note.

)") + optionLine("--model FILE", "The Transformer checkpoint (required: no Transformer is bundled).") +
           optionLine("--json", "Print the output and every attention weight as JSON; with a beam, also \"beam\", "
                                "\"nbest\" and \"beam_steps\" as the RNN's reverse does.") +
           optionLine("--beam K", "Keep the K best hypotheses at each step (1-64; default 1: greedy).") +
           optionLine("--alpha A", "Length normalisation: score = log P / length^A (0-2; default 0.6).") +
           optionLine("--nbest N", "Print the N best hypotheses (at most K; default 1).") + kExitCodes;
}

std::string transformerEvaluateHelp()
{
    return std::string(R"(Usage: attnscope evaluate --architecture transformer --model FILE [--corpus FILE] [--examples N]
                          [--probe-max-len N] [--probe N] [--json]

Scores a Transformer checkpoint on its test split, made again from the settings it was trained
with, decoding greedily in padded batches: exact match, token accuracy, exact match by length, and
the first --examples N (default 10) sentences. --corpus FILE scores every sentence of FILE instead,
read with those settings. --probe-max-len N also scores --probe N (default 2000) sentences of every
length from the trained minimum to N words, generated from the model's words (its vocabulary
unchanged, seeded with the data seed + 1), to show how it does past the lengths it was trained on;
--probe N alone goes to 3 x the trained maximum. N may not exceed what the model's positions reach
(--max-positions less 2), and learned positions past the longest training sentence were never
trained. A model trained on a corpus has no word list to generate from: its probe is refused.
--json prints the figures as JSON: "test" and "probe" with the keys of the RNN's metrics.json.

)") + optionLine("--model FILE", "The Transformer checkpoint (required).") +
           optionLine("--corpus FILE", "Score every sentence of FILE instead of the test split.") +
           optionLine("--examples N", "Decoded sentences shown (default 10).") +
           optionLine("--probe-max-len N", "Also score generated sentences up to N words.") +
           optionLine("--probe N", "Probe sentences (default 2000).") +
           optionLine("--json", "Print the scores as JSON instead of text.") + kExitCodes;
}

std::string transformerCompareHelp()
{
    return std::string(R"(Usage: attnscope compare --architecture transformer --out DIR [--positions LIST] [--probe-max-len N]
                         [--probe N] [--seeds N] [train options]

Trains one Transformer per position encoding in --positions LIST (comma-separated; default
sinusoidal,learned) one after another, on the same data and seed, scoring the test split after
every epoch, and at the end tests each on the test split and on probe sentences of every length
from --min-len to --probe-max-len (default 3 x --max-len, at most what --max-positions reaches less
2; --probe N of them, default 2000, generated from the same words, seeded --data-seed + 1). It
prints a table and writes DIR/comparison.json (per run, with the RNN compare's keys: test exact
match and token accuracy, exact match by probe length, epochs, seconds, parameters; and with the
bench's: "train_samples_per_s", the median of the epochs after the first, and "time_to_acc", the
wall time from the start until the test exact match first reached 99%), DIR/comparison.png (exact
match by probe length, a line per position encoding) and DIR/<positions>.ckpt.
Learned positions past the longest training sentence are never trained: a learned model is expected
to fail there, and the table shows it. It takes the train options except --corpus. --seeds N (1-10,
default 1) trains each variant N times, its initial weights seeded --seed, --seed + 1, ... (data,
batch order and dropout unchanged), as DIR/<positions>-seed<S>.ckpt; comparison.json then gives
each run's model_seed and, under "seed_spread", each variant's mean, min and max exact match.

Compare options:
)") + optionLine("--positions LIST", "The position encodings to train, comma-separated.") +
           optionLine("--probe-max-len N", "The longest probe sentences (default 3 x --max-len).") +
           optionLine("--probe N", "Probe sentences (default 2000).") +
           optionLine("--seeds N", "Runs per variant, each with its own initial weights (1 to 10, default 1).") +
           runOptions() + kExitCodes;
}

std::string transformerExplainHelp()
{
    return std::string(R"(Usage: attnscope explain --architecture transformer --model FILE [--method METHOD] [--steps M]
                         [--baseline zero|unknown] [--mode drop|unknown] [--json|--csv] "a sentence"
       attnscope explain --architecture transformer --model FILE --faithfulness [--method METHOD]
                         [--sentences N] [--steps M] [--baseline zero|unknown] [--mode drop|unknown]
                         [--json|--csv]

Decodes the sentence greedily with a Transformer checkpoint and explains each output step y_t,
log P(y_t), over the source words, by methods that do not all read attention: attention (the last
decoder layer's cross-attention, the mean of its heads), rollout (attention followed through every
layer of both stacks, each layer mixed half and half with its residual; Abnar & Zuidema 2020),
saliency (the norm of the gradient over the word's embedding), inputxgrad (embedding times
gradient), ig (integrated gradients from a --baseline of zero vectors or the <UNK> embedding in
--steps M steps, 1-1024, default 64, with its completeness gap) and occlusion (the fall when the
word is taken out as --mode says: left out, the default, or replaced by <UNK>), or all (the
default). It prints each step's log P, entropy, margin to the runner-up and the runner-up, then a
table of output step x source word per method; --json gives the same figures with the RNN's keys,
--csv one row per method, step and word. A sentence longer than the model's positions reach is cut
to fit, with a note.

--faithfulness measures the methods (--method, default all, rollout included) on the first
--sentences N (default 200) of the checkpoint's test split, as the RNN's explain does: their
agreement (Spearman's rho per output step, mean), how often each one's top word is the word the
task says the output comes from, and, per k = 10% to 50%, comprehensiveness (the fall in P(y_t)
when the top k of the words are left out) and sufficiency (the fall when only they are kept),
beside a random ranking (DeYoung et al. 2020); as tables, --json or --csv.

)") + optionLine("--model FILE", "The Transformer checkpoint (required: no Transformer is bundled).") +
           optionLine("--method METHOD", "attention, rollout, saliency, inputxgrad, ig, occlusion or all (default).") +
           optionLine("--steps M", "Integrated gradients' steps (1-1024; default 64).") +
           optionLine("--baseline B", "Integrated gradients' starting point: zero (default) or unknown.") +
           optionLine("--mode M", "How occlusion takes a word out: drop (default) or unknown.") +
           optionLine("--faithfulness", "Measure agreement and faithfulness over the test split.") +
           optionLine("--sentences N", "With --faithfulness: the test sentences used (default 200).") +
           optionLine("--json", "Print every figure as JSON.") +
           optionLine("--csv", "Print method,step,output,position,word,score rows (with --faithfulness, "
                               "measure,method,against,k,value).") + kExitCodes;
}
