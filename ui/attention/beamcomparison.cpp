#include "ui/attention/beamcomparison.h"

#include "engine/core/dataset.h"

#include <QCoreApplication>

#include <exception>

LabJob beamComparisonJob(const ModelSnapshot &model)
{
    return [model](JobContext &context) {
        BeamCompared compared;
        try {
            const Dataset data = Dataset::build(model->datasetConfig);
            const std::atomic<bool> &stop = *context.stopFlag();
            // A report every few sentences: the whole split takes seconds.
            compared.evaluation =
                evaluateBeams(*model, data.test, courseBeamSettings(), [&](int done, int total) {
                    if (done % 25 == 0 || done == total)
                        context.report(BeamProgress{done, total});
                    return !stop && !context.cancelled();
                });
        } catch (const std::exception &error) {
            compared.problem = QCoreApplication::translate("BeamComparison", "Cannot compare the decodings: %1")
                                   .arg(QString::fromStdString(error.what()));
        }
        if (!context.cancelled())
            context.report(compared);
    };
}
