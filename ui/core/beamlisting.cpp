#include "ui/core/beamlisting.h"

#include <QStringList>

#include <algorithm>

std::vector<std::vector<BeamListing::Kept>> keptSteps(const std::vector<BeamStep> &steps,
                                                      const std::vector<int> &winner,
                                                      const std::function<std::string(int)> &word)
{
    std::vector<std::vector<BeamListing::Kept>> listed;
    for (const BeamStep &step : steps) {
        std::vector<BeamListing::Kept> kept;
        for (const BeamStepEntry &entry : step.kept) {
            QStringList words;
            for (int id : entry.tokens)
                words << QString::fromStdString(word(id));
            const bool onPath = entry.tokens.size() <= winner.size()
                                && std::equal(entry.tokens.begin(), entry.tokens.end(), winner.begin());
            kept.push_back({words.join(QLatin1Char(' ')), entry.score, entry.finished, onPath});
        }
        listed.push_back(std::move(kept));
    }
    return listed;
}
