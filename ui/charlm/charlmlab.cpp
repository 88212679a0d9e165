#include "ui/charlm/charlmlab.h"

#include "engine/charlm/charcheckpoint.h"
#include "engine/core/epochstats.h"
#include "ui/charlm/charattributionview.h"
#include "ui/charlm/chartextpanel.h"
#include "ui/charlm/charvaluetext.h"
#include "ui/charlm/memorisationplot.h"
#include "ui/charlm/readoutpanel.h"
#include "ui/charlm/samplebox.h"
#include "ui/charlm/samplehistory.h"
#include "ui/core/exportactions.h"
#include "ui/core/lossplot.h"
#include "ui/core/plotexport.h"
#include "ui/charlm/charlmjobs.h"
#include "ui/workbench/runsummary.h"
#include "ui/workbench/workbench.h"

#include <QAction>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QVBoxLayout>

#include <cmath>

namespace {

// Beyond this many epochs the per-epoch circles would hide the curve.
constexpr int kMarkedEpochs = 40;

QString bits(double value)
{
    return QLocale().toString(value, 'f', 3);
}

EpochStats epochStats(const CharEpoch &e)
{
    EpochStats stats;
    stats.epoch = e.epoch;
    stats.trainLoss = e.trainBitsPerChar;
    stats.valLoss = e.validationBitsPerChar;
    stats.valExactMatch = std::nan("");
    stats.seconds = e.seconds;
    stats.samplesPerSecond = e.charsPerSecond;
    return stats;
}

QString describeModel(const CharModelConfig &model, int64_t parameters)
{
    return QObject::tr("%1, %2 units × %3, %4; %5 parameters")
        .arg(QString::fromLatin1(cellName(model.cell)).toUpper())
        .arg(model.hidden)
        .arg(model.layers == 1 ? QObject::tr("1 layer") : QObject::tr("%1 layers").arg(model.layers))
        .arg(model.embed > 0 ? QObject::tr("embedding %1").arg(model.embed) : QObject::tr("one-hot input"))
        .arg(QLocale().toString(qlonglong(parameters)));
}

}

CharLmLab::CharLmLab(Workbench *workbench)
    : Lab(workbench), m_panel(new CharTextPanel), m_setupDock(new QDockWidget(tr("Character Model Setup"))),
      m_loss(new LossPlot),
      m_memory(new MemorisationPlot), m_samples(new SampleHistory), m_sampler(new SampleBox),
      m_readout(new ReadoutPanel), m_attribution(new CharAttributionView), m_status(new QLabel)
{
    m_setupDock->setObjectName(QStringLiteral("charlmSetupDock"));
    auto *setup = new QScrollArea;
    setup->setWidget(m_panel);
    setup->setWidgetResizable(true);
    m_setupDock->setWidget(setup);
    m_trainingPage = createTrainingPage();
    m_insidePage = createInsidePage();
    m_exports = new ExportActions(m_trainingPage, this);
    createActions();
    connect(m_panel, &CharTextPanel::changed, this, &Lab::actionsChanged);
    connect(m_sampler, &SampleBox::sampled, this, &CharLmLab::updateActions);
    connect(runState(), &RunState::changed, this, &CharLmLab::updateActions);
    connect(m_attribution, &CharAttributionView::explainRequested, this,
            [this](const CharAttributionRequest &request) { submit(charAttributionJob(request), RunState::Phase::Idle); });
    connect(m_attribution, &CharAttributionView::resultChanged, this, &CharLmLab::updateActions);
    onResult(&CharLmLab::showBaseline);
    onResult(&CharLmLab::showProbe);
    onResult(&CharLmLab::addEpoch);
    onResult(&CharLmLab::showRanking);
    onResult(&CharLmLab::finishTraining);
    onResult(&CharLmLab::showAttribution);
    updateActions();
}

