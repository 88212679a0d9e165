// attnscope explain --architecture transformer: which source words each output word came from, by
// attention, rollout, gradients and occlusion (engine/transformer/transformerattribution).
#include "app/transformer/transformercommands.h"

#include "app/core/attributionarguments.h"
#include "app/core/attributionreport.h"
#include "app/core/commandline.h"
#include "app/transformer/transformercommandmodel.h"
#include "app/transformer/transformerrunoptions.h"
#include "engine/core/tokenizer.h"
#include "engine/transformer/transformerattribution.h"

#include <iostream>
#include <stdexcept>

int runTransformerExplain(const std::vector<std::string> &arguments)
{
    CommandLine cl(arguments, {"model", "mode", "method", "steps", "baseline"}, {"json", "csv", "faithfulness"});
    RemovalMode mode = RemovalMode::Drop;
    if (cl.has("mode") && !parseRemovalMode(cl.text("mode"), &mode))
        cl.fail("--mode must be drop or unknown, got '" + cl.text("mode") + "'");
    const AttributionOptions options = readAttributionOptions(cl, mode, transformerAttributionMethods());
    if (cl.flag("faithfulness"))
        cl.fail("--faithfulness measures RNN models over their test split; a Transformer is explained one sentence "
                "at a time");
    if (cl.flag("csv") && cl.flag("json"))
        cl.fail("give --json or --csv, not both");
    if (cl.positional().size() != 1)
        cl.fail("give exactly one sentence (quote it): attnscope explain --architecture transformer --model FILE "
                "\"the cat sat\"");
    else if (tokenize(cl.positional().front()).size() < 2)
        cl.fail("the sentence needs at least two words: removing the only word leaves nothing to read");
    else if (!cl.has("model"))
        cl.fail("--model FILE is required: no Transformer is bundled (train one with attnscope train --architecture "
                "transformer --out DIR)");
    if (!cl.ok())
        return usageError("explain --architecture transformer", cl.error());
    try {
        const TransformerCheckpoint checkpoint = checkpointToUse(cl);
        const TransformerModel &model = checkpoint.model;
        std::vector<std::string> words = tokenize(cl.positional().front(), checkpoint.dataset.lowercase);
        const int longest = longestSentence(model.config());
        if (int(words.size()) > longest) {
            words.resize(std::size_t(longest));
            std::cerr << "note: the input was cut to its first " << longest << " tokens (the model's positions reach "
                      << model.config().maxPositions << ")\n";
        }
        const TransformerAttribution explained = attributeTransformer(model, words, options);
        if (cl.flag("json"))
            std::cout << runfiles::attributionJson(explained, options).toStdString();
        else if (cl.flag("csv"))
            std::cout << runfiles::attributionCsv(explained).toStdString();
        else
            printAttribution(explained, options,
                             "the last decoder layer's attention over the source, the mean of its heads");
    } catch (const TransformerCheckpointError &e) {
        return failure(e.what());
    } catch (const std::invalid_argument &e) {
        return failure(e.what());
    }
    return 0;
}
