// AttentionLab's attribution views: which source words an output word came from by methods beside
// attention, for the typed sentence, and how faithful each method is to the model (issue 37).
#include "ui/attention/attentionlab.h"

#include "ui/attention/attentionjobs.h"
#include "ui/core/attributionstripsplot.h"
#include "ui/attention/attributionexports.h"
#include "ui/attention/attributionsource.h"
#include "ui/core/contrastbox.h"
#include "ui/core/faithfulnesspage.h"
#include "ui/attention/inferencepanel.h"
#include "ui/attention/methodheatmap.h"
#include "ui/attention/rowattributionview.h"
#include "ui/core/stepscorestable.h"
#include "ui/core/attentionheatmap.h"
#include "ui/workbench/workbench.h"

#include <QComboBox>
#include <QDockWidget>
#include <QLabel>

void AttentionLab::createAttributionViews()
{
    m_attributionSource = new AttributionSource(this);
    // The sentence and model of the Reverse page, explained as they change; connected before the
    // method switch hears of the decode, so it knows whether a map is on its way.
    connect(m_inference, &InferencePanel::sentenceDecoded, this, [this] {
        m_attributionSource->setSentence(m_inference->currentModel(), m_inference->text());
    });
    m_methodHeatmap = new MethodHeatmap(m_inference, m_attributionSource, this);
    auto *methodLabel = new QLabel(tr("S&how:"));
    methodLabel->setBuddy(m_methodHeatmap->selector());
    m_inference->addHeatmapControl(methodLabel);
    m_inference->addHeatmapControl(m_methodHeatmap->selector());
    m_stepScores = new StepScoresTable;
    m_stepScores->setObjectName(QStringLiteral("stepScores"));
    m_inference->addUnderHeatmap(m_stepScores);
    m_rowAttribution = new RowAttributionView(m_attributionSource);
    m_rowAttribution->setObjectName(QStringLiteral("rowAttributionView"));
    m_attributionDock = dock(tr("Methods"), QStringLiteral("attributionDock"), m_rowAttribution);
    // Only what is on screen is computed: the gradients of every method cost a core for a while.
    connect(m_methodHeatmap, &MethodHeatmap::methodChanged, m_attributionSource,
            &AttributionSource::setHeatmapMethod);
    connect(m_rowAttribution, &RowAttributionView::visibilityChanged, m_attributionSource,
            &AttributionSource::setEveryMethodShown);
    m_faithfulness = new FaithfulnessPage(workbench()->dialogParent());
    m_faithfulness->setObjectName(QStringLiteral("faithfulnessPage"));
    m_faithfulness->setMeasurement(kFaithfulnessSentences, kFaithfulnessIntegrationSteps);
    m_attributionExports =
        new AttributionExports(workbench()->dialogParent(), m_stepScores, m_rowAttribution, m_faithfulness, this);

    // One output row for every view: clicked on the heatmap or on the step scores.
    connect(m_inference->heatmap(), &AttentionHeatmap::cellSelected, m_attributionSource,
            [this](int row) { m_attributionSource->selectRow(row); });
    connect(m_stepScores, &StepScoresTable::stepClicked, this, [this](int step) {
        const int column = std::max(0, m_inference->highlightedSourceToken());
        m_inference->heatmap()->selectCell(step, std::min(column, m_inference->heatmap()->columns() - 1));
    });
    connect(m_attributionSource, &AttributionSource::attributionChanged, this, [this] {
        // While the next sentence is explained the last one's scores stay: the strip does not flicker
        // with every keystroke.
        if (m_attributionSource->hasAttribution())
            m_stepScores->setAttribution(m_attributionSource->attribution());
        else if (!m_attributionSource->computing())
            m_stepScores->showMessage(m_attributionSource->message());
        updateAttributionActions();
    });
    connect(m_attributionSource, &AttributionSource::rowSelected, m_stepScores, &StepScoresTable::selectStep);
    connect(m_rowAttribution, &RowAttributionView::rowShown, this, &AttentionLab::updateAttributionActions);
    connect(m_rowAttribution->contrastBox(), &ContrastBox::contrastShown, this,
            &AttentionLab::updateAttributionActions);
    connect(m_faithfulness, &FaithfulnessPage::reportShown, this, &AttentionLab::updateAttributionActions);
    connect(m_faithfulness, &FaithfulnessPage::pageShown, this, &AttentionLab::faithfulnessPageShown);
    onResult(&AttentionLab::showFaithfulnessProgress);
    onResult(&AttentionLab::showFaithfulness);
}

void AttentionLab::updateAttributionActions()
{
    m_attributionExports->setAvailable(m_stepScores->steps() > 0, m_rowAttribution->hasRow(),
                                       m_rowAttribution->contrastBox()->plot()->methodCount() > 0,
                                       m_faithfulness->hasReport());
}

void AttentionLab::awaitFaithfulness(const ModelSnapshot &model, const QString &subject)
{
    abandonFaithfulness();
    m_faithfulness->clearHistory();
    m_faithfulness->setSubject(subject);
    m_faithfulness->showMessage(tr("%1 is measured when this page is shown.").arg(subject.left(1).toUpper() + subject.mid(1)));
    m_faithfulnessAwaited = model;
    if (m_faithfulness->isVisible())
        measureAwaitedFaithfulness();
}

// Seconds of work on the worker (every method on 40 sentences): only for a page someone looks at.
void AttentionLab::measureAwaitedFaithfulness()
{
    if (!m_faithfulnessAwaited || runInProgress())
        return;
    m_faithfulness->showMessage(tr("Waiting to measure %1…").arg(m_faithfulness->subject()));
    m_faithfulnessAbandoned = std::make_shared<std::atomic<bool>>(false);
    // The worker gets its own copy, as for the evaluation.
    submit(attentionFaithfulnessJob(std::make_shared<const Seq2SeqModel>(m_faithfulnessAwaited->clone()),
                                    m_faithfulnessAbandoned),
           RunState::Phase::Idle);
    m_faithfulnessAwaited.reset();
}

void AttentionLab::faithfulnessPageShown()
{
    if (runInProgress() && m_faithfulnessWanted && !*m_faithfulnessWanted) {
        *m_faithfulnessWanted = true;
        m_faithfulness->showMessage(tr("Training… the methods are measured from the next epoch on."));
        return;
    }
    measureAwaitedFaithfulness();
}

void AttentionLab::abandonFaithfulness()
{
    if (m_faithfulnessAbandoned)
        *m_faithfulnessAbandoned = true;
    m_faithfulnessAbandoned.reset();
}

void AttentionLab::showFaithfulnessProblem(const QString &message)
{
    m_faithfulness->clearHistory();
    m_faithfulness->showMessage(message);
}

void AttentionLab::showFaithfulnessProgress(const FaithfulnessProgress &progress)
{
    // An opened model still queued when this lab began training is of no use now.
    if (progress.epoch == 0 && runInProgress())
        return;
    m_faithfulness->setProgress(progress.epoch, progress.done, progress.total);
}

void AttentionLab::showFaithfulness(const FaithfulnessMeasured &measured)
{
    if (measured.epoch == 0 && runInProgress())
        return;
    if (!measured.problem.isEmpty()) {
        m_faithfulness->showMessage(measured.problem);
        return;
    }
    m_faithfulness->setMeasurement(kFaithfulnessSentences, measured.integrationSteps);
    m_faithfulness->setReport(measured.epoch, measured.report);
}
