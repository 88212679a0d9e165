#include "app/core/comparedata.h"

#include "app/core/commandline.h"
#include "app/core/runfolder.h"
#include "engine/core/corpusdefaults.h"

#include <cstdio>
#include <string>

void checkCompareData(CommandLine &cl, const DatasetConfig &config, int probeMaxLength)
{
    const int maxLength = generatedMaxLength(config);
    if (!config.corpusPath.empty())
        cl.fail("compare generates its sentences, so that it can probe any length; --corpus is not supported");
    else if (cl.ok() && probeMaxLength < maxLength)
        cl.fail("--probe-max-len " + std::to_string(probeMaxLength) + " is below --max-len " +
                std::to_string(maxLength) + "; the probe covers the trained lengths and beyond");
}

std::optional<CompareData> prepareCompareData(const DatasetConfig &config, int probeMaxLength, int probeCount,
                                              RunFolder &folder)
{
    CompareData prepared;
    try {
        prepared.data = Dataset::build(config);
        prepared.probe = probeSet(config, probeMaxLength, probeCount);
    } catch (const DatasetError &e) {
        failure(e.what());
        return std::nullopt;
    }
    if (std::string problem; !folder.create(&problem)) {
        failure(problem);
        return std::nullopt;
    }
    std::printf("task %s | %zu train / %zu val / %zu test sentences, lengths %d-%d | probe %zu sentences, lengths "
                "%d-%d\n",
                taskName(config.task), prepared.data.train.size(), prepared.data.val.size(),
                prepared.data.test.size(), config.minLength, generatedMaxLength(config), prepared.probe.size(),
                config.minLength, probeMaxLength);
    return prepared;
}
