#include "ui/mainwindow.h"

#include "ui/attention/datasetpanel.h"
#include "ui/attention/embeddingpanel.h"
#include "ui/attention/examplestable.h"
#include "ui/attention/experimentspanel.h"
#include "ui/attention/inferencepanel.h"
#include "ui/attention/trainingpanel.h"
#include "ui/core/attentionheatmap.h"
#include "ui/core/embeddingplot.h"
#include "ui/core/lossplot.h"
#include "ui/selfattention/selfattentionpanel.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <exception>

namespace {

constexpr int kMaxRecentFiles = 8;
constexpr int kMinExportWidth = 1200;
const char *const kBundledModel = ":/models/default.ckpt";

QString percent(double share)
{
    return QLocale().toString(share * 100, 'f', 1) + QStringLiteral(" %");
}

// Three significant digits: losses near zero still show how near.
QString number(double value)
{
    return QLocale().toString(value, 'g', 3);
}

QString duration(qint64 seconds)
{
    if (seconds < 60)
        return QObject::tr("%1 s").arg(seconds);
    if (seconds < 3600)
        return QObject::tr("%1 min %2 s").arg(seconds / 60).arg(seconds % 60, 2, 10, QLatin1Char('0'));
    return QObject::tr("%1 h %2 min").arg(seconds / 3600).arg((seconds % 3600) / 60, 2, 10, QLatin1Char('0'));
}

QString describeEpoch(const EpochStats &stats)
{
    return QObject::tr("epoch %1 · validation loss %2 · exact match %3")
        .arg(stats.epoch)
        .arg(number(stats.valLoss), percent(stats.valExactMatch));
}

QString describeModel(const Seq2SeqModel &model, const QString &origin)
{
    const ModelConfig &c = model.config();
    QString text = QObject::tr("%1 — %2 parameters, %3 words, hidden size %4, %n layer(s)", nullptr, c.layers)
                       .arg(origin, QLocale().toString(qlonglong(model.parameterCount())))
                       .arg(model.vocabulary().size())
                       .arg(c.hiddenSize);
    if (!model.history.empty()) {
        const auto best = std::min_element(model.history.begin(), model.history.end(),
                                           [](const EpochStats &a, const EpochStats &b) { return a.valLoss < b.valLoss; });
        text += QObject::tr("; best of %n epoch(s): validation exact match %1", nullptr, int(model.history.size()))
                    .arg(percent(best->valExactMatch));
    }
    return text;
}

QSize exportSize(const QWidget *widget)
{
    const QSize size = widget->size().expandedTo(QSize(320, 240));
    if (size.width() >= kMinExportWidth)
        return size;
    return QSize(kMinExportWidth, kMinExportWidth * size.height() / size.width());
}

// Markdown headings come out at browser sizes, too large for a dock: the title one step above the
// body text, the rest at body size (they stay bold).
void fitHeadings(QTextDocument *document)
{
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        const int level = block.blockFormat().headingLevel();
        if (level == 0)
            continue;
        QTextCursor cursor(block);
        cursor.select(QTextCursor::BlockUnderCursor);
        QTextCharFormat format;
        format.setProperty(QTextFormat::FontSizeAdjustment, level == 1 ? 1 : 0);
        cursor.mergeCharFormat(format);
    }
}

// Markdown set on the document a QTextBrowser shows is laid out again at every block it adds:
// 25-55 ms for the ~2 KB analysis, a visible event-loop stall. Filled while detached and then
// shown, it takes 2 ms. setDocument deletes the previous document, a child of `view` too.
void showMarkdown(QTextBrowser *view, const QString &markdown)
{
    auto *document = new QTextDocument(view);
    document->setDefaultFont(view->font());
    document->setMarkdown(markdown);
    fitHeadings(document);
    view->setDocument(document);
}

