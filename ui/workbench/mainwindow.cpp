#include "ui/workbench/mainwindow.h"

#include "ui/core/guidepane.h"
#include "ui/core/plottheme.h"
#include "ui/workbench/document.h"
#include "ui/workbench/exerciseguide.h"
#include "ui/workbench/jobrunner.h"
#include "ui/workbench/lab.h"
#include "ui/workbench/labswitcher.h"
#include "ui/workbench/runprogress.h"
#include "ui/workbench/startpage.h"
#include "ui/workbench/workbenchfiles.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QKeySequence>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QToolBar>

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), m_run(new RunState(this)), m_progress(new RunProgress(statusBar(), this)),
      m_files(new WorkbenchFiles(this)), m_stack(new QStackedWidget), m_startPage(new StartPage),
      m_switcher(new LabSwitcher(this)), m_guide(new GuidePane(this)),
      m_exercise(new ExerciseGuide(m_guide, m_run, this))
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("AttnScope"));
    setAcceptDrops(true);
    setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);
    m_stack->setObjectName(QStringLiteral("labStack"));
    m_stack->addWidget(m_startPage);
    setCentralWidget(m_stack);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    addToolBar(Qt::LeftToolBarArea, m_switcher);
    followPlotTheme();
    createActions();
    m_switcher->addEntry(m_startPageAction->icon(), tr("Start"), tr("The start page: every lab and what it teaches"));

    connect(m_switcher, &LabSwitcher::chosen, this, [this](int entry) { showRoom(entry - 1); });
    connect(m_startPage, &StartPage::labChosen, this, [this](int index) { showRoom(index); });
    connect(m_files, &WorkbenchFiles::changed, this, [this] {
        updateActions();
        updateTitle();
    });
    connect(m_files, &WorkbenchFiles::openingLab, this, [this](Lab *lab) { showLab(lab); });
    connect(m_run, &RunState::trainingStarted, m_progress, &RunProgress::start);
    connect(m_run, &RunState::changed, this, [this] {
        m_progress->setVisible(m_run->isTraining());
        for (int i = 0; i < m_rooms.size(); ++i)
            m_switcher->setBusy(i + 1, m_run->owner() == m_rooms[i].lab && m_run->phase() != RunState::Phase::Idle);
        updateActions();
    });
    // The answers belong under the exercise's question, which shows only while its lab does; they
    // come to the front, as the docks of the run's results do.
    connect(m_exercise, &ExerciseGuide::answered, this, [this] {
        if (shownLab() != m_exercise->lab())
            return;
        m_guide->setGuide(m_exercise->markdown());
        if (m_guide->toggleViewAction()->isChecked())  // open, if behind another dock's tab
            m_guide->raise();
        m_guide->scrollTo(ExerciseGuide::answersHeading());
    });
}

MainWindow::~MainWindow() = default;

QList<QAction *> MainWindow::runActions() const
{
    return {m_trainAction, m_pauseAction, m_resumeAction, m_stopAction};
}

void MainWindow::submit(Lab *lab, LabJob job, RunState::Phase phase)
{
    m_run->submitted(lab, phase);
    // A window without a runner (under test) runs nothing: the run stays pending until told otherwise.
    if (m_runner)
        m_runner->run(lab, std::move(job), phase != RunState::Phase::Idle);
}

Document *MainWindow::document(const Lab *lab) const
{
    return m_files->document(lab);
}

void MainWindow::forOtherLabs(const Lab *from, const std::function<void(Lab *)> &give) const
{
    for (const Room &room : std::as_const(m_rooms))
        if (room.lab != from)
            give(room.lab);
}

void MainWindow::shareEmbeddings(const Lab *from, const SharedEmbeddings &embeddings)
{
    forOtherLabs(from, [&](Lab *lab) { lab->takeEmbeddings(embeddings); });
}

void MainWindow::shareRun(const Lab *from, const SharedRun &run)
{
    forOtherLabs(from, [&](Lab *lab) { lab->takeRun(run); });
}

void MainWindow::shareDecoder(const Lab *from, const SharedDecoder &decoder)
{
    forOtherLabs(from, [&](Lab *lab) { lab->takeDecoder(decoder); });
}

bool MainWindow::shareAttentionHead(const Lab *from, const SharedAttentionHead &head)
{
    for (int i = 0; i < m_rooms.size(); ++i)
        if (m_rooms[i].lab != from && m_rooms[i].lab->takeAttentionHead(head)) {
            showRoom(i);
            return true;
        }
    return false;
}

bool MainWindow::saveAs(Lab *lab, const FileType &type)
{
    return m_files->saveAs(lab, &type);
}

