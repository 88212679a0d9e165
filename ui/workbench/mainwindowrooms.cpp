// MainWindow's rooms: one lab at a time in the middle with its docks, the start page, the layout
// and scale of the view, and the settings that keep them.
#include "ui/workbench/mainwindow.h"

#include "ui/core/guidepane.h"
#include "ui/workbench/exerciseguide.h"
#include "ui/core/plottheme.h"
#include "ui/core/svgicon.h"
#include "ui/workbench/lab.h"
#include "ui/workbench/labswitcher.h"
#include "ui/workbench/startpage.h"
#include "ui/workbench/workbenchfiles.h"

#include <QDockWidget>
#include <QMenu>
#include <QScreen>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <iterator>

void MainWindow::addLab(const LabInfo &info, Lab *lab)
{
    lab->setParent(this);
    Room room;
    room.info = info;
    room.lab = lab;
    const QList<LabPage> pages = lab->pages();
    if (pages.size() == 1) {
        room.page = pages.first().widget;
    } else {
        room.tabs = new QTabWidget;
        room.tabs->setObjectName(info.id + QStringLiteral("Pages"));
        room.tabs->setDocumentMode(true);
        for (const LabPage &page : pages) {
            room.tabs->addTab(page.widget, page.title);
            room.pagePolicies << page.widget->sizePolicy();
        }
        connect(room.tabs, &QTabWidget::currentChanged, this, &MainWindow::sizeToShownPage);
        room.page = room.tabs;
    }
    room.pagePolicies.prepend(room.page->sizePolicy());
    m_stack->addWidget(room.page);
    for (const LabDock &placed : lab->docks()) {
        if (placed.tabbedWith) {
            tabifyDockWidget(placed.tabbedWith, placed.dock);
        } else {
            addDockWidget(placed.area, placed.dock);
            (placed.area == Qt::LeftDockWidgetArea ? m_leftDocks : m_rightDocks) << placed.dock;
        }
        if (placed.front)
            m_frontDocks << placed.dock;
        room.docks << placed.dock;
    }
    m_files->addLab(lab, info);
    m_startPage->addLab(info);
    m_switcher->addEntry(svgIcon(info.resource(QStringLiteral("icon.svg"))), info.switcherName,
                         tr("%1: %2").arg(info.name, info.summary));
    connect(lab, &Lab::statusMessage, statusBar(), &QStatusBar::showMessage);
    connect(lab, &Lab::actionsChanged, this, &MainWindow::updateActions);
    m_rooms << room;
}

void MainWindow::finishSetup()
{
    createMenus();
    // Before the default sizes: the docks' room depends on the size of their text.
    setScale(QSettings().value(QStringLiteral("view/scale"), 1.0).toDouble());
    applyDefaultSizes();
    m_defaultState = saveState();
    readSettings();
    updateActions();
    statusBar()->showMessage(tr("Ready. Choose a lab, then press Train (F5) to train its model."));
}

void MainWindow::addExercise(const QString &title, Lab *lab, const QString &guide,
                             const std::function<QWidget *()> &open, const std::function<QString()> &answer)
{
    QAction *exercise = m_exercisesMenu->addAction(title, this, [this, lab, guide, open, answer] {
        showLab(lab);
        if (QWidget *page = open ? open() : nullptr)
            showPage(page);
        m_exercise->open(lab, guide, answer);  // after the lab and page: showing a lab shows its own guide
        statusBar()->showMessage(open ? tr("The exercise is set up: what to do next is in the guide.")
                                      : tr("The exercise's task and settings are in the guide."));
    });
    m_startPage->addExercise(exercise);
}

QList<Lab *> MainWindow::labs() const
{
    QList<Lab *> labs;
    for (const Room &room : m_rooms)
        labs << room.lab;
    return labs;
}

const LabInfo *MainWindow::infoOf(const Lab *lab) const
{
    const int index = roomOf(lab);
    return index < 0 ? nullptr : &m_rooms[index].info;
}

