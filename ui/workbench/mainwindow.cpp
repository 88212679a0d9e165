#include "ui/workbench/mainwindow.h"

#include "ui/core/guidepane.h"
#include "ui/core/plottheme.h"
#include "ui/workbench/document.h"
#include "ui/workbench/lab.h"
#include "ui/workbench/runprogress.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QKeySequence>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>

#include <algorithm>
#include <cmath>
#include <iterator>

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), m_run(new RunState(this)), m_document(new Document(this)),
      m_progress(new RunProgress(statusBar(), this)), m_tabs(new QTabWidget)
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("AttnScope"));
    setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);
    m_tabs->setObjectName(QStringLiteral("centralTabs"));
    m_tabs->setDocumentMode(true);
    setCentralWidget(m_tabs);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    followPlotTheme();
    createActions();

    connect(m_document, &Document::changed, this, &MainWindow::updateActions);
    connect(m_run, &RunState::trainingStarted, m_progress, &RunProgress::start);
    connect(m_run, &RunState::changed, this, [this] {
        m_progress->setVisible(m_run->isTraining());
        updateActions();
    });
}

MainWindow::~MainWindow() = default;

void MainWindow::addLab(Lab *lab)
{
    lab->setParent(this);
    m_labs << lab;
    for (const LabPage &page : lab->pages()) {
        m_tabs->addTab(page.widget, QString(page.title).remove(QLatin1Char('&')));
        m_tabLabs << lab;
        m_pagePolicies << page.widget->sizePolicy();
    }
    for (const LabDock &placed : lab->docks()) {
        if (placed.tabbedWith) {
            tabifyDockWidget(placed.tabbedWith, placed.dock);
        } else {
            addDockWidget(placed.area, placed.dock);
            (placed.area == Qt::LeftDockWidgetArea ? m_leftDocks : m_rightDocks) << placed.dock;
        }
        if (placed.front)
            m_frontDocks << placed.dock;
        m_docks << placed.dock;
        m_dockLabs.insert(placed.dock, lab);
    }
    connect(lab, &Lab::statusMessage, statusBar(), &QStatusBar::showMessage);
    connect(lab, &Lab::actionsChanged, this, &MainWindow::updateActions);
}

void MainWindow::finishSetup()
{
    createMenus();
    // Before the default sizes: the docks' room depends on the size of their text.
    setScale(QSettings().value(QStringLiteral("view/scale"), 1.0).toDouble());
    applyDefaultSizes();
    m_defaultState = saveState();
    readSettings();
    showDocksOf(m_tabLabs.value(m_tabs->currentIndex()));
    showToolsOf(m_tabLabs.value(m_tabs->currentIndex()));
    sizeToShownPage();
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int index) {
        sizeToShownPage();
        showDocksOf(m_tabLabs.value(index));
        showToolsOf(m_tabLabs.value(index));
        updateActions();
    });
    updateActions();
    statusBar()->showMessage(tr("Ready. Press Train (F5) to train a model, or type a sentence."));
}

QList<QAction *> MainWindow::runActions() const
{
    return {m_trainAction, m_pauseAction, m_resumeAction, m_stopAction};
}

