#pragma once

#include "ui/workbench/jobcontext.h"

class Lab;

// Runs the labs' jobs one after another off the GUI thread (app/'s TrainingController) and hands
// each job's reports to the lab that submitted it.
class JobRunner
{
public:
    virtual ~JobRunner() = default;
    // `newRun`: a run the user started; it clears an earlier Stop and Pause.
    virtual void run(Lab *lab, LabJob job, bool newRun) = 0;
};
