#include "ui/workbench/lab.h"

#include "ui/workbench/workbench.h"

Lab::Lab(Workbench *workbench, QObject *parent) : QObject(parent), m_workbench(workbench)
{
}

void Lab::receiveResult(const QVariant &result)
{
    const auto handler = m_handlers.constFind(result.metaType().id());
    Q_ASSERT_X(handler != m_handlers.cend(), "Lab::receiveResult", result.metaType().name());
    if (handler != m_handlers.cend())
        (*handler)(result);
}

RunState *Lab::runState() const
{
    return m_workbench->runState();
}

Document *Lab::document() const
{
    return m_workbench->document(this);
}

void Lab::submit(LabJob job, RunState::Phase phase)
{
    m_workbench->submit(this, std::move(job), phase);
}
