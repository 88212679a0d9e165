#pragma once

#include "engine/fast/singlethreadscope.h"
#include "ui/workbench/labinfo.h"
#include "ui/workbench/workbench.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QMainWindow>
#include <QSet>

#include <functional>

class ExerciseGuide;
class GuidePane;
class JobRunner;
class LabSwitcher;
class QCloseEvent;
class QDockWidget;
class QDragEnterEvent;
class QDropEvent;
class QMenu;
class QStackedWidget;
class QTabWidget;
class QToolBar;
class RunProgress;
class StartPage;
class WorkbenchFiles;
struct BatchProgress;

// The workbench: one lab at a time in the middle, chosen in the lab switcher at the left edge (or
// the start page), with that lab's docks, toolbar, files and exports; the menus, and the run's
// controls and progress, which follow the run whichever lab is shown. Labs see it as Workbench.
class MainWindow : public QMainWindow, public Workbench
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // Labs are added once, in order, before finishSetup() lays out the window and restores settings.
    void addLab(const LabInfo &info, Lab *lab);
    void finishSetup();
    void setJobRunner(JobRunner *runner) { m_runner = runner; }

    // Workbench
    QWidget *dialogParent() override { return this; }
    RunState *runState() const override { return m_run; }
    QList<QAction *> runActions() const override;
    void stopRun() override { stop(); }
    void submit(Lab *lab, LabJob job, RunState::Phase phase) override;
    Document *document(const Lab *lab) const override;
    void shareEmbeddings(const Lab *from, const SharedEmbeddings &embeddings) override;
    void shareRun(const Lab *from, const SharedRun &run) override;
    void shareDecoder(const Lab *from, const SharedDecoder &decoder) override;
    bool shareAttentionHead(const Lab *from, const SharedAttentionHead &head) override;
    bool saveAs(Lab *lab, const FileType &type) override;

    // The labs, in the switcher's order; the one shown (null on the start page).
    QList<Lab *> labs() const;
    const LabInfo *infoOf(const Lab *lab) const;
    template <typename L>
    L *lab() const
    {
        for (Lab *each : labs())
            if (auto *found = qobject_cast<L *>(each))
                return found;
        return nullptr;
    }
    Lab *shownLab() const;
    void showLab(Lab *lab);  // null: the start page
    bool isStartPageShown() const;
    // Course ▸ Exercises gets an entry `title` that shows `lab`, lets `open` set it to the
    // exercise's settings (and shows the page it returns), and shows `guide` (Markdown: the
    // exercise's question) in the guide pane; when foreground work of the lab ends, `answer`'s
    // Markdown (unset: none) joins it there. After finishSetup().
    void addExercise(const QString &title, Lab *lab, const QString &guide, const std::function<QWidget *()> &open,
                     const std::function<QString()> &answer);
    QMenu *exercisesMenu() const { return m_exercisesMenu; }
    ExerciseGuide *exerciseGuide() const { return m_exercise; }
    // The shown lab's pages: the one in front, and a way to bring one forward.
    QWidget *shownPage() const;
    void showPage(QWidget *page);  // shows its lab too

    WorkbenchFiles *files() const { return m_files; }
    LabSwitcher *labSwitcher() const { return m_switcher; }
    StartPage *startPage() const { return m_startPage; }
    GuidePane *guidePane() const { return m_guide; }
    RunProgress *runProgress() const { return m_progress; }
    QAction *trainAction() const { return m_trainAction; }
    QAction *pauseAction() const { return m_pauseAction; }
    QAction *resumeAction() const { return m_resumeAction; }
    QAction *stopAction() const { return m_stopAction; }
    QAction *openAction() const { return m_openAction; }
    QAction *saveAction() const { return m_saveAction; }
    QAction *saveAsAction() const { return m_saveAsAction; }
    QAction *zoomInAction() const { return m_zoomInAction; }
    QAction *zoomOutAction() const { return m_zoomOutAction; }
    QAction *actualSizeAction() const { return m_actualSizeAction; }
    QAction *presentationAction() const { return m_presentationAction; }
    QMenu *fileMenu() const { return m_fileMenu; }
    QMenu *exportMenu() const { return m_exportMenu; }

    // The view scales View ▸ Zoom steps through. Presentation mode is the largest at which the
    // default layout still fits a 1280×720 projector.
    static constexpr double kScales[] = {0.8, 0.9, 1.0, 1.25, 1.5, 1.75, 2.0};
    static constexpr double kPresentationScale = 1.25;