void MainWindow::createActions()
{
    QStyle *s = style();
    m_openAction = new QAction(s->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open Model or Project…"), this);
    m_openAction->setShortcut(QKeySequence::Open);
    m_openAction->setStatusTip(tr("Open a project (.attnscope) or a trained model (.ckpt)."));
    connect(m_openAction, &QAction::triggered, m_document, &Document::openWithDialog);

    m_saveAction = new QAction(s->standardIcon(QStyle::SP_DialogSaveButton), tr("&Save Model"), this);
    m_saveAction->setShortcut(QKeySequence::Save);
    m_saveAction->setStatusTip(tr("Save the best model so far to a checkpoint file."));
    connect(m_saveAction, &QAction::triggered, m_document, &Document::save);

    m_saveAsAction = new QAction(tr("Save Model &As…"), this);
    m_saveAsAction->setShortcut(QKeySequence::SaveAs);
    connect(m_saveAsAction, &QAction::triggered, m_document, &Document::saveAs);

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
    m_zoomInAction->setShortcuts(QKeySequence::keyBindings(QKeySequence::ZoomIn) << QKeySequence(Qt::CTRL | Qt::Key_Equal));
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
    m_presentationAction->setStatusTip(tr("Large text, labels and lines for a projector, the setup out of the way; again for the desktop's size."));
    connect(m_presentationAction, &QAction::triggered, this,
            [this](bool on) { setScale(on ? kPresentationScale : 1); });

    for (QAction *action : runActions()) {
        const QString shortcuts = action->shortcut().toString(QKeySequence::NativeText);
        action->setToolTip(QStringLiteral("%1 (%2)").arg(action->text().remove(QLatin1Char('&')), shortcuts));
    }
}

void MainWindow::createMenus()
{
    m_fileMenu = menuBar()->addMenu(tr("&File"));
    m_fileMenu->addAction(m_openAction);
    m_fileMenu->addMenu(m_document->recentMenu());
    m_fileMenu->addAction(m_saveAction);
    m_fileMenu->addAction(m_saveAsAction);
    for (Lab *lab : std::as_const(m_labs))
        m_fileMenu->addActions(lab->fileActions());
    m_fileMenu->addSeparator();
    for (Lab *lab : std::as_const(m_labs))
        m_fileMenu->addActions(lab->exportActions());
    m_fileMenu->addSeparator();
    m_fileMenu->addAction(m_quitAction);

    QMenu *training = menuBar()->addMenu(tr("&Training"));
    training->addActions(runActions());

    QToolBar *toolBar = addToolBar(tr("Main"));
    toolBar->setObjectName(QStringLiteral("mainToolBar"));
    toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolBar->setMovable(false);
    toolBar->addAction(m_openAction);
    toolBar->addAction(m_saveAction);
    toolBar->addSeparator();
    toolBar->addActions(runActions());
    // The shown lab's main export beside them; the other labs' exports stay in the File menu.
    m_labToolBar = addToolBar(tr("Lab"));
    m_labToolBar->setObjectName(QStringLiteral("labToolBar"));
    m_labToolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_labToolBar->setMovable(false);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    for (QDockWidget *dock : std::as_const(m_docks))
        m_viewMenu->addAction(dock->toggleViewAction());
    m_viewMenu->addAction(toolBar->toggleViewAction());
    m_viewMenu->addAction(m_labToolBar->toggleViewAction());
    m_viewMenu->addSeparator();
    int page = 0;
    for (Lab *lab : std::as_const(m_labs))
        for (const LabPage &labPage : lab->pages()) {
            QAction *show = m_viewMenu->addAction(labPage.title, this, [this, page] { m_tabs->setCurrentIndex(page); });
            show->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + page)));
            ++page;
        }
    m_viewMenu->addSeparator();
    auto *guide = new GuidePane(this);  // the guide of the lab whose page is shown, in the last right dock's tabs
    addDockWidget(Qt::RightDockWidgetArea, guide);
    if (!m_rightDocks.isEmpty())
        tabifyDockWidget(m_rightDocks.constLast(), guide);
    guide->hide();
    m_viewMenu->addAction(guide->toggleViewAction());
    const auto followTab = [this, guide] {
        Lab *lab = m_tabLabs.value(m_tabs->currentIndex());
        guide->setGuide(lab ? lab->guide() : QString());
    };
    connect(m_tabs, &QTabWidget::currentChanged, guide, followTab);
    followTab();
    m_viewMenu->addAction(m_presentationAction);
    m_viewMenu->addAction(m_zoomInAction);
    m_viewMenu->addAction(m_zoomOutAction);
    m_viewMenu->addAction(m_actualSizeAction);
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(m_resetLayoutAction);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *aboutAction = help->addAction(tr("&About AttnScope"), this, &MainWindow::about);
    aboutAction->setMenuRole(QAction::AboutRole);
    QAction *aboutQt = help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
    aboutQt->setMenuRole(QAction::AboutQtRole);
}