void MainWindow::createActions()
{
    QStyle *s = style();
    m_openAction = new QAction(s->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open…"), this);
    m_openAction->setObjectName(QStringLiteral("openAction"));
    m_openAction->setShortcut(QKeySequence::Open);
    m_openAction->setStatusTip(tr("Open a project, a model or word vectors: the file opens in its lab."));
    connect(m_openAction, &QAction::triggered, this, [this] { m_files->openWithDialog(shownLab()); });

    m_saveAction = new QAction(s->standardIcon(QStyle::SP_DialogSaveButton), tr("&Save"), this);
    m_saveAction->setObjectName(QStringLiteral("saveAction"));
    m_saveAction->setShortcut(QKeySequence::Save);
    connect(m_saveAction, &QAction::triggered, this, [this] { m_files->save(shownLab()); });

    m_saveAsAction = new QAction(tr("Save &As…"), this);
    m_saveAsAction->setObjectName(QStringLiteral("saveAsAction"));
    m_saveAsAction->setShortcut(QKeySequence::SaveAs);
    connect(m_saveAsAction, &QAction::triggered, this, [this] { m_files->saveAs(shownLab()); });

    m_quitAction = new QAction(tr("&Quit"), this);
    m_quitAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    m_quitAction->setMenuRole(QAction::QuitRole);
    connect(m_quitAction, &QAction::triggered, this, &QWidget::close);

    m_trainAction = new QAction(s->standardIcon(QStyle::SP_MediaPlay), tr("&Train"), this);
    m_trainAction->setObjectName(QStringLiteral("trainAction"));
    m_trainAction->setShortcut(QKeySequence(Qt::Key_F5));
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

    m_zoomInAction = new QAction(tr("Zoom &In"), this);
    m_zoomInAction->setObjectName(QStringLiteral("zoomInAction"));
    // Ctrl+= as well: on most keyboards + needs Shift, and browsers take both.
    m_zoomInAction->setShortcuts(QKeySequence::keyBindings(QKeySequence::ZoomIn)
                                 << QKeySequence(Qt::CTRL | Qt::Key_Equal));
    m_zoomInAction->setStatusTip(tr("Make all text, plot labels, lines and markers larger."));
    connect(m_zoomInAction, &QAction::triggered, this, [this] { zoom(1); });

    m_zoomOutAction = new QAction(tr("Zoom &Out"), this);
    m_zoomOutAction->setObjectName(QStringLiteral("zoomOutAction"));
    m_zoomOutAction->setShortcuts(QKeySequence::ZoomOut);
    m_zoomOutAction->setStatusTip(tr("Make all text, plot labels, lines and markers smaller."));
    connect(m_zoomOutAction, &QAction::triggered, this, [this] { zoom(-1); });

    m_actualSizeAction = new QAction(tr("&Actual Size"), this);
    m_actualSizeAction->setObjectName(QStringLiteral("actualSizeAction"));
    m_actualSizeAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    m_actualSizeAction->setStatusTip(tr("Draw text and plots at the desktop's own size."));
    connect(m_actualSizeAction, &QAction::triggered, this, [this] { setScale(1); });

    m_presentationAction = new QAction(tr("&Presentation"), this);
    m_presentationAction->setObjectName(QStringLiteral("presentationAction"));
    m_presentationAction->setCheckable(true);
    m_presentationAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    m_presentationAction->setStatusTip(tr("Large text, labels and lines for a projector, the setup out of the way; "
                                          "again for the desktop's size."));
    connect(m_presentationAction, &QAction::triggered, this,
            [this](bool on) { setScale(on ? kPresentationScale : 1); });

    m_startPageAction = new QAction(s->standardIcon(QStyle::SP_DirHomeIcon), tr("&Start Page"), this);
    m_startPageAction->setObjectName(QStringLiteral("startPageAction"));
    m_startPageAction->setStatusTip(tr("Every lab with what you learn there."));
    connect(m_startPageAction, &QAction::triggered, this, [this] { showRoom(-1); });

    m_nextPageAction = new QAction(tr("&Next Page"), this);
    m_nextPageAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_PageDown));
    m_previousPageAction = new QAction(tr("P&revious Page"), this);
    m_previousPageAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_PageUp));
    for (QAction *action : {m_nextPageAction, m_previousPageAction})
        connect(action, &QAction::triggered, this, [this, action] {
            const Room *room = shownRoom();
            if (!room || !room->tabs)
                return;
            const int step = action == m_nextPageAction ? 1 : room->tabs->count() - 1;
            room->tabs->setCurrentIndex((room->tabs->currentIndex() + step) % room->tabs->count());
        });

    for (QAction *action : runActions()) {
        const QString shortcuts = action->shortcut().toString(QKeySequence::NativeText);
        action->setToolTip(QStringLiteral("%1 (%2)").arg(action->text().remove(QLatin1Char('&')), shortcuts));
    }
}

