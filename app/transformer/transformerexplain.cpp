// attnscope explain --architecture transformer: which source words each output word came from, by
// attention, rollout, gradients and occlusion (engine/transformer/transformerattribution), and with
// --faithfulness how far those methods agree and how faithful they are over the test split
// (engine/transformer/transformerfaithfulness).
#include "app/transformer/transformercommands.h"

#include "app/core/attributionarguments.h"
#include "app/core/attributionreport.h"
#include "app/core/commandline.h"
#include "app/core/faithfulnesstables.h"
#include "app/transformer/transformercommandmodel.h"
#include "app/transformer/transformerrunoptions.h"
#include "engine/core/dataset.h"
#include "engine/core/tokenizer.h"
#include "engine/transformer/transformerattribution.h"
#include "engine/transformer/transformerfaithfulness.h"

#include <algorithm>
#include <iostream>
#include <stdexcept>

namespace {

constexpr int kDefaultFaithfulnessSentences = 200;
constexpr int kMaxFaithfulnessSentences = 100000;

// The first `count` sentences of the checkpoint's test split, with a note when there are fewer.
std::vector<SentencePair> testSentences(const TransformerCheckpoint &checkpoint, int count)
{
    std::vector<SentencePair> test = Dataset::build(checkpoint.dataset).test;
    if (int(test.size()) < count)
        std::cerr << "note: the test split has " << test.size() << " sentences; all are used\n";
    test.resize(std::min(test.size(), std::size_t(count)));
    return test;
}

}

int runTransformerExplain(const std::vector<std::string> &arguments)
{
    CommandLine cl(arguments, {"model", "mode", "method", "steps", "baseline", "sentences"},
                   {"json", "csv", "faithfulness"});
    RemovalMode mode = RemovalMode::Drop;
    if (cl.has("mode") && !parseRemovalMode(cl.text("mode"), &mode))
        cl.fail("--mode must be drop or unknown, got '" + cl.text("mode") + "'");
    const AttributionOptions options = readAttributionOptions(cl, mode, transformerAttributionMethods());
    const bool faithfulness = cl.flag("faithfulness");
    const int count = cl.integer("sentences", kDefaultFaithfulnessSentences, 1, kMaxFaithfulnessSentences);
    if (cl.flag("csv") && cl.flag("json"))
        cl.fail("give --json or --csv, not both");
    if (faithfulness && !cl.positional().empty())
        cl.fail("--faithfulness measures the model's test split; it does not go with a sentence of your own");
    else if (!faithfulness && cl.has("sentences"))
        cl.fail("--sentences goes with --faithfulness: one sentence is explained as given");
    else if (!faithfulness && cl.positional().size() != 1)
        cl.fail("give exactly one sentence (quote it): attnscope explain --architecture transformer --model FILE "
                "\"the cat sat\", or --faithfulness to measure the test split");
    else if (!faithfulness && tokenize(cl.positional().front()).size() < 2)
        cl.fail("the sentence needs at least two words: removing the only word leaves nothing to read");
    else if (!cl.has("model"))
        cl.fail("--model FILE is required: no Transformer is bundled (train one with attnscope train --architecture "
                "transformer --out DIR)");
    if (!cl.ok())
        return usageError("explain --architecture transformer", cl.error());
    try {
        const TransformerCheckpoint checkpoint = checkpointToUse(cl);
        const TransformerModel &model = checkpoint.model;
        if (faithfulness) {
            const FaithfulnessReport report =
                measureTransformerFaithfulness(model, testSentences(checkpoint, count), model.task(), options);
            writeFaithfulness(report, options, cl.flag("json"), cl.flag("csv"));
            return 0;
        }
        std::vector<std::string> words = tokenize(cl.positional().front(), checkpoint.dataset.lowercase);
        const int longest = longestSentence(model.config());
        if (int(words.size()) > longest) {
            words.resize(std::size_t(longest));
            std::cerr << "note: the input was cut to its first " << longest << " tokens (the model's positions reach "
                      << model.config().maxPositions << ")\n";
        }
        const TransformerAttribution explained = attributeTransformer(model, words, options);
        writeAttribution(explained, options, "the last decoder layer's attention over the source, the mean of its heads",
                         cl.flag("json"), cl.flag("csv"));
    } catch (const TransformerCheckpointError &e) {
        return failure(e.what());
    } catch (const DatasetError &e) {
        return failure(e.what());
    } catch (const std::invalid_argument &e) {
        return failure(e.what());
    }
    return 0;
}
