#include "app/attention/runoptions.h"

void addRunOptions(CommandLine &cl)
{
    addLabRunOptions(cl, modelConfigFields(), trainingConfigFields());
}

RunOptions readRunOptions(CommandLine &cl, const std::set<std::string> &skip)
{
    return readLabRunOptions(cl, modelConfigFields(), trainingConfigFields(), skip);
}
