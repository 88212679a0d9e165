// AttentionLab's Beams page: greedy decoding against beam search on the test split of the
// model shown, decoded by the worker.
#include "ui/attention/attentionlab.h"

#include "ui/attention/beamcomparison.h"
#include "ui/attention/beamsearchpage.h"

void AttentionLab::createBeamPage()
{
    m_beams = new BeamSearchPage;
    m_beams->setObjectName(QStringLiteral("beamSearchPage"));
    connect(m_beams, &BeamSearchPage::compareRequested, this, &AttentionLab::compareBeams);
    onResult(&AttentionLab::showBeamProgress);
    onResult(&AttentionLab::showBeamComparison);
}

void AttentionLab::compareBeams()
{
    if (!m_best || !runState()->isQuiet())
        return;
    m_beams->setProgress(0, 0);
    // The worker gets its own copy: the one shown here keeps decoding on this thread.
    submit(beamComparisonJob(std::make_shared<const Seq2SeqModel>(m_best->clone())), RunState::Phase::Evaluating);
}

void AttentionLab::showBeamProgress(const BeamProgress &progress)
{
    m_beams->setProgress(progress.done, progress.total);
}

void AttentionLab::showBeamComparison(const BeamCompared &compared)
{
    if (compared.problem.isEmpty())
        m_beams->setEvaluation(compared.evaluation);
    else
        m_beams->showProblem(compared.problem);
}
