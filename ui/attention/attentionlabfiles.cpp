// AttentionLab's files: checkpoints of the best model, and projects of the whole run and window.
#include "ui/attention/attentionlab.h"

#include "ui/attention/alignmentplot.h"
#include "ui/attention/beamsearchpage.h"
#include "ui/attention/compareview.h"
#include "ui/attention/datasetpanel.h"
#include "ui/attention/embeddingpanel.h"
#include "ui/attention/examplestable.h"
#include "ui/attention/experimentspanel.h"
#include "ui/attention/historyscrubber.h"
#include "ui/attention/inferencepanel.h"
#include "ui/attention/losspanel.h"
#include "ui/attention/modeltext.h"
#include "ui/attention/trainingpanel.h"
#include "ui/core/attentionheatmap.h"
#include "ui/workbench/document.h"
#include "ui/workbench/workbench.h"

#include <QAction>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QTemporaryDir>

#include <algorithm>
#include <exception>
#include <stdexcept>

namespace {

const char *const kBundledModel = ":/models/default.ckpt";

std::string localPath(const QString &path)
{
    return QFile::encodeName(path).toStdString();
}

ModelSnapshot loadModel(const QString &path)
{
    return std::make_shared<const Seq2SeqModel>(Seq2SeqModel::load(localPath(path)));
}

bool isProject(const FileType &type)
{
    return type.suffixes.contains(QLatin1String(projectfile::kSuffix));
}

}

