#pragma once

#include "engine/attention/alignmentscore.h"
#include "engine/attention/evaluation.h"
#include "engine/attention/modelconfig.h"
#include "engine/attention/trainingconfig.h"
#include "engine/attention/weighthistory.h"
#include "engine/core/datasetconfig.h"
#include "engine/core/epochstats.h"
#include "engine/core/signedfile.h"

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

class Seq2SeqModel;

struct ProjectError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// One run of the Experiments page, as its curves and scores show it.
struct ExperimentRecord {
    std::string label;
    ModelConfig model;
    std::uint64_t seed = 0;
    std::vector<EpochStats> history;
    double testExactMatch = 0;                    // 0..1
    std::map<int, LengthAccuracy> probeByLength;  // exact match on the probe sentences by length
};

// A corpus file as a run read it: its text when embedded, its CRC-32 and size always, so that a
// file that changed since is noticed.
struct CorpusCopy {
    bool embedded = false;
    std::string text;
    std::uint32_t crc = 0;
    std::uint64_t bytes = 0;
};

// Everything a training run and the window that shows it need to come back as they were: the
// settings and seed, the corpus, the best model (whose history holds every epoch), each epoch's
// weights and alignment, the Experiments runs, and the sentence and heatmap cell on screen.
struct AttentionProject {
    DatasetConfig dataset;
    ModelConfig model;
    TrainingConfig training;
    int threadsUsed = 1;  // training.threads resolved (trainingThreads()): the threads the run had

    CorpusCopy corpus;    // with a corpus dataset (dataset.corpusPath set)

    std::shared_ptr<const Seq2SeqModel> best;  // required; its history is the run's, every epoch
    WeightHistory weights;                     // per-epoch copies; may be empty
    std::vector<EpochAlignment> alignment;     // per epoch; empty for a model without attention
    std::vector<ExperimentRecord> experiments;  // in run order
    int experimentSeeds = 1;                    // runs in a row per configuration, 1..kMaxExperimentSeeds

    std::string sentence;   // typed in the Reverse page
    int selectedRow = -1;   // the heatmap's selected cell; -1: none
    int selectedColumn = -1;
};

// The project file: signedfile's frame (signature, format version, CRC-32, length), then the payload. The
// settings are written through their field tables (engine/core/configrecord.h) so that every field
// is kept; the best model as a checkpoint (checkpointformat) and the weights as
// WeightHistory::encode() inside it. Format 2 is format 1 with a checkpoint of format 4 inside: its
// version tells older builds that the project is newer, where they would call its model damaged.
namespace projectfile {
inline constexpr signedfile::Signature kSignature = {'A', 'T', 'N', 'S', 'P', 'R', 'O', 'J'};
constexpr unsigned kVersion = 2;
constexpr const char *kSuffix = "attnscope";
constexpr int kMaxExperimentSeeds = 10;

// Throws std::invalid_argument without a best model.
std::string encode(const AttentionProject &project);
// Throws ProjectError saying what is wrong (damage, truncation, a checkpoint or other file, a newer
// version); builds nothing until the whole file checks out.
AttentionProject decode(const std::string &bytes);

// Whether the file at `path` starts with the project signature (damaged or not).
bool isProjectFile(const std::string &path);

// Atomic write (engine/core/atomicfile); ProjectError when the file cannot be written or read.
void save(const AttentionProject &project, const std::string &path);
AttentionProject load(const std::string &path);

// The file at `path` now, with its text when `embed`. Throws ProjectError when it cannot be read.
CorpusCopy copyCorpus(const std::string &path, bool embed);
// Empty when the project's corpus file is as it was saved (or the dataset is generated);
// otherwise what differs: missing, or changed since (size or checksum).
std::string corpusFileProblem(const AttentionProject &project);
}