QScrollArea *scrolled(QWidget *widget)
{
    auto *area = new QScrollArea;
    area->setWidget(widget);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    return area;
}

}

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent)
{
    registerMetaTypes();
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("AttnScope"));
    setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);

    m_inference = new InferencePanel;
    m_inference->setObjectName(QStringLiteral("inferencePanel"));
    m_selfAttention = new SelfAttentionPanel;
    m_selfAttention->setObjectName(QStringLiteral("selfAttentionPanel"));
    m_centralTabs = new QTabWidget;
    m_centralTabs->setObjectName(QStringLiteral("centralTabs"));
    m_centralTabs->setDocumentMode(true);
    m_centralTabs->addTab(m_inference, tr("Reverse"));
    m_centralTabs->addTab(m_selfAttention, tr("Self-Attention"));
    m_experiments = new ExperimentsPanel;
    m_experiments->setObjectName(QStringLiteral("experimentsPanel"));
    m_centralTabs->addTab(m_experiments, tr("Experiments"));
    setCentralWidget(m_centralTabs);

    createActions();
    createDocks();
    createMenus();
    createStatusBar();

    connect(m_datasetPanel, &DatasetPanel::configChanged, this, &MainWindow::updateActions);
    connect(m_trainingPanel, &TrainingPanel::configChanged, this, &MainWindow::updateActions);
    connect(m_inference, &InferencePanel::sentenceDecoded, this, &MainWindow::updateActions);
    connect(m_examples, &ExamplesTable::exampleChosen, m_inference, &InferencePanel::setText);
    connect(m_experiments, &ExperimentsPanel::runRequested, this, &MainWindow::runExperiments);
    const auto followSettings = [this] {
        m_experiments->setBaseConfig(m_trainingPanel->modelConfig());
        m_experiments->setTrainedRange(m_datasetPanel->config().minLength, m_datasetPanel->config().maxLength);
    };
    connect(m_datasetPanel, &DatasetPanel::configChanged, this, followSettings);
    connect(m_trainingPanel, &TrainingPanel::configChanged, this, followSettings);
    connect(m_experiments, &ExperimentsPanel::stopRequested, this, [this] {
        if (m_state == State::Comparing)
            emit stopRequested();
    });

    applyDefaultSizes();
    m_defaultState = saveState();
    readSettings();
    followSettings();
    setState(State::Idle);
    statusBar()->showMessage(tr("Ready. Press Train (F5) to train a model, or type a sentence."));
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions()
{
    QStyle *s = style();
    m_openAction = new QAction(s->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open Model…"), this);
    m_openAction->setShortcut(QKeySequence::Open);
    m_openAction->setStatusTip(tr("Load a trained model from a checkpoint file."));
    connect(m_openAction, &QAction::triggered, this, &MainWindow::openModel);

    m_saveAction = new QAction(s->standardIcon(QStyle::SP_DialogSaveButton), tr("&Save Model"), this);
    m_saveAction->setShortcut(QKeySequence::Save);
    m_saveAction->setStatusTip(tr("Save the best model so far to a checkpoint file."));
    connect(m_saveAction, &QAction::triggered, this, &MainWindow::save);

    m_saveAsAction = new QAction(tr("Save Model &As…"), this);
    m_saveAsAction->setShortcut(QKeySequence::SaveAs);
    connect(m_saveAsAction, &QAction::triggered, this, &MainWindow::saveAs);

    m_exportHeatmapAction = new QAction(s->standardIcon(QStyle::SP_DialogSaveButton), tr("&Export Heatmap…"), this);
    m_exportHeatmapAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_exportHeatmapAction->setStatusTip(tr("Save the attention heatmap as a PNG, PDF or JPEG image."));
    connect(m_exportHeatmapAction, &QAction::triggered, this, &MainWindow::exportHeatmap);

    m_exportHeatmapCsvAction = new QAction(tr("Export Heatmap &Data (CSV)…"), this);
    connect(m_exportHeatmapCsvAction, &QAction::triggered, this, &MainWindow::exportHeatmapCsv);
    m_exportLossAction = new QAction(tr("Export &Loss Curve…"), this);
    connect(m_exportLossAction, &QAction::triggered, this, &MainWindow::exportLossPlot);
    m_exportLossCsvAction = new QAction(tr("Export Loss &History (CSV)…"), this);
    connect(m_exportLossCsvAction, &QAction::triggered, this, &MainWindow::exportLossCsv);
    m_exportEmbeddingsAction = new QAction(tr("Export E&mbedding Plot…"), this);
    connect(m_exportEmbeddingsAction, &QAction::triggered, this, &MainWindow::exportEmbeddings);

    m_quitAction = new QAction(tr("&Quit"), this);
    m_quitAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    m_quitAction->setMenuRole(QAction::QuitRole);
    connect(m_quitAction, &QAction::triggered, this, &QWidget::close);

    m_trainAction = new QAction(s->standardIcon(QStyle::SP_MediaPlay), tr("&Train"), this);
    m_trainAction->setObjectName(QStringLiteral("trainAction"));
    m_trainAction->setShortcut(QKeySequence(Qt::Key_F5));
    m_trainAction->setStatusTip(tr("Train a new model with the settings on the left (F5)."));
    connect(m_trainAction, &QAction::triggered, this, &MainWindow::train);

    m_pauseAction = new QAction(s->standardIcon(QStyle::SP_MediaPause), tr("&Pause"), this);
    m_pauseAction->setObjectName(QStringLiteral("pauseAction"));
    m_pauseAction->setShortcut(QKeySequence(Qt::Key_F6));
    m_pauseAction->setStatusTip(tr("Pause training after the current batch (F6)."));
    connect(m_pauseAction, &QAction::triggered, this, &MainWindow::pause);

    m_resumeAction = new QAction(s->standardIcon(QStyle::SP_MediaSeekForward), tr("&Resume"), this);
    m_resumeAction->setObjectName(QStringLiteral("resumeAction"));
    // F5 continues a paused run, as in a debugger; Train is disabled meanwhile, so no clash.
    m_resumeAction->setShortcut(QKeySequence(Qt::Key_F5));
    m_resumeAction->setStatusTip(tr("Continue the paused training (F5)."));
    connect(m_resumeAction, &QAction::triggered, this, &MainWindow::resume);

    m_stopAction = new QAction(s->standardIcon(QStyle::SP_MediaStop), tr("&Stop"), this);
    m_stopAction->setObjectName(QStringLiteral("stopAction"));
    m_stopAction->setShortcuts({QKeySequence(Qt::Key_Escape), QKeySequence(Qt::CTRL | Qt::Key_Period)});
    m_stopAction->setStatusTip(tr("Stop training and keep the best model so far (Esc)."));
    connect(m_stopAction, &QAction::triggered, this, &MainWindow::stop);

    m_resetLayoutAction = new QAction(tr("&Reset Layout"), this);
    connect(m_resetLayoutAction, &QAction::triggered, this, &MainWindow::resetLayout);

    for (QAction *action : {m_trainAction, m_pauseAction, m_resumeAction, m_stopAction, m_exportHeatmapAction}) {
        const QString shortcuts = action->shortcut().toString(QKeySequence::NativeText);
        action->setToolTip(QStringLiteral("%1 (%2)").arg(action->text().remove(QLatin1Char('&')).remove(QStringLiteral("…")),
                                                        shortcuts));
    }
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_openAction);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    file->addAction(m_saveAction);
    file->addAction(m_saveAsAction);
    file->addSeparator();
    file->addAction(m_exportHeatmapAction);
    file->addAction(m_exportHeatmapCsvAction);
    file->addAction(m_exportLossAction);
    file->addAction(m_exportLossCsvAction);
    file->addAction(m_exportEmbeddingsAction);
    file->addSeparator();
    file->addAction(m_quitAction);

    QMenu *training = menuBar()->addMenu(tr("&Training"));
    training->addAction(m_trainAction);
    training->addAction(m_pauseAction);
    training->addAction(m_resumeAction);
    training->addAction(m_stopAction);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    for (QDockWidget *dock : {m_setupDock, m_lossDock, m_embeddingDock, m_examplesDock, m_analysisDock})
        m_viewMenu->addAction(dock->toggleViewAction());
    m_viewMenu->addSeparator();
    const QStringList pages = {tr("&Reverse Sentences"), tr("&Self-Attention Explorer"), tr("E&xperiments")};
    for (int page = 0; page < pages.size(); ++page) {
        QAction *show = m_viewMenu->addAction(pages[page], this, [this, page] { m_centralTabs->setCurrentIndex(page); });
        show->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + page)));
    }
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(m_resetLayoutAction);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *aboutAction = help->addAction(tr("&About AttnScope"), this, &MainWindow::about);
    aboutAction->setMenuRole(QAction::AboutRole);
    QAction *aboutQt = help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
    aboutQt->setMenuRole(QAction::AboutQtRole);

    QToolBar *toolBar = addToolBar(tr("Main"));
    toolBar->setObjectName(QStringLiteral("mainToolBar"));
    toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolBar->setMovable(false);
    toolBar->addAction(m_openAction);
    toolBar->addAction(m_saveAction);
    toolBar->addSeparator();
    toolBar->addAction(m_trainAction);
    toolBar->addAction(m_pauseAction);
    toolBar->addAction(m_resumeAction);
    toolBar->addAction(m_stopAction);
    toolBar->addSeparator();
    toolBar->addAction(m_exportHeatmapAction);
    m_viewMenu->insertAction(m_viewMenu->actions().value(5), toolBar->toggleViewAction());

    updateRecentMenu();
}