void MainWindow::applyDefaultSizes()
{
    // The page gets the middle; the docks on the right grow with the screen.
    const QRect available = screen() ? screen()->availableGeometry() : QRect(0, 0, 1280, 800);
    const QSize size = available.size().boundedTo(QSize(std::max(1280, available.width() * 17 / 20),
                                                        std::max(800, available.height() * 17 / 20)));
    resize(size);
    move(available.center() - rect().center());
    fitSideDocks(size.width());
    if (m_rightDocks.size() > 1)
        resizeDocks(m_rightDocks, QList<int>(m_rightDocks.size(), size.height() / int(m_rightDocks.size())),
                    Qt::Vertical);
    for (QDockWidget *dock : std::as_const(m_frontDocks))
        dock->raise();
    showDocksOf(m_tabLabs.value(m_tabs->currentIndex()));
}

void MainWindow::readSettings()
{
    QSettings settings;
    for (Lab *lab : std::as_const(m_labs))
        lab->restoreSettings(settings);
    settings.beginGroup(QStringLiteral("window"));
    m_tabs->setCurrentIndex(settings.value(QStringLiteral("centralTab"), 0).toInt());
    restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("state")).toByteArray());
    settings.endGroup();
}

void MainWindow::writeSettings() const
{
    QSettings settings;
    for (Lab *lab : m_labs)
        lab->saveSettings(settings);
    settings.setValue(QStringLiteral("view/scale"), viewScale());
    settings.beginGroup(QStringLiteral("window"));
    settings.setValue(QStringLiteral("centralTab"), m_tabs->currentIndex());
    settings.setValue(QStringLiteral("geometry"), saveGeometry());
    settings.setValue(QStringLiteral("state"), saveState());
    settings.endGroup();
}

void MainWindow::resetLayout()
{
    restoreState(m_defaultState);
    for (QDockWidget *dock : std::as_const(m_docks))
        dock->show();
    for (QDockWidget *dock : std::as_const(m_frontDocks))
        dock->raise();
}

void MainWindow::setScale(double scale)
{
    // The nearest of the steps: a hand-edited setting cannot make the window unusable.
    const double *nearest = std::min_element(std::begin(kScales), std::end(kScales), [scale](double a, double b) {
        return std::abs(a - scale) < std::abs(b - scale);
    });
    const bool changed = *nearest != viewScale();
    setViewScale(*nearest);
    if (changed && isVisible())
        QTimer::singleShot(0, this, &MainWindow::fitToScreen);  // once the layouts have taken the new fonts
    m_zoomInAction->setEnabled(*nearest < kScales[std::size(kScales) - 1]);
    m_zoomOutAction->setEnabled(*nearest > kScales[0]);
    m_presentationAction->setChecked(*nearest == kPresentationScale);
    if (m_presenting != (*nearest == kPresentationScale))
        setPresenting(!m_presenting);
}

void MainWindow::setPresenting(bool on)
{
    // While presenting, the docks on the left (a lab's setup) give their room to the page, which
    // the audience reads; they come back afterwards.
    m_presenting = on;
    if (on) {
        for (QDockWidget *dock : std::as_const(m_leftDocks))
            if (!dock->isHidden()) {
                m_awayWhilePresenting.insert(dock);
                dock->hide();
            }
    } else {
        for (QDockWidget *dock : std::as_const(m_awayWhilePresenting))
            dock->show();
        m_awayWhilePresenting.clear();
    }
}

void MainWindow::fitSideDocks(int windowWidth)
{
    // The docks on the right grow with the screen. With larger text the page keeps its room: the
    // setup on the left, not needed while presenting, takes only what its own text needs.
    const bool scaledUp = viewScale() > 1;
    QList<QDockWidget *> sides;
    QList<int> widths;
    for (const QList<QDockWidget *> *side : {&m_leftDocks, &m_rightDocks}) {
        const auto shown = std::find_if(side->begin(), side->end(), [](QDockWidget *dock) { return !dock->isHidden(); });
        if (shown == side->end())
            continue;
        sides << *shown;
        if (side == &m_leftDocks)
            widths << (scaledUp ? (*shown)->minimumSizeHint().width() : std::clamp(windowWidth / 4, 300, 380));
        else
            widths << std::clamp(windowWidth * 7 / 20, 430, 640);
    }
    resizeDocks(sides, widths, Qt::Horizontal);
}