signals:
    void pauseRequested();
    void resumeRequested();
    void stopRequested();
    void closed();  // the window accepted a close: background work should end now

public slots:
    void train();
    void pause();
    void resume();
    void stop();
    void setPaused(bool paused);
    void showBatch(const BatchProgress &progress);

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    // The window's own ops (a typed sentence's decode) on one intra-op thread, whatever LibTorch's
    // default, for as long as the window lives: a second thread of its own would wait for a core
    // the training threads hold, and the window with it.
    SingleThreadScope m_oneThreadOps;

    // A lab with what the window made for it: its page (its one page, or its pages as tabs) and docks.
    struct Room {
        LabInfo info;
        Lab *lab = nullptr;
        QWidget *page = nullptr;
        QTabWidget *tabs = nullptr;  // null for a lab of one page
        QList<QSizePolicy> pagePolicies;
        QList<QDockWidget *> docks;
        QSet<QString> hiddenDocks;  // closed by the user: they stay closed when the lab comes back
        QHash<QDockWidget *, int> widths;  // of its docks at the sides, as it was left
    };

    void createActions();
    void createMenus();
    void showRoom(int index);  // -1: the start page
    void leaveRoom();
    int roomOf(const Lab *lab) const;
    const Room *shownRoom() const;
    void forOtherLabs(const Lab *from, const std::function<void(Lab *)> &give) const;  // what a lab shares
    void showDocksOf(const Room *room);
    void restoreDockWidths(const Room &room);  // as the lab was left, or the defaults the first time
    void fillLabMenus();  // the File, Export, View and toolbar entries of the lab shown
    void sizeToShownPage();
    void applyDefaultSizes();
    void readSettings();
    void writeSettings();
    void resetLayout();
    void updateActions();
    void updateTitle();
    void about();
    void fitSideDocks(int windowWidth);
    void fitToScreen();  // after a change of scale: the docks refitted, the window on the screen
    void setScale(double scale);
    void setPresenting(bool on);
    void zoom(int steps);  // this many steps of kScales up (or down, when negative)

    QList<Room> m_rooms;
    int m_shown = -1;
    RunState *m_run;
    RunProgress *m_progress;
    WorkbenchFiles *m_files;
    JobRunner *m_runner = nullptr;
    QStackedWidget *m_stack;
    StartPage *m_startPage;
    LabSwitcher *m_switcher;
    GuidePane *m_guide;
    ExerciseGuide *m_exercise;
    QList<QDockWidget *> m_leftDocks;  // placed by area, not tabbed
    QList<QDockWidget *> m_rightDocks;
    QList<QDockWidget *> m_frontDocks;
    bool m_presenting = false;                  // presentation mode's scale and layout are in place
    QSet<QDockWidget *> m_awayWhilePresenting;  // left docks hidden for presentation mode, shown after
    QByteArray m_defaultState;

    QAction *m_openAction;
    QAction *m_saveAction;
    QAction *m_saveAsAction;
    QAction *m_quitAction;
    QAction *m_trainAction;
    QAction *m_pauseAction;
    QAction *m_resumeAction;
    QAction *m_stopAction;
    QAction *m_resetLayoutAction;
    QAction *m_zoomInAction;
    QAction *m_zoomOutAction;
    QAction *m_actualSizeAction;
    QAction *m_presentationAction;
    QAction *m_startPageAction;
    QAction *m_nextPageAction;
    QAction *m_previousPageAction;
    QMenu *m_trainingMenu = nullptr;
    QToolBar *m_mainToolBar = nullptr;
    QToolBar *m_labToolBar = nullptr;
    QMenu *m_fileMenu = nullptr;
    QMenu *m_exportMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QMenu *m_exercisesMenu = nullptr;
};