void MainWindow::createDocks()
{
    m_datasetPanel = new DatasetPanel;
    m_datasetPanel->setObjectName(QStringLiteral("datasetPanel"));
    m_trainingPanel = new TrainingPanel;
    m_trainingPanel->setObjectName(QStringLiteral("trainingPanel"));
    auto *tabs = new QTabWidget;
    tabs->setObjectName(QStringLiteral("setupTabs"));
    tabs->addTab(scrolled(m_datasetPanel), tr("Dataset"));
    tabs->addTab(scrolled(m_trainingPanel), tr("Model && Training"));
    tabs->setDocumentMode(true);

    auto *buttons = new QHBoxLayout;
    for (QAction *action : {m_trainAction, m_pauseAction, m_resumeAction, m_stopAction}) {
        auto *button = new QToolButton;
        button->setDefaultAction(action);
        button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        button->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
        buttons->addWidget(button);
    }
    auto *setup = new QWidget;
    auto *setupLayout = new QVBoxLayout(setup);
    setupLayout->setContentsMargins(0, 0, 0, 4);
    setupLayout->addWidget(tabs, 1);
    setupLayout->addLayout(buttons);

    m_setupDock = new QDockWidget(tr("Setup"), this);
    m_setupDock->setObjectName(QStringLiteral("setupDock"));
    m_setupDock->setWidget(setup);
    addDockWidget(Qt::LeftDockWidgetArea, m_setupDock);

    m_lossPlot = new LossPlot;
    m_lossPlot->setObjectName(QStringLiteral("lossPlot"));
    m_lossPlot->setMinimumSize(240, 160);
    m_lossSummary = new QLabel;
    m_lossSummary->setObjectName(QStringLiteral("lossSummary"));
    m_lossSummary->setWordWrap(true);
    auto *loss = new QWidget;
    auto *lossLayout = new QVBoxLayout(loss);
    lossLayout->addWidget(m_lossSummary);
    lossLayout->addWidget(m_lossPlot, 1);
    m_lossDock = new QDockWidget(tr("Loss"), this);
    m_lossDock->setObjectName(QStringLiteral("lossDock"));
    m_lossDock->setWidget(loss);
    addDockWidget(Qt::RightDockWidgetArea, m_lossDock);

    m_embeddings = new EmbeddingPanel;
    m_embeddings->setObjectName(QStringLiteral("embeddingPanel"));
    m_embeddingDock = new QDockWidget(tr("Embeddings"), this);
    m_embeddingDock->setObjectName(QStringLiteral("embeddingDock"));
    m_embeddingDock->setWidget(m_embeddings);
    addDockWidget(Qt::RightDockWidgetArea, m_embeddingDock);

    m_examples = new ExamplesTable;
    m_examples->setObjectName(QStringLiteral("examplesTable"));
    m_examplesDock = new QDockWidget(tr("Test Examples"), this);
    m_examplesDock->setObjectName(QStringLiteral("examplesDock"));
    m_examplesDock->setWidget(m_examples);
    tabifyDockWidget(m_embeddingDock, m_examplesDock);

    m_analysis = new QTextBrowser;
    m_analysis->setObjectName(QStringLiteral("analysisView"));
    m_analysis->setOpenExternalLinks(true);
    m_analysis->setPlaceholderText(tr("How the model's attention behaves on the test set appears here when "
                                      "training ends or a model is opened."));
    m_analysisDock = new QDockWidget(tr("Attention Analysis"), this);
    m_analysisDock->setObjectName(QStringLiteral("analysisDock"));
    m_analysisDock->setWidget(m_analysis);
    tabifyDockWidget(m_examplesDock, m_analysisDock);
    m_embeddingDock->raise();

    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
}

