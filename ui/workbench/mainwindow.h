#pragma once

#include "ui/workbench/runstate.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QMainWindow>
#include <QSet>
#include <QSizePolicy>

class Document;
class Lab;
class QAction;
class QCloseEvent;
class QDockWidget;
class QMenu;
class QTabWidget;
class QToolBar;
class RunProgress;
struct BatchProgress;

// The workbench: the labs' pages as tabs in the middle, their docks around them, the menus, the
// open document, and the run's controls and progress. It knows labs only through Lab, and the
// worker only through signals.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // Labs are added once, in order, before finishSetup() lays out the window and restores settings.
    void addLab(Lab *lab);
    void finishSetup();

    RunState *runState() const { return m_run; }
    RunProgress *runProgress() const { return m_progress; }
    Document *document() const { return m_document; }
    QTabWidget *centralTabs() const { return m_tabs; }
    QList<QAction *> runActions() const;  // Train, Pause, Resume, Stop: for a lab's own buttons
    QAction *trainAction() const { return m_trainAction; }
    QAction *pauseAction() const { return m_pauseAction; }
    QAction *resumeAction() const { return m_resumeAction; }
    QAction *stopAction() const { return m_stopAction; }
    QAction *saveAction() const { return m_saveAction; }
    QAction *zoomInAction() const { return m_zoomInAction; }
    QAction *zoomOutAction() const { return m_zoomOutAction; }
    QAction *actualSizeAction() const { return m_actualSizeAction; }
    QAction *presentationAction() const { return m_presentationAction; }

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

private:
    void createActions();
    void createMenus();
    void applyDefaultSizes();
    void readSettings();
    void writeSettings() const;
    void resetLayout();
    void updateActions();
    void about();
    Lab *trainingLab() const;  // the shown tab's lab when it trains, else the first that does
    void showDocksOf(Lab *lab);
    void showToolsOf(Lab *lab);  // the lab toolbar: the shown lab's main export
    void sizeToShownPage();
    void fitSideDocks(int windowWidth);
    void fitToScreen();  // after a change of scale: the docks refitted, the window on the screen
    void setScale(double scale);
    void setPresenting(bool on);
    void zoom(int steps);  // this many steps of kScales up (or down, when negative)

    QList<Lab *> m_labs;
    QList<Lab *> m_tabLabs;                  // the lab of each tab
    QList<QSizePolicy> m_pagePolicies;       // each tab's page's own size policy
    QHash<QDockWidget *, Lab *> m_dockLabs;  // the lab of each dock
    RunState *m_run;
    Document *m_document;
    RunProgress *m_progress;
    QTabWidget *m_tabs;
    QList<QDockWidget *> m_docks;
    QList<QDockWidget *> m_leftDocks;   // placed by area, not tabbed
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
    QToolBar *m_labToolBar;
    QMenu *m_fileMenu;
    QMenu *m_viewMenu;
};