QWidget *CharLmLab::createTrainingPage()
{
    setupLossPlot();
    m_memory->setMinimumHeight(170);
    m_loss->setMinimumSize(260, 240);
    m_loss->setAccessibleName(tr("Character model loss plot"));
    m_loss->setAccessibleDescription(tr("Bits per character per window, smoothed, and per epoch for training and "
                                        "validation, beside the best n-gram baseline."));
    m_memory->setAccessibleName(tr("Memorisation meter"));
    m_memory->setAccessibleDescription(tr("How many characters of the text the model recites exactly, by epoch."));
    m_status->setObjectName(QStringLiteral("charlmStatus"));
    m_status->setWordWrap(true);
    m_status->setText(tr("Press Train (F5) to train a character model on the text on the left, or open a saved one "
                         "(File ▸ Open, Ctrl+O)."));

    auto *plots = new QSplitter(Qt::Vertical);
    plots->addWidget(m_loss);
    plots->addWidget(m_memory);
    plots->setStretchFactor(0, 3);
    plots->setStretchFactor(1, 1);
    auto *split = new QSplitter(Qt::Horizontal);
    split->addWidget(plots);
    split->addWidget(m_samples);
    split->setSizes({560, 440});  // in proportion: the splitter scales them to its width

    auto *page = new QWidget;
    page->setObjectName(QStringLiteral("charlmTrainingPage"));
    auto *layout = new QVBoxLayout(page);
    layout->addWidget(m_status);
    layout->addWidget(split, 1);
    return page;
}

QWidget *CharLmLab::createInsidePage()
{
    auto *page = new QSplitter(Qt::Vertical);
    page->setObjectName(QStringLiteral("charlmInsidePage"));
    page->addWidget(m_sampler);
    page->addWidget(m_readout);
    page->setStretchFactor(0, 1);
    page->setStretchFactor(1, 1);
    return page;
}

void CharLmLab::setupLossPlot()
{
    // The attention lab's exact match has no meaning here: bits per character on the left axis only.
    m_loss->exactMatchGraph()->setVisible(false);
    m_loss->exactMatchGraph()->removeFromLegend();
    m_loss->yAxis2->setVisible(false);
    m_loss->yAxis->setLabel(tr("bits per character"));
    m_loss->batchGraph()->setName(tr("per window"));
    m_loss->trainGraph()->setName(tr("train (epoch)"));
    m_loss->validationGraph()->setName(tr("validation"));
}

void CharLmLab::createActions()
{
    m_exports->addImage(tr("Export Character &Loss Curve…"), QStringLiteral("charlm_loss.png"), m_loss)
        ->setObjectName(QStringLiteral("exportCharLoss"));
    m_exports->addImage(tr("Export &Memorisation Plot…"), QStringLiteral("charlm_memorisation.png"), m_memory)
        ->setObjectName(QStringLiteral("exportMemorisation"));
    m_exports->addFile(tr("Export Samples over &Training (text)…"), QStringLiteral("charlm_samples.txt"),
                       tr("Text (*.txt)"), [this](const QString &path, QString *error) { return exportSamples(path, error); })
        ->setObjectName(QStringLiteral("exportSamples"));
    m_exports->addFile(tr("Export S&ample (text)…"), QStringLiteral("charlm_sample.txt"), tr("Text (*.txt)"),
                       [this](const QString &path, QString *error) { return exportSample(path, error); })
        ->setObjectName(QStringLiteral("exportSample"));
    m_exports->addImage(tr("Export &Activation View…"), QStringLiteral("charlm_activations.png"),
                        m_readout->activationView(),
                        [this](const QString &path, int, int, QString *error) { return exportActivations(path, error); })
        ->setObjectName(QStringLiteral("exportActivations"));
    m_exports->addImage(tr("Export Character A&ttribution…"), QStringLiteral("charlm_attribution.png"), m_attribution,
                        [this](const QString &path, int, int, QString *error) { return m_attribution->exportImage(path, error); })
        ->setObjectName(QStringLiteral("exportAttribution"));
    m_exports->addFile(tr("Export Character Attribution (CS&V)…"), QStringLiteral("charlm_attribution.csv"),
                       tr("CSV (*.csv)"), [this](const QString &path, QString *error) { return m_attribution->exportCsv(path, error); })
        ->setObjectName(QStringLiteral("exportAttributionCsv"));
}