void MainWindow::applyDefaultSizes()
{
    // The heatmap gets the middle; the plots on the right grow with the screen.
    const QRect available = screen() ? screen()->availableGeometry() : QRect(0, 0, 1280, 800);
    const QSize size = available.size().boundedTo(QSize(std::max(1280, available.width() * 17 / 20),
                                                        std::max(800, available.height() * 17 / 20)));
    resize(size);
    move(available.center() - rect().center());
    resizeDocks({m_setupDock, m_lossDock}, {std::clamp(size.width() / 4, 300, 380), std::clamp(size.width() * 7 / 20, 430, 640)},
                Qt::Horizontal);
    resizeDocks({m_lossDock, m_embeddingDock}, {size.height() / 2, size.height() / 2}, Qt::Vertical);
}

void MainWindow::createStatusBar()
{
    m_progressLabel = new QLabel;
    m_speedLabel = new QLabel;
    m_etaLabel = new QLabel;
    m_progress = new QProgressBar;
    m_progress->setObjectName(QStringLiteral("trainingProgress"));
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(220);
    m_progress->setTextVisible(true);
    m_progress->setFormat(QStringLiteral("%p %"));
    statusBar()->addPermanentWidget(m_progressLabel);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_speedLabel);
    statusBar()->addPermanentWidget(m_etaLabel);
    for (QWidget *widget : std::initializer_list<QWidget *>{m_progressLabel, m_progress, m_speedLabel, m_etaLabel})
        widget->hide();
}

void MainWindow::readSettings()
{
    QSettings settings;
    m_datasetPanel->restoreSettings(settings);
    m_trainingPanel->restoreSettings(settings);
    m_selfAttention->restoreSettings(settings);
    settings.beginGroup(QStringLiteral("window"));
    m_centralTabs->setCurrentIndex(settings.value(QStringLiteral("centralTab"), 0).toInt());
    restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("state")).toByteArray());
    m_inference->setChoice(InferencePanel::Choice(
        settings.value(QStringLiteral("inferenceModel"), int(InferencePanel::Choice::Best)).toInt()));
    BeamOptions beam;
    beam.width = settings.value(QStringLiteral("beamWidth"), beam.width).toInt();
    beam.alpha = settings.value(QStringLiteral("beamAlpha"), beam.alpha).toDouble();
    m_inference->setBeamOptions(beam);
    m_embeddings->setSide(EmbeddingPanel::Side(
        settings.value(QStringLiteral("embeddingSide"), int(EmbeddingPanel::Side::Encoder)).toInt()));
    m_embeddings->restoreState(settings.value(QStringLiteral("embeddingSplitter")).toByteArray());
    // The last sentence, or an example: the first look at the window already shows a heatmap.
    // Selected, so typing replaces it.
    m_inference->setText(settings.value(QStringLiteral("sentence"), tr("the quick brown fox jumps over the lazy dog")).toString());
    m_inference->inputField()->selectAll();
    m_inference->inputField()->setFocus();
    settings.endGroup();
}

void MainWindow::writeSettings() const
{
    QSettings settings;
    m_datasetPanel->saveSettings(settings);
    m_trainingPanel->saveSettings(settings);
    m_selfAttention->saveSettings(settings);
    settings.beginGroup(QStringLiteral("window"));
    settings.setValue(QStringLiteral("centralTab"), m_centralTabs->currentIndex());
    settings.setValue(QStringLiteral("geometry"), saveGeometry());
    settings.setValue(QStringLiteral("state"), saveState());
    settings.setValue(QStringLiteral("inferenceModel"), int(m_inference->choice()));
    settings.setValue(QStringLiteral("beamWidth"), m_inference->beamOptions().width);
    settings.setValue(QStringLiteral("beamAlpha"), m_inference->beamOptions().alpha);
    settings.setValue(QStringLiteral("embeddingSide"), int(m_embeddings->side()));
    settings.setValue(QStringLiteral("embeddingSplitter"), m_embeddings->saveState());
    settings.setValue(QStringLiteral("sentence"), m_inference->text());
    settings.endGroup();
}

void MainWindow::resetLayout()
{
    restoreState(m_defaultState);
    for (QDockWidget *dock : {m_setupDock, m_lossDock, m_embeddingDock, m_examplesDock, m_analysisDock})
        dock->show();
    m_embeddingDock->raise();
}

bool MainWindow::isTraining() const
{
    return m_state == State::Training || m_state == State::Paused || m_state == State::Stopping;
}

void MainWindow::setState(State state)
{
    m_state = state;
    const bool running = isTraining();
    for (QWidget *widget : std::initializer_list<QWidget *>{m_progressLabel, m_progress, m_speedLabel, m_etaLabel})
        widget->setVisible(running);
    m_datasetPanel->setEnabled(state == State::Idle);
    m_trainingPanel->setEnabled(state == State::Idle);
    if (running)
        m_inference->setNoModelMessage(tr("Training… the first model arrives when epoch 1 ends"),
                                       tr("Waiting for epoch 1…"));
    else
        m_inference->setNoModelMessage(tr("No model yet — press Train (F5)"), tr("No model yet — press Train (F5)"));
    updateActions();
}