bool AttentionLab::open(const QString &path, const FileType &type, QString *error)
{
    try {
        if (isProject(type)) {
            showProject(projectfile::load(localPath(path)), QFileInfo(path).fileName());
            return true;
        }
        const ModelSnapshot model = loadModel(path);
        useLoadedModel(model, QFileInfo(path).fileName());
        // Show the settings the model was trained with, so training again reproduces it.
        m_datasetPanel->setConfig(model->datasetConfig);
        m_trainingPanel->setModelConfig(model->config());
        return true;
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
}

bool AttentionLab::save(const QString &path, const FileType &type, QString *error)
{
    try {
        if (isProject(type)) {
            if (!m_trainingUsed)
                throw std::runtime_error(tr("This model was opened from a checkpoint, which does not keep how it was "
                                            "trained; a project needs a run trained here or opened from a project. "
                                            "Save it as a model (.ckpt).").toStdString());
            if (runInProgress())
                throw std::runtime_error(tr("Training is still running; save the project when it ends, so that it "
                                            "holds the whole run.").toStdString());
            projectfile::save(project(), localPath(path));
        }
        else
            m_best->save(localPath(path));
        return true;
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
}

void AttentionLab::useLoadedModel(const ModelSnapshot &model, const QString &origin, const QString &corpusProblem)
{
    m_weightHistory.clear();
    m_scrubber->setEmptyMessage(tr("No history: a model file keeps none. Train to replay a run."));
    m_scrubber->setHistory(m_weightHistory, model);
    m_compare->historyChanged(true);
    m_best = m_latest = model;
    m_trainingUsed.reset();
    m_testReport.reset();
    m_compare->clearExperimentModels();
    m_alignmentHistory.clear();
    m_corpus = {};
    m_inference->setModel(model, describeModel(*model, origin));
    m_compare->setBestModel(model, describeModel(*model, origin));
    m_compare->setLatestModel(model, describeModel(*model, origin));
    m_embeddings->setModel(model, origin);
    shareModel(model, origin);
    m_loss->setHistory(model->history);
    m_alignment->showMessage(model->hasAttention()
                                 ? tr("Alignment is measured while a model trains; a model file does not keep it.")
                                 : noAttentionToAlign());
    m_analysis->clear();
    // The test set comes from the corpus file: one that is not as the model saw it has another.
    m_beams->setSubject(corpusProblem.isEmpty() ? tr("the opened model") : QString());
    if (corpusProblem.isEmpty()) {
        requestEvaluation(model);
        awaitFaithfulness(model, tr("the opened model"));
    } else {
        m_examples->showMessage(tr("The test set is not scored: %1.").arg(corpusProblem));
        showFaithfulnessProblem(tr("Faithfulness is not measured: %1.").arg(corpusProblem));
        m_beams->showProblem(tr("Beam search is not compared on the test set: %1.").arg(corpusProblem));
    }
    updateActions();
}

void AttentionLab::saveProjectWithDialog()
{
    if (!m_best)
        return;
    if (!m_best->datasetConfig.corpusPath.empty()) {
        const auto answer = QMessageBox::question(
            m_inference->window(), tr("Save Project"),
            tr("Embed the corpus text in the project?\n\nEmbedded, the project trains again and scores its test set "
               "anywhere. Not embedded, it keeps only the file's path, size and checksum, and needs the file as it "
               "is now."),
            QMessageBox::Yes | QMessageBox::No | QMessageBox::Cancel, QMessageBox::Yes);
        if (answer == QMessageBox::Cancel)
            return;
        m_embedCorpus = answer == QMessageBox::Yes;
    }
    for (const FileType &type : document()->types())
        if (isProject(type))
            workbench()->saveAs(this, type);
}

AttentionProject AttentionLab::project() const
{
    AttentionProject p;
    p.dataset = m_best->datasetConfig;
    p.model = m_best->config();
    p.training = *m_trainingUsed;
    p.threadsUsed = m_threadsUsed;
    if (!p.dataset.corpusPath.empty()) {
        // An opened project's copy is what the run read; the file may have changed since.
        const bool haveCopy = m_corpus.bytes > 0 && (m_corpus.embedded || !m_embedCorpus);
        p.corpus = haveCopy ? m_corpus : projectfile::copyCorpus(p.dataset.corpusPath, m_embedCorpus);
        if (!m_embedCorpus) {
            p.corpus.embedded = false;
            p.corpus.text.clear();
        }
    }
    p.best = m_best;
    p.weights = m_weightHistory;
    p.alignment = m_alignmentHistory;
    p.experiments = m_experiments->records();
    p.experimentSeeds = m_experiments->recordSeeds();
    p.sentence = m_inference->text().toStdString();
    p.selectedRow = m_inference->highlightedOutputToken();
    p.selectedColumn = m_inference->highlightedSourceToken();
    return p;
}

void AttentionLab::showProject(const AttentionProject &p, const QString &origin)
{
    const std::string problem = projectfile::corpusFileProblem(p);
    useLoadedModel(p.best, origin, QString::fromStdString(problem));
    m_trainingUsed = p.training;
    m_threadsUsed = p.threadsUsed;
    m_corpus = p.corpus;
    m_embedCorpus = p.corpus.embedded || p.dataset.corpusPath.empty();
    m_datasetPanel->setConfig(p.dataset);
    m_trainingPanel->setModelConfig(p.model);
    m_trainingPanel->setTrainingConfig(p.training);

    m_alignmentHistory = p.alignment;
    if (!p.alignment.empty())
        m_alignment->clear();
    const std::vector<EpochStats> &history = p.best->history;
    for (const EpochAlignment &a : p.alignment) {
        const auto stats = std::find_if(history.begin(), history.end(),
                                        [&](const EpochStats &s) { return s.epoch == a.epoch; });
        if (stats != history.end())
            m_alignment->addEpoch(*stats, a.score);
    }
    setWeightHistory(p.weights);
    m_experiments->setRecords(p.experiments, p.experimentSeeds);

    m_inference->setText(QString::fromStdString(p.sentence));
    if (p.selectedRow >= 0)
        m_inference->heatmap()->selectCell(p.selectedRow, p.selectedColumn);
    if (!problem.empty())
        emit statusMessage(QString::fromStdString(problem), 10000);
    updateActions();
}

bool AttentionLab::loadBundledModel()
{
    QFile resource(QString::fromLatin1(kBundledModel));
    if (!resource.exists())
        return false;
    // Checkpoints are read from the file system, so the bundled one goes through a temporary copy.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("default.ckpt"));
    if (!dir.isValid() || !resource.copy(path))
        return false;
    try {
        useLoadedModel(loadModel(path), tr("bundled default model"));
        document()->setOrigin(tr("bundled default model"));
        return true;
    } catch (const std::exception &e) {
        emit statusMessage(tr("The bundled model could not be read: %1").arg(QString::fromStdString(e.what())));
        return false;
    }
}