QList<LabPage> CharLmLab::pages() const
{
    return {{tr("&Character Model"), m_trainingPage},
            {tr("Character Model &Inside"), m_insidePage},
            {tr("Next-Character &Attribution"), m_attribution}};
}

QList<LabDock> CharLmLab::docks() const
{
    return {{m_setupDock, Qt::LeftDockWidgetArea, nullptr, true}};
}

QList<QAction *> CharLmLab::exportActions() const
{
    return m_exports->actions();
}

void CharLmLab::updateActions()
{
    const QList<QAction *> &exports = m_exports->actions();
    for (QAction *action : exports)
        action->setEnabled(m_net != nullptr);
    exports[2]->setEnabled(m_samples->sampleCount() > 0);
    exports[3]->setEnabled(m_sampler->hasSample());
    exports[5]->setEnabled(m_attribution->hasResult());
    exports[6]->setEnabled(m_attribution->hasResult());
    m_attribution->setTrainingRuns(runState()->isTraining());
    m_panel->setEnabled(runState()->phase() == RunState::Phase::Idle);
    emit actionsChanged();
}

void CharLmLab::saveSettings(QSettings &settings) const
{
    settings.beginGroup(QStringLiteral("charlm"));
    m_panel->saveSettings(settings);
    m_samples->saveSettings(settings);
    m_sampler->saveSettings(settings);
    m_readout->saveSettings(settings);
    m_attribution->saveSettings(settings);
    settings.endGroup();
}

void CharLmLab::restoreSettings(QSettings &settings)
{
    settings.beginGroup(QStringLiteral("charlm"));
    m_panel->restoreSettings(settings);
    m_samples->restoreSettings(settings);
    m_sampler->restoreSettings(settings);
    m_readout->restoreSettings(settings);
    m_attribution->restoreSettings(settings);
    settings.endGroup();
}

QString CharLmLab::trainProblem() const
{
    if (!m_panel->text())
        return m_panel->problem();
    std::string problem = validate(m_panel->modelConfig());
    if (problem.empty())
        problem = validate(m_panel->trainingConfig());
    return QString::fromStdString(problem);
}

void CharLmLab::train()
{
    const CharTrainingConfig training = m_panel->trainingConfig();
    m_trainedWith = training;
    m_epochs = training.epochs;
    m_history.clear();
    m_bestValidation = 0;
    m_loss->clear();
    for (QCPGraph *graph : {m_loss->trainGraph(), m_loss->validationGraph()})
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, graph->pen().color(),
                                               graph == m_loss->trainGraph() ? QColor(Qt::white) : graph->pen().color(), 7));
    m_memory->clear();
    m_samples->clear();
    m_readout->clearRanking(tr("The units are ranked when training ends."));
    setStatus(tr("Preparing…"));
    submit(charTrainingJob(m_panel->text(), m_panel->modelConfig(), training, m_samples->settings()),
           RunState::Phase::Training);
}

void CharLmLab::jobStarted(const QString &description)
{
    setStatus(description);
    emit statusMessage(description);
}

void CharLmLab::jobBatch(const BatchProgress &progress)
{
    m_loss->addBatch(progress);
}

void CharLmLab::finishTraining(const CharTrainingFinished &finished)
{
    QString text = runSummary(finished.epochsDone, finished.epochs, finished.charsPerSecond, tr("characters"));
    if (!m_history.empty()) {
        const CharEpoch &last = m_history.back();
        text += QLatin1Char(' ') + (std::isfinite(last.validationBitsPerChar)
                                        ? tr("Last epoch: %1 bits/char on training, %2 on validation.")
                                              .arg(bits(last.trainBitsPerChar), bits(last.validationBitsPerChar))
                                        : tr("Last epoch: %1 bits/char.").arg(bits(last.trainBitsPerChar)));
    }
    text += QLatin1Char(' ') + tr("Sample it and look inside on the next tab.");
    setStatus(text);
    emit statusMessage(text, 8000);
    if (m_net)
        document()->setUnsaved();
}