void MainWindow::updateActions()
{
    const bool idle = m_state == State::Idle;
    QString problem = m_datasetPanel->problem();
    if (problem.isEmpty())
        problem = m_trainingPanel->problem();
    m_trainAction->setEnabled(idle && problem.isEmpty());
    m_trainAction->setStatusTip(problem.isEmpty() ? tr("Train a new model with the settings on the left (F5).")
                                                  : tr("Cannot train: %1").arg(problem));
    m_pauseAction->setEnabled(m_state == State::Training);
    m_resumeAction->setEnabled(m_state == State::Paused);
    m_stopAction->setEnabled(m_state == State::Training || m_state == State::Paused);
    m_openAction->setEnabled(idle && m_pendingRequests == 0);
    m_recentMenu->setEnabled(idle && m_pendingRequests == 0);
    m_saveAction->setEnabled(m_best != nullptr);
    m_saveAsAction->setEnabled(m_best != nullptr);
    m_exportHeatmapAction->setEnabled(m_inference->hasSentence());
    m_exportHeatmapCsvAction->setEnabled(m_inference->hasSentence());
    const bool hasLoss = m_lossPlot->epochPointCount() > 0 || m_lossPlot->batchPointCount() > 0;
    m_exportLossAction->setEnabled(hasLoss);
    m_exportLossCsvAction->setEnabled(hasLoss);
    m_exportEmbeddingsAction->setEnabled(m_latest != nullptr);
    if (windowTitle().contains(QLatin1String("[*]")))
        setWindowModified(m_modified);
}

void MainWindow::train()
{
    if (m_state != State::Idle)
        return;
    const QString problem = !m_datasetPanel->problem().isEmpty() ? m_datasetPanel->problem()
                                                                 : m_trainingPanel->problem();
    if (!problem.isEmpty()) {
        statusBar()->showMessage(tr("Cannot train: %1").arg(problem), 8000);
        return;
    }
    const TrainingConfig trainingConfig = m_trainingPanel->trainingConfig();
    m_epochs = trainingConfig.epochs;
    m_history.clear();
    m_bestEpoch = 0;
    m_lossPlot->clear();
    m_lossSummary->setText(tr("Preparing the data…"));
    m_examples->showMessage(tr("Training… the test set is scored when training ends."));
    m_embeddingDock->raise();  // it follows every epoch; the examples wait for the end
    m_analysis->clear();
    m_progress->setValue(0);
    m_progressLabel->setText(tr("Preparing"));
    m_speedLabel->clear();
    m_etaLabel->clear();
    m_pausedMs = 0;
    m_runClock.start();
    setState(State::Training);
    statusBar()->showMessage(tr("Preparing the data…"));
    ++m_pendingRequests;
    emit trainRequested(m_datasetPanel->config(), m_trainingPanel->modelConfig(), trainingConfig);
}

void MainWindow::pause()
{
    if (m_state != State::Training)
        return;
    m_pauseClock.start();
    setState(State::Paused);
    statusBar()->showMessage(tr("Paused. Press Resume (F5) to continue or Stop (Esc) to end training."));
    emit pauseRequested();
}

void MainWindow::resume()
{
    if (m_state != State::Paused)
        return;
    m_pausedMs += m_pauseClock.elapsed();
    setState(State::Training);
    statusBar()->showMessage(tr("Training…"));
    emit resumeRequested();
}

void MainWindow::stop()
{
    if (m_state != State::Training && m_state != State::Paused)
        return;
    if (m_state == State::Paused)
        m_pausedMs += m_pauseClock.elapsed();
    setState(State::Stopping);
    statusBar()->showMessage(tr("Stopping after the current batch…"));
    emit stopRequested();
}

void MainWindow::trainingStarted(int epochs, qint64 parameters, int vocabularySize, int trainSentences)
{
    m_epochs = epochs;
    const QLocale locale;
    const QString message = tr("Training %1 parameters on %2 sentences (%3 words in the vocabulary).")
                                .arg(locale.toString(parameters), locale.toString(trainSentences))
                                .arg(vocabularySize);
    m_lossSummary->setText(message);
    if (m_state == State::Training)
        statusBar()->showMessage(message);
}

void MainWindow::showBatch(const BatchProgress &progress)
{
    if (!isTraining() || progress.batchesPerEpoch <= 0)
        return;
    const double position = progress.epoch - 1 + double(progress.batch) / progress.batchesPerEpoch;
    m_lossPlot->addBatch(position, progress.loss);
    // After an epoch's last batch the trainer scores the validation split before reporting again.
    if (progress.batch == progress.batchesPerEpoch)
        m_progressLabel->setText(tr("Epoch %1/%2 · validating").arg(progress.epoch).arg(m_epochs));
    else
        m_progressLabel->setText(tr("Epoch %1/%2 · batch %3/%4")
                                     .arg(progress.epoch)
                                     .arg(m_epochs)
                                     .arg(progress.batch)
                                     .arg(progress.batchesPerEpoch));
    m_speedLabel->setText(tr("%1 sentences/s").arg(QLocale().toString(progress.samplesPerSecond, 'f', 0)));
    updateEta(progress);
    updateActions();
}

