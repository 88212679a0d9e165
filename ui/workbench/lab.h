#pragma once

#include "ui/workbench/jobcontext.h"
#include "ui/workbench/runstate.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QString>
#include <QVariant>

#include <functional>

class Document;
class DocumentContent;
class QAction;
class QDockWidget;
class QSettings;
class QWidget;
class Workbench;
struct BatchProgress;
struct SharedAttentionHead;
struct SharedDecoder;
struct SharedEmbeddings;
struct SharedRun;

// Where a lab's dock goes when the window is first laid out: an area, or tabbed with another dock.
struct LabDock {
    QDockWidget *dock = nullptr;
    Qt::DockWidgetArea area = Qt::RightDockWidgetArea;
    QDockWidget *tabbedWith = nullptr;
    bool front = false;  // the tab shown first in its group
};

// A page of the lab in the middle of the window.
struct LabPage {
    QString title;  // with a mnemonic ("&Reverse")
    QWidget *widget = nullptr;
};

// One lab of the workbench: its pages, docks, toolbar, files, exports and settings, shown while the
// lab is the one chosen in the lab switcher. It sees the window only through Workbench, and hears
// only of the jobs it submitted itself.
class Lab : public QObject
{
    Q_OBJECT
public:
    explicit Lab(Workbench *workbench, QObject *parent = nullptr);

    virtual QList<LabPage> pages() const = 0;
    virtual QList<LabDock> docks() const { return {}; }
    virtual QList<QAction *> toolBarActions() const { return exportActions().mid(0, 1); }  // the lab toolbar
    virtual QList<QAction *> fileActions() const { return {}; }    // File menu entries after Save As
    virtual QList<QAction *> exportActions() const { return {}; }  // File ▸ Export
    // What File ▸ Open, Save and Save As act on while the lab is shown; null for a lab without files.
    virtual DocumentContent *documentContent() { return nullptr; }
    virtual void saveSettings(QSettings &settings) const = 0;
    virtual void restoreSettings(QSettings &settings) = 0;

    // Training: Train (F5) trains the shown lab when it offers it. Empty problem: ready to train.
    virtual bool trains() const { return false; }
    virtual QString trainProblem() const { return {}; }
    virtual void train() {}

    // Embeddings another lab shares (Workbench::shareEmbeddings).
    virtual void takeEmbeddings(const SharedEmbeddings &) {}
    // A run another lab finished (Workbench::shareRun).
    virtual void takeRun(const SharedRun &) {}
    // A model another lab offers to decode with (Workbench::shareDecoder).
    virtual void takeDecoder(const SharedDecoder &) {}
    // A trained attention head another lab shares (Workbench::shareAttentionHead); true when this lab
    // shows it, and wants to be shown.
    virtual bool takeAttentionHead(const SharedAttentionHead &) { return false; }

    // The reports of this lab's jobs, on the GUI thread.
    virtual void jobStarted(const QString &) {}
    virtual void jobBatch(const BatchProgress &) {}
    virtual void jobFailed(const QString &) {}
    void receiveResult(const QVariant &result);  // to the handler onResult() registered for its type

signals:
    void statusMessage(const QString &message, int timeoutMs = 0);
    void actionsChanged();  // what the window's actions depend on may have changed

protected:
    Workbench *workbench() const { return m_workbench; }
    RunState *runState() const;
    Document *document() const;
    void submit(LabJob job, RunState::Phase phase);

    // Results of type T that this lab's jobs report go to `handler`.
    template <typename T, typename L>
    void onResult(void (L::*handler)(const T &))
    {
        L *lab = static_cast<L *>(this);
        m_handlers.insert(QMetaType::fromType<T>().id(),
                          [lab, handler](const QVariant &value) { (lab->*handler)(value.value<T>()); });
    }

private:
    Workbench *m_workbench;
    QHash<int, std::function<void(const QVariant &)>> m_handlers;
};