void CharLmLab::showBaseline(const CharBaselineReady &ready)
{
    const NgramBaseline &baseline = ready.baseline;
    if (baseline.bitsPerChar.empty())
        return;
    m_loss->setReferenceLine(baseline.best(), baseline.onTraining
                                                  ? tr("%1-gram counts on the training text: %2")
                                                        .arg(baseline.bestOrder).arg(bits(baseline.best()))
                                                  : tr("%1-gram baseline: %2").arg(baseline.bestOrder).arg(bits(baseline.best())));
    QStringList orders;
    for (size_t i = 0; i < baseline.bitsPerChar.size(); ++i)
        orders << tr("%1-gram %2").arg(i + 1).arg(bits(baseline.bitsPerChar[i]));
    m_loss->setToolTip(tr("The dashed line: a character n-gram model (add-%1 smoothing) fitted on the training part "
                          "and measured on %2. Bits per character by order: %3.")
                           .arg(baseline.addK)
                           .arg(baseline.onTraining ? tr("the training part itself (there is no validation tail)")
                                                    : tr("the validation tail"))
                           .arg(orders.join(QStringLiteral(", "))));
}

void CharLmLab::showProbe(const CharProbe &probe)
{
    m_samples->addSample(probe);
    if (m_memory->pointCount() == 0)
        m_memory->setLimit(probe.memorisedLimit, probe.memorisedWholeText);
    m_memory->addPoint(probe.epochPosition, probe.memorised);
    useNet(probe.net);
}

void CharLmLab::addEpoch(const CharEpochDone &done)
{
    const CharEpoch &epoch = done.stats;
    m_history.push_back(epoch);
    const bool best = std::isfinite(epoch.validationBitsPerChar)
                      && (m_bestValidation == 0 || epoch.validationBitsPerChar < m_bestValidation);
    if (best)
        m_bestValidation = epoch.validationBitsPerChar;
    m_loss->addEpoch(epochStats(epoch), best);
    if (int(m_history.size()) == kMarkedEpochs + 1)
        for (QCPGraph *graph : {m_loss->trainGraph(), m_loss->validationGraph()})
            graph->setScatterStyle(QCPScatterStyle());
    const double perplexity = std::exp2(std::isfinite(epoch.validationBitsPerChar) ? epoch.validationBitsPerChar
                                                                                   : epoch.trainBitsPerChar);
    setStatus(std::isfinite(epoch.validationBitsPerChar)
                  ? tr("Epoch %1 of %2: %3 bits/char on training, %4 on validation (perplexity %5); %6 characters/s.")
                        .arg(epoch.epoch).arg(m_epochs)
                        .arg(bits(epoch.trainBitsPerChar), bits(epoch.validationBitsPerChar))
                        .arg(perplexity, 0, 'f', 2)
                        .arg(QLocale().toString(epoch.charsPerSecond, 'f', 0))
                  : tr("Epoch %1 of %2: %3 bits/char (perplexity %4); %5 characters/s.")
                        .arg(epoch.epoch).arg(m_epochs)
                        .arg(bits(epoch.trainBitsPerChar))
                        .arg(perplexity, 0, 'f', 2)
                        .arg(QLocale().toString(epoch.charsPerSecond, 'f', 0)));
}

void CharLmLab::showRanking(const CharUnitsRanked &ranked)
{
    if (ranked.net != m_net)
        return;  // ranked for weights no longer shown
    m_readout->setRanking(ranked.units, ranked.characters);
    updateActions();
}

void CharLmLab::showAttribution(const CharAttributionReady &ready)
{
    m_attribution->showResult(ready);
}