void MainWindow::updateEta(const BatchProgress &progress)
{
    const double done = (progress.epoch - 1 + double(progress.batch) / progress.batchesPerEpoch) / std::max(1, m_epochs);
    m_progress->setValue(int(done * m_progress->maximum()));
    qint64 activeMs = m_runClock.elapsed() - m_pausedMs;
    if (m_state == State::Paused)
        activeMs -= m_pauseClock.elapsed();
    if (done <= 0 || activeMs <= 0)
        return;
    const qint64 remaining = qint64(double(activeMs) * (1 - done) / done / 1000);
    m_etaLabel->setText(tr("ETA %1").arg(duration(remaining)));
    m_etaLabel->setToolTip(tr("Time left if every epoch runs; early stopping may end training sooner."));
}

void MainWindow::setPaused(bool paused)
{
    if (paused && m_state == State::Paused)
        statusBar()->showMessage(tr("Paused. Press Resume (F5) to continue or Stop (Esc) to end training."));
}

void MainWindow::addEpoch(const EpochStats &stats, bool isBest, const ModelSnapshot &snapshot)
{
    m_history.push_back(stats);
    m_lossPlot->addEpoch(stats, isBest);
    if (isBest)
        m_bestEpoch = stats.epoch;
    updateLossSummary();
    if (!snapshot)
        return;
    m_latest = snapshot;
    m_inference->setLatestModel(snapshot, describeEpoch(stats));
    if (isBest) {
        m_best = snapshot;
        m_modified = true;
        m_inference->setBestModel(snapshot, describeEpoch(stats));
        setCurrentFile(QString());
    }
    m_embeddings->setModel(snapshot, tr("Epoch %1").arg(stats.epoch));
    m_selfAttention->setModel(snapshot, tr("epoch %1").arg(stats.epoch));
    updateActions();
}

void MainWindow::updateLossSummary()
{
    if (m_history.empty())
        return;
    const EpochStats &last = m_history.back();
    QString text = tr("Epoch %1 of %2: training loss %3, validation loss %4, validation exact match <b>%5</b>.")
                       .arg(last.epoch)
                       .arg(m_epochs)
                       .arg(number(last.trainLoss), number(last.valLoss), percent(last.valExactMatch));
    if (m_bestEpoch > 0 && m_bestEpoch != last.epoch)
        text += QLatin1Char(' ') + tr("Best: epoch %1.").arg(m_bestEpoch);
    m_lossSummary->setText(text);
}

void MainWindow::finishTraining(const TrainingOutcome &outcome, const ModelSnapshot &best)
{
    if (best) {
        m_best = best;
        m_modified = true;
        const auto it = std::find_if(m_history.begin(), m_history.end(),
                                     [&](const EpochStats &s) { return s.epoch == outcome.bestEpoch; });
        m_inference->setBestModel(best, it != m_history.end() ? describeEpoch(*it)
                                                              : describeModel(*best, tr("Trained model")));
    }
    m_progress->setValue(m_progress->maximum());
    setState(State::Evaluating);
    statusBar()->showMessage(QString::fromStdString(outcome.message));
    if (!best)
        m_examples->showMessage(tr("No epoch completed, so there is no model to score."));
}

void MainWindow::evaluationStarted(int sentences)
{
    // Scoring of an opened model that was still queued when training began belongs to no one now.
    if (isTraining())
        return;
    m_examples->showMessage(tr("Scoring %1 test sentences…").arg(QLocale().toString(sentences)));
}

void MainWindow::showEvaluation(const EvaluationReport &report, const QString &analysisMarkdown)
{
    if (isTraining())
        return;
    m_examples->setReport(report);
    showMarkdown(m_analysis, analysisMarkdown);
    if (!m_examplesDock->visibleRegion().isEmpty() || !m_embeddingDock->visibleRegion().isEmpty())
        m_examplesDock->raise();
    statusBar()->showMessage(tr("Test set: exact match %1, token accuracy %2.")
                                 .arg(percent(report.exactMatch), percent(report.tokenAccuracy)));
}

void MainWindow::showEvaluationError(const QString &message)
{
    if (isTraining())
        return;
    m_examples->showMessage(tr("Cannot score this model: %1").arg(message));
    statusBar()->showMessage(tr("Cannot score this model: %1").arg(message), 10000);
}

void MainWindow::showTrainingError(const QString &message)
{
    setState(State::Idle);
    m_lossSummary->setText(tr("Training did not start."));
    m_examples->showMessage(tr("No evaluation: training did not run."));
    statusBar()->showMessage(tr("Training failed."), 10000);
    QMessageBox::warning(this, tr("Cannot Train"), message);
}

void MainWindow::runExperiments(const QVector<ModelConfig> &configs, int probeMaxLength)
{
    const DatasetConfig dataset = m_datasetPanel->config();
    QString problem = m_state != State::Idle ? tr("wait until the current work ends") : m_datasetPanel->problem();
    if (problem.isEmpty())
        problem = m_trainingPanel->problem();
    if (problem.isEmpty() && !dataset.corpusPath.empty())
        problem = tr("experiments generate their sentences so they can probe any length; choose the synthetic dataset");
    if (!problem.isEmpty()) {
        m_experiments->queueFinished(tr("Cannot run: %1.").arg(problem));
        return;
    }
    m_experiments->setTrainedRange(dataset.minLength, dataset.maxLength);
    setState(State::Comparing);
    statusBar()->showMessage(tr("Comparing %n configuration(s)…", nullptr, int(configs.size())));
    emit experimentsRequested(dataset, m_trainingPanel->trainingConfig(), configs, probeMaxLength);
}

void MainWindow::finishExperiments(const QString &message)
{
    m_experiments->queueFinished(message);
    setState(State::Idle);
    statusBar()->showMessage(message, 10000);
}

void MainWindow::workerIdle()
{
    m_pendingRequests = std::max(0, m_pendingRequests - 1);
    if (m_pendingRequests == 0)
        setState(State::Idle);
    else
        updateActions();
}