void MainWindow::fitToScreen()
{
    const QScreen *shown = screen();
    if (!shown || isMaximized() || isFullScreen())
        return;
    const QRect available = shown->availableGeometry();
    fitSideDocks(width());
    const QSize frame = frameGeometry().size() - size();
    resize(size().boundedTo(available.size() - frame));
    const QRect placed = frameGeometry();
    if (!available.contains(placed))
        move(available.topLeft() + QPoint(std::max(0, (available.width() - placed.width()) / 2),
                                          std::max(0, (available.height() - placed.height()) / 2)));
}

void MainWindow::zoom(int steps)
{
    // setScale() keeps the view scale on one of the steps.
    const std::ptrdiff_t at = std::find(std::begin(kScales), std::end(kScales), viewScale()) - std::begin(kScales);
    setScale(kScales[std::clamp<std::ptrdiff_t>(at + steps, 0, std::ptrdiff_t(std::size(kScales)) - 1)]);
}

Lab *MainWindow::trainingLab() const
{
    Lab *shown = m_tabLabs.value(m_tabs->currentIndex());
    if (shown && shown->trains())
        return shown;
    const auto found = std::find_if(m_labs.begin(), m_labs.end(), [](Lab *lab) { return lab->trains(); });
    return found == m_labs.end() ? nullptr : *found;
}

void MainWindow::showToolsOf(Lab *lab)
{
    m_labToolBar->clear();
    if (lab && !lab->exportActions().isEmpty())
        m_labToolBar->addAction(lab->exportActions().constFirst());
}

void MainWindow::showDocksOf(Lab *lab)
{
    // A lab with docks of its own gets the window's sides: the other labs' docks make room and come
    // back with their pages. A lab without docks shares the window with what is there.
    if (!lab || lab->docks().isEmpty())
        return;
    for (QDockWidget *dock : std::as_const(m_docks)) {
        const bool wanted = m_dockLabs.value(dock) == lab;
        if (m_presenting && m_leftDocks.contains(dock)) {
            if (wanted)
                m_awayWhilePresenting.insert(dock);
            else
                m_awayWhilePresenting.remove(dock);
            dock->hide();
        } else {
            dock->setVisible(wanted);
        }
    }
    for (QDockWidget *dock : std::as_const(m_frontDocks))
        if (m_dockLabs.value(dock) == lab)
            dock->raise();
}

void MainWindow::sizeToShownPage()
{
    // A stack of pages is as large as its largest page: hidden pages would keep the window wider
    // than a 1280-pixel projector once the text is scaled up. Ignored, they ask for no room.
    for (int i = 0; i < m_tabs->count(); ++i)
        m_tabs->widget(i)->setSizePolicy(i == m_tabs->currentIndex()
                                             ? m_pagePolicies.at(i)
                                             : QSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored));
}

void MainWindow::updateActions()
{
    const bool idle = m_run->phase() == RunState::Phase::Idle;
    Lab *lab = trainingLab();
    const QString problem = lab ? lab->trainProblem() : tr("no lab trains");
    m_trainAction->setEnabled(idle && problem.isEmpty());
    m_trainAction->setStatusTip(problem.isEmpty() ? tr("Train a new model with the settings on the left (F5).")
                                                  : tr("Cannot train: %1").arg(problem));
    m_pauseAction->setEnabled(m_run->phase() == RunState::Phase::Training);
    m_resumeAction->setEnabled(m_run->phase() == RunState::Phase::Paused);
    m_stopAction->setEnabled(m_run->phase() == RunState::Phase::Training || m_run->phase() == RunState::Phase::Paused);
    m_openAction->setEnabled(m_run->isQuiet());
    m_document->recentMenu()->setEnabled(m_run->isQuiet());
    m_saveAction->setEnabled(m_document->hasContent());
    m_saveAsAction->setEnabled(m_document->hasContent());
    if (windowTitle().contains(QLatin1String("[*]")))
        setWindowModified(m_document->isModified());
}

void MainWindow::train()
{
    Lab *lab = trainingLab();
    if (!lab || m_run->phase() != RunState::Phase::Idle)
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
    if (m_run->phase() != RunState::Phase::Training && m_run->phase() != RunState::Phase::Paused)
        return;
    m_progress->setPaused(false);
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
    if (!m_document->maybeSave(m_run->isTraining())) {
        event->ignore();
        return;
    }
    writeSettings();
    event->accept();
    emit closed();
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