int MainWindow::roomOf(const Lab *lab) const
{
    for (int i = 0; i < m_rooms.size(); ++i)
        if (m_rooms[i].lab == lab)
            return i;
    return -1;
}

const MainWindow::Room *MainWindow::shownRoom() const
{
    return m_shown < 0 ? nullptr : &m_rooms[m_shown];
}

Lab *MainWindow::shownLab() const
{
    return m_shown < 0 ? nullptr : m_rooms[m_shown].lab;
}

void MainWindow::showLab(Lab *lab)
{
    showRoom(roomOf(lab));
}

bool MainWindow::isStartPageShown() const
{
    return m_shown < 0;
}

QWidget *MainWindow::shownPage() const
{
    const Room *room = shownRoom();
    if (!room)
        return m_startPage;
    return room->tabs ? room->tabs->currentWidget() : room->page;
}

void MainWindow::showPage(QWidget *page)
{
    for (int i = 0; i < m_rooms.size(); ++i) {
        const Room &room = m_rooms[i];
        if (room.page == page || (room.tabs && room.tabs->indexOf(page) >= 0)) {
            showRoom(i);
            if (room.tabs && room.page != page)
                room.tabs->setCurrentWidget(page);
            return;
        }
    }
}

void MainWindow::showRoom(int index)
{
    if (index >= m_rooms.size())
        index = -1;
    if (index != m_shown) {
        leaveRoom();
        statusBar()->clearMessage();  // a message belongs to the lab that showed it
    }
    m_shown = index;
    const Room *room = shownRoom();
    m_stack->setCurrentWidget(room ? room->page : static_cast<QWidget *>(m_startPage));
    m_switcher->setCurrent(index + 1);
    sizeToShownPage();
    showDocksOf(room);
    if (room)
        restoreDockWidths(*room);
    fillLabMenus();
    m_guide->setGuide(room ? GuidePane::read(room->info.resource(QStringLiteral("guide.md")))
                           : tr("Choose a lab on the start page: each has a guide of its own."));
    updateActions();
    updateTitle();
}

void MainWindow::leaveRoom()
{
    if (m_shown < 0)
        return;
    // The docks the user closed stay closed when the lab comes back; presentation mode's are not theirs.
    Room &room = m_rooms[m_shown];
    room.hiddenDocks.clear();
    room.widths.clear();
    for (QDockWidget *dock : std::as_const(room.docks)) {
        if (dock->isHidden() && !m_awayWhilePresenting.contains(dock))
            room.hiddenDocks.insert(dock->objectName());
        else if (!dock->isHidden() && !dock->isFloating())
            room.widths.insert(dock, dock->width());
    }
}

void MainWindow::restoreDockWidths(const Room &room)
{
    // The other labs' docks took the sides meanwhile, and a side left empty forgets its width.
    if (room.widths.isEmpty()) {
        fitSideDocks(width());
        return;
    }
    QList<QDockWidget *> docks;
    QList<int> widths;
    for (auto dock = room.widths.cbegin(); dock != room.widths.cend(); ++dock)
        if (!dock.key()->isHidden()) {
            docks << dock.key();
            widths << dock.value();
        }
    resizeDocks(docks, widths, Qt::Horizontal);
}

void MainWindow::showDocksOf(const Room *room)
{
    for (const Room &other : std::as_const(m_rooms))
        for (QDockWidget *dock : other.docks) {
            const bool wanted = &other == room && !other.hiddenDocks.contains(dock->objectName());
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
    if (room)
        for (QDockWidget *dock : std::as_const(m_frontDocks))
            if (room->docks.contains(dock))
                dock->raise();
}

void MainWindow::sizeToShownPage()
{
    // A stack of pages is as large as its largest page: hidden pages would keep the window wider
    // than a 1280-pixel projector once the text is scaled up. Ignored, they ask for no room.
    const QSizePolicy ignored(QSizePolicy::Ignored, QSizePolicy::Ignored);
    for (int i = 0; i < m_rooms.size(); ++i) {
        Room &room = m_rooms[i];
        room.page->setSizePolicy(i == m_shown ? room.pagePolicies.first() : ignored);
        for (int page = 0; room.tabs && page < room.tabs->count(); ++page) {
            const bool current = page == room.tabs->currentIndex();
            room.tabs->widget(page)->setSizePolicy(current ? room.pagePolicies.at(page + 1) : ignored);
        }
    }
    m_startPage->setSizePolicy(m_shown < 0 ? QSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred) : ignored);
}