bool MainWindow::loadModelFile(const QString &path, QString *error)
{
    try {
        auto model = std::make_shared<const Seq2SeqModel>(Seq2SeqModel::load(QFile::encodeName(path).toStdString()));
        m_currentFile = path;
        useLoadedModel(model, QFileInfo(path).fileName());
        addRecentFile(path);
        return true;
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
}

bool MainWindow::loadBundledModel()
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
        auto model = std::make_shared<const Seq2SeqModel>(Seq2SeqModel::load(QFile::encodeName(path).toStdString()));
        m_currentFile.clear();
        useLoadedModel(model, tr("bundled default model"));
        return true;
    } catch (const std::exception &e) {
        statusBar()->showMessage(tr("The bundled model could not be read: %1").arg(QString::fromStdString(e.what())));
        return false;
    }
}

void MainWindow::useLoadedModel(const ModelSnapshot &model, const QString &origin)
{
    m_best = m_latest = model;
    m_modified = false;
    m_origin = origin;
    m_inference->setModel(model, describeModel(*model, origin));
    m_embeddings->setModel(model, origin);
    m_selfAttention->setModel(model, origin);
    m_lossPlot->setHistory(model->history);
    m_history = model->history;
    m_epochs = int(m_history.size());
    m_bestEpoch = 0;
    double bestLoss = 0;
    for (const EpochStats &stats : m_history)
        if (m_bestEpoch == 0 || stats.valLoss < bestLoss) {
            m_bestEpoch = stats.epoch;
            bestLoss = stats.valLoss;
        }
    if (m_history.empty())
        m_lossSummary->setText(tr("This model has no training history."));
    else
        updateLossSummary();
    m_analysis->clear();
    setCurrentFile(m_currentFile);
    requestEvaluation(model);
    updateActions();
}

void MainWindow::requestEvaluation(const ModelSnapshot &model)
{
    // The worker gets its own copy: the one shown here keeps decoding on this thread.
    m_examples->showMessage(tr("Scoring the test set…"));
    ++m_pendingRequests;
    emit evaluationRequested(std::make_shared<const Seq2SeqModel>(model->clone()));
}

bool MainWindow::saveModelFile(const QString &path, QString *error)
{
    if (!m_best) {
        if (error)
            *error = tr("There is no model to save yet.");
        return false;
    }
    try {
        m_best->save(QFile::encodeName(path).toStdString());
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return false;
    }
    m_modified = false;
    m_currentFile = path;
    m_origin = QFileInfo(path).fileName();
    setCurrentFile(path);
    addRecentFile(path);
    updateActions();
    return true;
}

void MainWindow::openModel()
{
    if (!maybeSave())
        return;
    QSettings settings;
    const QString dir = settings.value(QStringLiteral("lastDirectory"),
                                       QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation)).toString();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Model"), dir,
                                                      tr("AttnScope models (*.ckpt);;All files (*)"));
    if (!path.isEmpty())
        openRecent(path);
}

void MainWindow::openRecent(const QString &path)
{
    if (m_state != State::Idle || m_pendingRequests > 0)
        return;
    QSettings().setValue(QStringLiteral("lastDirectory"), QFileInfo(path).absolutePath());
    QString error;
    if (!loadModelFile(path, &error)) {
        QMessageBox::warning(this, tr("Cannot Open Model"),
                             tr("%1 could not be opened:\n\n%2").arg(QDir::toNativeSeparators(path), error));
        return;
    }
    // Show the settings the model was trained with, so training again reproduces it.
    m_datasetPanel->setConfig(m_best->datasetConfig);
    m_trainingPanel->setModelConfig(m_best->config());
    statusBar()->showMessage(tr("Opened %1.").arg(QDir::toNativeSeparators(path)), 5000);
}

bool MainWindow::save()
{
    if (m_currentFile.isEmpty())
        return saveAs();
    QString error;
    if (!saveModelFile(m_currentFile, &error)) {
        QMessageBox::warning(this, tr("Cannot Save Model"), error);
        return false;
    }
    statusBar()->showMessage(tr("Saved %1.").arg(QDir::toNativeSeparators(m_currentFile)), 5000);
    return true;
}

bool MainWindow::saveAs()
{
    if (!m_best)
        return false;
    QSettings settings;
    const QString dir = settings.value(QStringLiteral("lastDirectory"),
                                       QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation)).toString();
    const QString suggested = m_currentFile.isEmpty() ? QDir(dir).filePath(QStringLiteral("model.ckpt")) : m_currentFile;
    QString path = QFileDialog::getSaveFileName(this, tr("Save Model"), suggested,
                                                tr("AttnScope models (*.ckpt);;All files (*)"));
    if (path.isEmpty())
        return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".ckpt");
    settings.setValue(QStringLiteral("lastDirectory"), QFileInfo(path).absolutePath());
    QString error;
    if (!saveModelFile(path, &error)) {
        QMessageBox::warning(this, tr("Cannot Save Model"), error);
        return false;
    }
    statusBar()->showMessage(tr("Saved %1.").arg(QDir::toNativeSeparators(path)), 5000);
    return true;
}