void MainWindow::createMenus()
{
    m_fileMenu = menuBar()->addMenu(tr("&File"));
    m_exportMenu = new QMenu(tr("&Export"), this);
    m_exportMenu->setObjectName(QStringLiteral("exportMenu"));

    m_trainingMenu = menuBar()->addMenu(tr("&Training"));
    m_trainingMenu->addActions(runActions());

    m_mainToolBar = addToolBar(tr("Main"));
    m_mainToolBar->setObjectName(QStringLiteral("mainToolBar"));
    m_mainToolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_mainToolBar->setMovable(false);
    m_mainToolBar->addAction(m_openAction);
    m_mainToolBar->addAction(m_saveAction);
    m_mainToolBar->addSeparator();
    m_mainToolBar->addActions(runActions());
    m_labToolBar = addToolBar(tr("Lab"));
    m_labToolBar->setObjectName(QStringLiteral("labToolBar"));
    m_labToolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_labToolBar->setMovable(false);

    m_viewMenu = menuBar()->addMenu(tr("&View"));

    QMenu *labs = menuBar()->addMenu(tr("&Labs"));
    labs->addAction(m_startPageAction);
    for (int i = 0; i < m_rooms.size(); ++i) {
        QAction *show = labs->addAction(m_switcher->entry(i + 1)->icon(), m_rooms[i].info.name, this,
                                        [this, i] { showRoom(i); });
        show->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
        m_switcher->entry(i + 1)->setToolTip(QStringLiteral("%1 (%2)").arg(
            m_switcher->entry(i + 1)->toolTip(), show->shortcut().toString(QKeySequence::NativeText)));
    }
    labs->addSeparator();
    labs->addAction(m_nextPageAction);
    labs->addAction(m_previousPageAction);

    addDockWidget(Qt::RightDockWidgetArea, m_guide);  // the shown lab's guide
    if (!m_rightDocks.isEmpty())
        tabifyDockWidget(m_rightDocks.constLast(), m_guide);
    m_guide->hide();

    QMenu *course = menuBar()->addMenu(tr("&Course"));
    m_exercisesMenu = course->addMenu(tr("&Exercises"));
    m_exercisesMenu->setObjectName(QStringLiteral("exercisesMenu"));

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(m_guide->toggleViewAction());
    help->addAction(m_startPageAction);
    help->addSeparator();
    QAction *aboutAction = help->addAction(tr("&About AttnScope"), this, &MainWindow::about);
    aboutAction->setMenuRole(QAction::AboutRole);
    QAction *aboutQt = help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
    aboutQt->setMenuRole(QAction::AboutQtRole);
}

void MainWindow::fillLabMenus()
{
    const Room *room = shownRoom();
    m_fileMenu->clear();
    m_fileMenu->addAction(m_openAction);
    m_fileMenu->addMenu(m_files->recentMenu());
    m_fileMenu->addAction(m_saveAction);
    m_fileMenu->addAction(m_saveAsAction);
    m_exportMenu->clear();
    m_labToolBar->clear();
    if (room) {
        m_fileMenu->addActions(room->lab->fileActions());
        m_exportMenu->addActions(room->lab->exportActions());
        m_labToolBar->addActions(room->lab->toolBarActions());
    }
    m_fileMenu->addSeparator();
    m_fileMenu->addMenu(m_exportMenu);
    m_exportMenu->setEnabled(!m_exportMenu->isEmpty());
    m_fileMenu->addSeparator();
    m_fileMenu->addAction(m_quitAction);

    m_viewMenu->clear();
    if (room)
        for (QDockWidget *dock : room->docks)
            m_viewMenu->addAction(dock->toggleViewAction());
    m_viewMenu->addAction(m_mainToolBar->toggleViewAction());
    m_viewMenu->addAction(m_labToolBar->toggleViewAction());
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(m_guide->toggleViewAction());
    m_viewMenu->addAction(m_presentationAction);
    m_viewMenu->addAction(m_zoomInAction);
    m_viewMenu->addAction(m_zoomOutAction);
    m_viewMenu->addAction(m_actualSizeAction);
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(m_resetLayoutAction);
}

