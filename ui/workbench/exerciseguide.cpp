#include "ui/workbench/exerciseguide.h"

#include "ui/core/guidepane.h"
#include "ui/workbench/runstate.h"

ExerciseGuide::ExerciseGuide(GuidePane *pane, RunState *run, QObject *parent)
    : QObject(parent), m_pane(pane), m_run(run)
{
    connect(m_run, &RunState::changed, this, &ExerciseGuide::followRun);
}

void ExerciseGuide::open(Lab *lab, const QString &guide, const std::function<QString()> &answer)
{
    if (lab != m_lab || guide != m_guide)  // opened again, it keeps its last answers
        m_answers.clear();
    m_lab = lab;
    m_guide = guide;
    m_answer = answer;
    m_working = false;
    m_pane->setGuide(markdown());
    m_pane->show();
    m_pane->raise();
}

QString ExerciseGuide::markdown() const
{
    return m_answers.isEmpty() ? m_guide : m_guide + QStringLiteral("\n\n## %1\n\n").arg(answersHeading()) + m_answers;
}

// Work is whole once the worker is quiet: training, say, then the scoring of the test set. Work in
// the background (scoring an opened model) has no phase of its own and answers nothing.
void ExerciseGuide::followRun()
{
    if (m_lab && m_run->owner() == m_lab && m_run->phase() != RunState::Phase::Idle)
        m_working = true;
    if (!m_working || !m_run->isQuiet())
        return;
    m_working = false;
    if (!m_answer)
        return;
    m_answers = m_answer();
    emit answered();
}