void CharLmLab::jobFailed(const QString &message)
{
    if (runState()->owner() == this && runState()->isTraining()) {
        setStatus(m_net ? tr("Training stopped: %1 The last weights stay to explore.").arg(message)
                        : tr("Training did not start: %1").arg(message));
        emit statusMessage(tr("Training failed."), 10000);
        QMessageBox::warning(m_trainingPage->window(), tr("Training Stopped"), message);
    } else {
        m_readout->clearRanking(tr("Cannot rank the units: %1").arg(message));
    }
}

void CharLmLab::useNet(std::shared_ptr<const CharInferenceNet> net)
{
    m_net = std::move(net);
    m_sampler->setNet(m_net);
    m_readout->setNet(m_net);
    if (const std::shared_ptr<const CharText> text = m_panel->text())
        m_attribution->setExampleText(text->text);
    m_attribution->setNet(m_net);
    updateActions();
}

void CharLmLab::setStatus(const QString &text)
{
    m_status->setText(text);
}

QString CharLmLab::statusText() const
{
    return m_status->text();
}

void CharLmLab::requestRanking()
{
    const std::shared_ptr<const CharText> text = m_panel->text();
    if (!text) {
        m_readout->clearRanking(tr("Choose a training text to rank the units on."));
        return;
    }
    m_readout->clearRanking(tr("Ranking the units…"));
    submit(charUnitRankingJob(m_net, text), RunState::Phase::Idle);
}

bool CharLmLab::open(const QString &path, const FileType &, QString *error)
{
    CharCheckpoint checkpoint;
    std::shared_ptr<const CharInferenceNet> net;
    try {
        checkpoint = loadCharCheckpoint(QFile::encodeName(path).toStdString());
        net = std::make_shared<const CharInferenceNet>(checkpoint.weights);
    } catch (const std::exception &e) {
        if (error)
            *error = tr("%1: %2").arg(QFileInfo(path).fileName(), QString::fromStdString(e.what()));
        return false;
    }
    m_history = checkpoint.history;
    m_trainedWith = checkpoint.training;
    m_epochs = checkpoint.training.epochs;
    std::vector<EpochStats> history;
    for (const CharEpoch &e : m_history)
        history.push_back(epochStats(e));
    m_loss->setHistory(history);
    if (int(m_history.size()) > kMarkedEpochs)
        for (QCPGraph *graph : {m_loss->trainGraph(), m_loss->validationGraph()})
            graph->setScatterStyle(QCPScatterStyle());
    m_memory->clear();
    m_samples->clear();
    m_panel->setConfigs(checkpoint.weights.config, checkpoint.training);
    useNet(net);
    setStatus(tr("%1: %2, %3 characters; trained %4 epochs.")
                  .arg(QFileInfo(path).fileName(), describeModel(checkpoint.weights.config, checkpoint.weights.parameterCount()))
                  .arg(checkpoint.weights.alphabetSize())
                  .arg(m_history.size()));
    requestRanking();
    return true;
}

bool CharLmLab::save(const QString &path, const FileType &, QString *error)
{
    if (!m_net) {
        if (error)
            *error = tr("There is no model to save: train one first.");
        return false;
    }
    try {
        saveCharCheckpoint(QFile::encodeName(path).toStdString(), CharCheckpoint{m_net->weights(), m_trainedWith, m_history});
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    return true;
}

bool CharLmLab::exportSamples(const QString &path, QString *error) const
{
    if (m_samples->sampleCount() == 0) {
        if (error)
            *error = tr("Nothing to export: no samples were drawn during training.");
        return false;
    }
    return writeFileAtomically(path, m_samples->plainText().toUtf8(), error);
}

bool CharLmLab::exportSample(const QString &path, QString *error) const
{
    if (!m_sampler->hasSample()) {
        if (error)
            *error = tr("Nothing to export: press Sample first.");
        return false;
    }
    return writeFileAtomically(path, m_sampler->plainText().toUtf8(), error);
}

bool CharLmLab::exportActivations(const QString &path, QString *error) const
{
    if (m_readout->activationView()->cellCount() == 0) {
        if (error)
            *error = tr("Nothing to export: type some text for the model to read.");
        return false;
    }
    return m_readout->activationView()->exportImage(path, error);
}
