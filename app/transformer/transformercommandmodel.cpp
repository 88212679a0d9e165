#include "app/transformer/transformercommandmodel.h"

#include "app/core/commandline.h"
#include "app/workbench/otherlabfile.h"

TransformerCheckpoint checkpointToUse(const CommandLine &cl)
{
    const std::string path = cl.text("model");
    try {
        return loadTransformerCheckpoint(path);
    } catch (const TransformerCheckpointError &) {
        const std::string other = otherLabsFile(path, "transformer", "a Transformer checkpoint");
        if (!other.empty())
            throw TransformerCheckpointError("cannot load '" + path + "': " + other);
        throw;
    }
}