bool MainWindow::maybeSave()
{
    if (!m_modified || !m_best)
        return true;
    const QString text = isTraining()
                             ? tr("Training is still running. Save the best model so far before it is stopped?")
                             : tr("The trained model has not been saved. Save it now?");
    const auto answer = QMessageBox::warning(this, tr("Unsaved Model"), text,
                                             QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel,
                                             QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    writeSettings();
    event->accept();
    emit closed();
}

void MainWindow::setCurrentFile(const QString &path)
{
    m_currentFile = path;
    QString name;
    if (!path.isEmpty())
        name = QFileInfo(path).fileName();
    else if (m_best && m_modified)
        name = tr("untitled model");
    else if (m_best)
        name = m_origin;
    setWindowTitle(name.isEmpty() ? tr("AttnScope") : tr("AttnScope — %1[*]").arg(name));
    if (!name.isEmpty())
        setWindowModified(m_modified);
}

void MainWindow::addRecentFile(const QString &path)
{
    QSettings settings;
    QStringList files = settings.value(QStringLiteral("recentFiles")).toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    settings.setValue(QStringLiteral("recentFiles"), files);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    int number = 0;
    for (const QString &file : files) {
        ++number;
        QAction *action = m_recentMenu->addAction(QStringLiteral("&%1 %2").arg(number).arg(QFileInfo(file).fileName()),
                                                  this, [this, file] {
                                                      if (maybeSave())
                                                          openRecent(file);
                                                  });
        action->setStatusTip(QDir::toNativeSeparators(file));
    }
    if (files.isEmpty()) {
        m_recentMenu->addAction(tr("No recent models"))->setEnabled(false);
        return;
    }
    m_recentMenu->addSeparator();
    m_recentMenu->addAction(tr("&Clear Menu"), this, [this] {
        QSettings().remove(QStringLiteral("recentFiles"));
        updateRecentMenu();
    });
}

QString MainWindow::askExportPath(const QString &title, const QString &defaultName, const QString &filters)
{
    QSettings settings;
    const QString dir = settings.value(QStringLiteral("exportDirectory"),
                                       QStandardPaths::writableLocation(QStandardPaths::PicturesLocation)).toString();
    QString selectedFilter;
    QString path = QFileDialog::getSaveFileName(this, title, QDir(dir).filePath(defaultName), filters, &selectedFilter);
    if (path.isEmpty())
        return {};
    if (QFileInfo(path).suffix().isEmpty()) {
        // "PNG image (*.png)" -> ".png"
        const int star = selectedFilter.indexOf(QStringLiteral("*."));
        const QString suffix = star >= 0 ? selectedFilter.mid(star + 1).section(QLatin1Char(')'), 0, 0).section(QLatin1Char(' '), 0, 0)
                                         : QStringLiteral(".") + QFileInfo(defaultName).suffix();
        path += suffix;
    }
    settings.setValue(QStringLiteral("exportDirectory"), QFileInfo(path).absolutePath());
    return path;
}

void MainWindow::reportExport(bool ok, const QString &path, const QString &error)
{
    if (ok)
        statusBar()->showMessage(tr("Exported %1.").arg(QDir::toNativeSeparators(path)), 5000);
    else
        QMessageBox::warning(this, tr("Export Failed"), error);
}

void MainWindow::exportHeatmap()
{
    if (!m_inference->hasSentence())
        return;
    const QString path = askExportPath(tr("Export Heatmap"), QStringLiteral("attention_heatmap.png"),
                                       tr("PNG image (*.png);;PDF document (*.pdf);;JPEG image (*.jpg)"));
    if (path.isEmpty())
        return;
    const QSize size = exportSize(m_inference->heatmap());
    QString error;
    const bool ok = m_inference->heatmap()->exportImage(path, size.width(), size.height(), &error);
    reportExport(ok, path, error);
}

void MainWindow::exportHeatmapCsv()
{
    if (!m_inference->hasSentence())
        return;
    const QString path = askExportPath(tr("Export Heatmap Data"), QStringLiteral("attention_heatmap.csv"),
                                       tr("CSV file (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    reportExport(m_inference->heatmap()->exportCsv(path, &error), path, error);
}

void MainWindow::exportLossPlot()
{
    const QString path = askExportPath(tr("Export Loss Curve"), QStringLiteral("loss.png"),
                                       tr("PNG image (*.png);;PDF document (*.pdf);;JPEG image (*.jpg)"));
    if (path.isEmpty())
        return;
    const QSize size = exportSize(m_lossPlot);
    QString error;
    reportExport(m_lossPlot->exportImage(path, size.width(), size.height(), &error), path, error);
}

void MainWindow::exportLossCsv()
{
    const QString path = askExportPath(tr("Export Loss History"), QStringLiteral("loss.csv"), tr("CSV file (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    reportExport(m_lossPlot->exportCsv(path, &error), path, error);
}

void MainWindow::exportEmbeddings()
{
    const QString path = askExportPath(tr("Export Embedding Plot"), QStringLiteral("embeddings.png"),
                                       tr("PNG image (*.png);;PDF document (*.pdf);;JPEG image (*.jpg)"));
    if (path.isEmpty())
        return;
    const QSize size = exportSize(m_embeddings->plot());
    QString error;
    reportExport(m_embeddings->plot()->exportImage(path, size.width(), size.height(), &error), path, error);
}

void MainWindow::about()
{
    QMessageBox::about(
        this, tr("About AttnScope"),
        tr("<h3>AttnScope %1</h3>"
           "<p>Train a small sequence-to-sequence network with attention to reverse the order of words, "
           "and look inside it: live loss curves, attention heatmaps and word embeddings.</p>"
           "<p>A GRU encoder and decoder with Bahdanau attention, trained with LibTorch on the CPU. "
           "Built with Qt %2 and QCustomPlot.</p>")
            .arg(QCoreApplication::applicationVersion(), QString::fromLatin1(qVersion())));
}
