#pragma once

#include "ui/workbench/jobcontext.h"
#include "ui/workbench/runstate.h"

#include <QList>

class Document;
class Lab;
class QAction;
class QWidget;
struct FileType;
struct SharedAttentionHead;
struct SharedDecoder;
struct SharedEmbeddings;
struct SharedRun;

// What a lab sees of the window that hosts it: the run's state and controls, the worker (through
// submit), its own document and the embeddings, runs, models and heads other labs share. Labs never see the window itself.
class Workbench
{
public:
    virtual ~Workbench() = default;

    virtual QWidget *dialogParent() = 0;  // what a lab's dialogs are modal to
    virtual RunState *runState() const = 0;
    virtual QList<QAction *> runActions() const = 0;  // Train, Pause, Resume, Stop: for a lab's own buttons
    virtual void stopRun() = 0;                       // as Stop (Esc) does

    // Hands `job` to the worker for `lab`; the run enters `phase` (Idle for background work, such as
    // scoring an opened model). The job's reports reach only `lab` (Lab::jobStarted, …, onResult).
    virtual void submit(Lab *lab, LabJob job, RunState::Phase phase) = 0;

    // The document of `lab` (null for a lab without files), and Save As offering only `type`.
    virtual Document *document(const Lab *lab) const = 0;
    virtual bool saveAs(Lab *lab, const FileType &type) = 0;

    // Offers `embeddings` to every other lab (Lab::takeEmbeddings).
    virtual void shareEmbeddings(const Lab *from, const SharedEmbeddings &embeddings) = 0;
    // Offers a finished run to every other lab (Lab::takeRun).
    virtual void shareRun(const Lab *from, const SharedRun &run) = 0;
    // Offers the lab's current model to decode with to every other lab (Lab::takeDecoder).
    virtual void shareDecoder(const Lab *from, const SharedDecoder &decoder) = 0;
    // Offers `head` to every other lab (Lab::takeAttentionHead) and shows the first that takes it.
    // False when none does.
    virtual bool shareAttentionHead(const Lab *from, const SharedAttentionHead &head) = 0;
};