void MainWindow::updateActions()
{
    const bool idle = m_run->phase() == RunState::Phase::Idle;
    Lab *lab = shownLab();
    const QString problem = !lab ? tr("choose a lab first") : !lab->trains() ? tr("this lab does not train")
                                                                             : lab->trainProblem();
    // A lab that does not train shows no run controls, unless another lab's run is going on.
    const bool runControls = (lab && lab->trains()) || !idle;
    for (QAction *action : runActions())
        action->setVisible(runControls);
    m_trainingMenu->menuAction()->setVisible(runControls);
    m_trainAction->setEnabled(idle && problem.isEmpty());
    m_trainAction->setStatusTip(problem.isEmpty() ? tr("Train a new model with the settings on the left (F5).")
                                                  : tr("Cannot train: %1").arg(problem));
    m_pauseAction->setEnabled(m_run->phase() == RunState::Phase::Training);
    m_resumeAction->setEnabled(m_run->phase() == RunState::Phase::Paused);
    m_stopAction->setEnabled(m_run->phase() == RunState::Phase::Training || m_run->phase() == RunState::Phase::Paused);
    m_openAction->setEnabled(m_run->isQuiet());
    m_files->recentMenu()->setEnabled(m_run->isQuiet());
    const Document *document = m_files->document(lab);
    m_saveAction->setText(document ? tr("&Save %1").arg(document->documentName()) : tr("&Save"));
    m_saveAsAction->setText(document ? tr("Save %1 &As…").arg(document->documentName()) : tr("Save &As…"));
    m_saveAction->setEnabled(document && document->hasContent());
    m_saveAsAction->setEnabled(document && document->hasContent());
    const QString saveTip = !document ? tr("This lab keeps no files.")
                                      : tr("Save the %1 to a file.").arg(document->documentName().toLower());
    m_saveAction->setStatusTip(saveTip);
    m_saveAsAction->setStatusTip(saveTip);
    setWindowModified(document && document->isModified());
}

void MainWindow::updateTitle()
{
    const Room *room = shownRoom();
    const Document *document = room ? m_files->document(room->lab) : nullptr;
    const QString file = document ? document->title() : QString();
    if (!room)
        setWindowTitle(tr("AttnScope"));
    else if (file.isEmpty())
        setWindowTitle(tr("%1 — AttnScope").arg(room->info.name));
    else
        setWindowTitle(tr("%1[*] — %2 — AttnScope").arg(file, room->info.name));
    setWindowModified(document && document->isModified());
}

void MainWindow::train()
{
    Lab *lab = shownLab();
    if (!lab || !lab->trains() || m_run->phase() != RunState::Phase::Idle)
        return;
    const QString problem = lab->trainProblem();
    if (!problem.isEmpty()) {
        statusBar()->showMessage(tr("Cannot train: %1").arg(problem), 8000);
        return;
    }
    lab->train();
}

void MainWindow::pause()
{
    if (m_run->phase() != RunState::Phase::Training)
        return;
    m_progress->setPaused(true);
    m_run->setPhase(RunState::Phase::Paused);
    statusBar()->showMessage(tr("Paused. Press Resume (F5) to continue or Stop (Esc) to end training."));
    emit pauseRequested();
}

void MainWindow::resume()
{
    if (m_run->phase() != RunState::Phase::Paused)
        return;
    m_progress->setPaused(false);
    m_run->setPhase(RunState::Phase::Training);
    statusBar()->showMessage(tr("Training…"));
    emit resumeRequested();
}

void MainWindow::stop()
{
    const RunState::Phase phase = m_run->phase();
    if (phase != RunState::Phase::Training && phase != RunState::Phase::Paused && phase != RunState::Phase::Comparing)
        return;
    m_progress->setPaused(false);
    if (phase != RunState::Phase::Comparing)
        m_run->setPhase(RunState::Phase::Stopping);
    statusBar()->showMessage(tr("Stopping after the current batch…"));
    emit stopRequested();
}

void MainWindow::setPaused(bool paused)
{
    if (paused && m_run->phase() == RunState::Phase::Paused)
        statusBar()->showMessage(tr("Paused. Press Resume (F5) to continue or Stop (Esc) to end training."));
}

void MainWindow::showBatch(const BatchProgress &progress)
{
    if (m_run->isTraining())
        m_progress->showBatch(progress);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!m_files->confirmClose(m_run->isTraining())) {
        event->ignore();
        return;
    }
    writeSettings();
    event->accept();
    emit closed();
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.first().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.first().isLocalFile())
        return;
    event->acceptProposedAction();
    if (!m_run->isQuiet()) {
        statusBar()->showMessage(tr("Wait until the current work ends to open a file."), 8000);
        return;
    }
    m_files->open(urls.first().toLocalFile());
}

void MainWindow::about()
{
    QMessageBox::about(
        this, tr("About AttnScope"),
        tr("<h3>AttnScope %1</h3>"
           "<p>A workbench of labs for learning how neural sequence models work: train them and look "
           "inside. The attention lab trains a GRU encoder and decoder with attention to reverse the "
           "order of words, with live loss curves, attention heatmaps and word embeddings; the "
           "self-attention explorer computes scaled dot-product attention step by step; the "
           "word-embedding lab trains word2vec and maps the words as meaning appears; the character "
           "lab trains an RNN to write and shows what its units track.</p>"
           "<p>Trained with LibTorch on the CPU. Built with Qt %2 and QCustomPlot.</p>")
            .arg(QCoreApplication::applicationVersion(), QString::fromLatin1(qVersion())));
}