void MainWindow::applyDefaultSizes()
{
    // The page gets the middle; the docks on the right grow with the screen.
    const QRect available = screen() ? screen()->availableGeometry() : QRect(0, 0, 1280, 800);
    const QSize size = available.size().boundedTo(QSize(std::max(1280, available.width() * 17 / 20),
                                                        std::max(800, available.height() * 17 / 20)));
    resize(size);
    move(available.center() - rect().center());
    // Every lab's docks are laid out while shown, each lab in turn, so each gets the room it needs.
    for (int i = 0; i < m_rooms.size(); ++i) {
        showDocksOf(&m_rooms[i]);
        fitSideDocks(size.width());
        QList<QDockWidget *> right;
        for (QDockWidget *dock : std::as_const(m_rightDocks))
            if (m_rooms[i].docks.contains(dock))
                right << dock;
        if (right.size() > 1)
            resizeDocks(right, QList<int>(right.size(), size.height() / int(right.size())), Qt::Vertical);
    }
    for (QDockWidget *dock : std::as_const(m_frontDocks))
        dock->raise();
    showDocksOf(shownRoom());
}

void MainWindow::readSettings()
{
    QSettings settings;
    for (const Room &room : std::as_const(m_rooms))
        room.lab->restoreSettings(settings);
    settings.beginGroup(QStringLiteral("window"));
    for (Room &room : m_rooms) {
        const QStringList hidden = settings.value(QStringLiteral("hiddenDocks/") + room.info.id).toStringList();
        room.hiddenDocks = QSet<QString>(hidden.begin(), hidden.end());
    }
    restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("state")).toByteArray());
    // The first launch opens on the start page, later ones on the lab last shown.
    const QString shown = settings.value(QStringLiteral("lab")).toString();
    settings.endGroup();
    int index = -1;
    for (int i = 0; i < m_rooms.size(); ++i)
        if (m_rooms[i].info.id == shown)
            index = i;
    showRoom(index);
}

void MainWindow::writeSettings()
{
    leaveRoom();
    QSettings settings;
    for (const Room &room : std::as_const(m_rooms))
        room.lab->saveSettings(settings);
    settings.setValue(QStringLiteral("view/scale"), viewScale());
    settings.beginGroup(QStringLiteral("window"));
    for (const Room &room : std::as_const(m_rooms)) {
        const QStringList hidden(room.hiddenDocks.begin(), room.hiddenDocks.end());
        settings.setValue(QStringLiteral("hiddenDocks/") + room.info.id, hidden);
    }
    settings.setValue(QStringLiteral("lab"), m_shown < 0 ? QString() : m_rooms[m_shown].info.id);
    settings.setValue(QStringLiteral("geometry"), saveGeometry());
    settings.setValue(QStringLiteral("state"), saveState());
    settings.endGroup();
}

void MainWindow::resetLayout()
{
    restoreState(m_defaultState);
    for (Room &room : m_rooms)
        room.hiddenDocks.clear();
    showDocksOf(shownRoom());
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
    const int room = windowWidth - m_switcher->sizeHint().width();
    QList<QDockWidget *> sides;
    QList<int> widths;
    for (const QList<QDockWidget *> *side : {&m_leftDocks, &m_rightDocks}) {
        const auto shown =
            std::find_if(side->begin(), side->end(), [](QDockWidget *dock) { return !dock->isHidden(); });
        if (shown == side->end())
            continue;
        sides << *shown;
        if (side == &m_leftDocks)
            widths << (scaledUp ? (*shown)->minimumSizeHint().width() : std::clamp(room / 4, 290, 380));
        else
            widths << std::clamp(room * 3 / 10, 380, 640);
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
