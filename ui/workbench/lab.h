#pragma once

#include <QList>
#include <QObject>
#include <QString>

class QAction;
class QDockWidget;
class QSettings;
class QWidget;

// Where a lab's dock goes when the window is first laid out: an area, or tabbed with another dock.
struct LabDock {
    QDockWidget *dock = nullptr;
    Qt::DockWidgetArea area = Qt::RightDockWidgetArea;
    QDockWidget *tabbedWith = nullptr;
    bool front = false;  // the tab shown first in its group
};

// A page in the middle of the window.
struct LabPage {
    QString title;  // with a mnemonic ("&Reverse")
    QWidget *widget = nullptr;
};

// One exercise of the workbench: its pages, docks, exports and settings. The window hosts labs and
// knows only this interface; a lab that trains asks the worker for work through its own signals
// (wired in app/), and reports the run's phases to the window's RunState.
class Lab : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    virtual QList<LabPage> pages() const = 0;
    virtual QList<LabDock> docks() const { return {}; }
    virtual QList<QAction *> fileActions() const { return {}; }    // File menu entries after Save As
    virtual QList<QAction *> exportActions() const { return {}; }  // File menu entries
    virtual void saveSettings(QSettings &settings) const = 0;
    virtual void restoreSettings(QSettings &settings) = 0;
    // Markdown shown in View ▸ Guide (F1) while the lab's page is on screen: what is on screen,
    // the formula, what to try next (GuidePane::read).
    virtual QString guide() const { return {}; }

    // Training: Train (F5) trains the lab that offers it. Empty problem: ready to train.
    virtual bool trains() const { return false; }
    virtual QString trainProblem() const { return {}; }
    virtual void train() {}

signals:
    void statusMessage(const QString &message, int timeoutMs = 0);
    void actionsChanged();  // what the window's actions depend on may have changed
};
