#include "engine/attention/trainingconfig.h"

#include <cmath>
#include <sstream>

std::string validate(const TrainingConfig &c)
{
    std::ostringstream out;
    if (!(c.learningRate > 0 && std::isfinite(c.learningRate)))
        out << "learning rate must be a positive number (got " << c.learningRate << ")";
    else if (!(c.learningRateDecay > 0 && c.learningRateDecay <= 1))
        out << "learning-rate decay must be above 0 and at most 1 (got " << c.learningRateDecay << ")";
    else if (!(c.learningRateEpochDecay > 0 && c.learningRateEpochDecay <= 1))
        out << "learning-rate decay per epoch must be above 0 and at most 1 (got " << c.learningRateEpochDecay << ")";
    else if (c.batchSize < 1 || c.batchSize > 65536)
        out << "batch size must be between 1 and 65536 (got " << c.batchSize << ")";
    else if (c.epochs < 1 || c.epochs > 100000)
        out << "epochs must be between 1 and 100000 (got " << c.epochs << ")";
    else if (!(c.teacherForcing >= 0 && c.teacherForcing <= 1))
        out << "teacher forcing ratio must be between 0 and 1 (got " << c.teacherForcing << ")";
    else if (!(c.clipNorm >= 0 && std::isfinite(c.clipNorm)))
        out << "clip norm must be 0 (off) or positive (got " << c.clipNorm << ")";
    else if (!(c.weightDecay >= 0 && std::isfinite(c.weightDecay)))
        out << "weight decay cannot be negative (got " << c.weightDecay << ")";
    else if (!(c.unknownWordRate >= 0 && c.unknownWordRate < 1))
        out << "unknown-word rate must be at least 0 and below 1 (got " << c.unknownWordRate << ")";
    else if (c.patience < 0)
        out << "patience cannot be negative (got " << c.patience << ")";
    else if (c.threads < 0 || c.threads > 1024)
        out << "threads must be 0 (all cores) or a positive count (got " << c.threads << ")";
    return out.str();
}
