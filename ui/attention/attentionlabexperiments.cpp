// AttentionLab's Experiments page: configurations trained in turn on the same data, each run's
// best model kept for the Compare page, each finished run side by side with other labs' runs; and
// other labs' models for the Compare page.
#include "ui/attention/attentionlab.h"

#include "engine/core/corpusdefaults.h"
#include "engine/core/runfigures.h"
#include "ui/attention/attentionjobs.h"
#include "ui/attention/compareview.h"
#include "ui/attention/datasetpanel.h"
#include "ui/attention/experimentspanel.h"
#include "ui/attention/trainingpanel.h"
#include "ui/workbench/runcomparisonview.h"
#include "ui/workbench/sharedrun.h"
#include "ui/workbench/workbench.h"

void AttentionLab::runExperiments(const QVector<ModelConfig> &configs, int probeMaxLength, int seeds)
{
    const DatasetConfig dataset = m_datasetPanel->config();
    QString problem =
        runState()->phase() != RunState::Phase::Idle ? tr("wait until the current work ends") : trainProblem();
    if (problem.isEmpty() && !dataset.corpusPath.empty())
        problem = tr("experiments generate their sentences so they can probe any length; choose the synthetic dataset");
    if (!problem.isEmpty()) {
        m_experiments->queueFinished(tr("Cannot run: %1.").arg(problem));
        return;
    }
    m_experiments->setTrainedRange(dataset.minLength, generatedMaxLength(dataset));
    m_experimentData = dataset;
    const TrainingConfig training = m_trainingPanel->trainingConfig();
    const std::vector<ExperimentRun> runs =
        experimentRuns(std::vector<ModelConfig>(configs.begin(), configs.end()), training.seed, seeds);
    m_experimentRuns = QVector<ExperimentRun>(runs.begin(), runs.end());
    m_compare->clearExperimentModels();
    emit statusMessage(tr("Comparing %n configuration(s)…", nullptr, int(configs.size())));
    submit(attentionExperimentsJob(dataset, training, m_experimentRuns, probeMaxLength), RunState::Phase::Comparing);
}

void AttentionLab::startExperiment(const ExperimentStarted &started)
{
    m_experiments->runStarted(started.index, started.seed);
}

void AttentionLab::addExperimentEpoch(const ExperimentEpoch &epoch)
{
    m_experiments->addEpoch(epoch.index, epoch.stats);
}

void AttentionLab::finishExperiment(const ExperimentFinished &finished)
{
    m_experiments->runFinished(finished.index, finished.testExactMatch, finished.probe);
    addExperimentModel(finished);
    shareExperiment(finished);
}

void AttentionLab::shareExperiment(const ExperimentFinished &finished)
{
    const std::vector<ExperimentRecord> &records = m_experiments->records();
    if (!finished.best || finished.index < 0 || finished.index >= m_experimentRuns.size() ||
        std::size_t(finished.index) >= records.size())
        return;
    const std::vector<EpochStats> &history = records[std::size_t(finished.index)].history;
    SharedRun run;
    run.architecture = tr("RNN");
    run.label = ExperimentsPanel::labelOf(m_experimentRuns[finished.index].model);
    run.data = QString::fromStdString(describeData(m_experimentData));
    run.seed = m_experimentRuns[finished.index].modelSeed;
    run.testExactMatch = finished.testExactMatch;
    run.byLength = finished.probe.byLength;
    run.trainedMinLength = m_experimentData.minLength;
    run.trainedMaxLength = generatedMaxLength(m_experimentData);
    run.secondsTo99 = trainingSecondsToExactMatch(history, 0.99);
    run.parameters = finished.best->parameterCount();
    run.samplesPerSecond = medianSamplesPerSecond(history);
    m_experiments->comparison()->addRun(run);
    workbench()->shareRun(this, run);
    updateActions();
}

void AttentionLab::takeRun(const SharedRun &run)
{
    // Not kept in the project: the run is the other lab's, and that lab keeps its own model.
    m_experiments->comparison()->addRun(run);
    updateActions();
}

void AttentionLab::takeDecoder(const SharedDecoder &decoder)
{
    m_compare->setDecoder(decoder);
}

void AttentionLab::addExperimentModel(const ExperimentFinished &finished)
{
    if (!finished.best || finished.index < 0 || finished.index >= m_experimentRuns.size())
        return;
    const ExperimentRun &run = m_experimentRuns[finished.index];
    m_compare->addExperimentModel(tr("run %1, %2, seed %3")
                                      .arg(finished.index + 1)
                                      .arg(ExperimentsPanel::labelOf(run.model))
                                      .arg(run.modelSeed),
                                  finished.best);
}

void AttentionLab::finishExperiments(const ExperimentsFinished &finished)
{
    m_experiments->queueFinished(finished.message);
    emit statusMessage(finished.message, 10000);
}
