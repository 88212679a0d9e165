// The Transformer lab's Faithfulness page: how far the attribution methods agree and how faithful
// each is to the model in front of the student (issue 37), measured off the GUI thread on a sample
// of the test split.
#include "ui/transformer/transformerlab.h"

#include "ui/core/erasurecurvesplot.h"
#include "ui/core/exportactions.h"
#include "ui/core/faithfulnesspage.h"
#include "ui/transformer/transformerjobs.h"
#include "ui/transformer/transformerresults.h"
#include "ui/workbench/workbench.h"

#include <QAction>
#include <QTableWidget>

void TransformerLab::createFaithfulness()
{
    m_faithfulness = new FaithfulnessPage(workbench()->dialogParent());
    m_faithfulness->setObjectName(QStringLiteral("transformerFaithfulnessPage"));
    m_faithfulness->setMeasurement(kTransformerFaithfulnessSentences, kTransformerFaithfulnessIntegrationSteps);
    m_faithfulnessWanted = std::make_shared<std::atomic<bool>>(false);
    connect(m_faithfulness, &FaithfulnessPage::reportShown, this, &TransformerLab::updateActions);
    connect(m_faithfulness, &FaithfulnessPage::pageShown, this, &TransformerLab::faithfulnessPageShown);
    onResult(&TransformerLab::showFaithfulnessProgress);
    onResult(&TransformerLab::showFaithfulness);
}

void TransformerLab::createFaithfulnessExports(const QString &csv)
{
    FaithfulnessPage *page = m_faithfulness;
    const auto keep = [this](QAction *action, const char *name) {
        action->setObjectName(QLatin1String(name));
        m_faithfulnessExports << action;
    };
    keep(m_exports->addImage(tr("Export Transformer &Faithfulness Curves…"),
                             QStringLiteral("transformer_faithfulness_curves.png"), page->curvesPlot()),
         "exportTransformerFaithfulness");
    keep(m_exports->addFile(tr("Export Transformer Faithfulness Curves (CSV)…"),
                            QStringLiteral("transformer_faithfulness_curves.csv"), csv,
                            [page](const QString &path, QString *error) { return page->curvesPlot()->exportCsv(path, error); }),
         "exportTransformerFaithfulnessCsv");
    keep(m_exports->addImage(tr("Export Transformer Method A&greement…"),
                             QStringLiteral("transformer_method_agreement.png"), page->agreementTable(),
                             [page](const QString &path, int width, int height, QString *error) {
                                 return page->exportAgreementImage(path, width, height, error);
                             }),
         "exportTransformerAgreement");
    keep(m_exports->addFile(tr("Export Transformer Method Agreement (CSV)…"),
                            QStringLiteral("transformer_method_agreement.csv"), csv,
                            [page](const QString &path, QString *error) { return page->exportAgreementCsv(path, error); }),
         "exportTransformerAgreementCsv");
}

void TransformerLab::awaitFaithfulness(const std::shared_ptr<const TransformerSnapshot> &snapshot,
                                       const DatasetConfig &data, const QString &subject)
{
    abandonFaithfulness();
    m_faithfulness->clearHistory();
    m_faithfulness->setSubject(subject);
    m_faithfulness->showMessage(tr("%1 is measured when this page is shown.").arg(subject.left(1).toUpper() + subject.mid(1)));
    m_faithfulnessAwaited = snapshot;
    m_faithfulnessData = data;
    if (m_faithfulness->isVisible())
        measureAwaitedFaithfulness();
    updateActions();
}

// Seconds of work on the worker (every method on a sample of sentences): only for a page someone looks at.
void TransformerLab::measureAwaitedFaithfulness()
{
    if (!m_faithfulnessAwaited || runState()->isTraining())
        return;
    m_faithfulness->showMessage(tr("Waiting to measure %1…").arg(m_faithfulness->subject()));
    m_faithfulnessAbandoned = std::make_shared<std::atomic<bool>>(false);
    submit(transformerFaithfulnessJob(m_faithfulnessAwaited, m_faithfulnessData, m_faithfulnessAbandoned),
           RunState::Phase::Idle);
    m_faithfulnessAwaited.reset();
}

void TransformerLab::faithfulnessPageShown()
{
    if (runState()->isTraining() && !*m_faithfulnessWanted)
        m_faithfulness->showMessage(tr("Training… the methods are measured from the next epoch on."));
    *m_faithfulnessWanted = true;
    measureAwaitedFaithfulness();
}

void TransformerLab::abandonFaithfulness()
{
    if (m_faithfulnessAbandoned)
        *m_faithfulnessAbandoned = true;
    m_faithfulnessAbandoned.reset();
}

void TransformerLab::showFaithfulnessProgress(const TransformerFaithfulnessProgress &progress)
{
    // A model opened before this lab began training is of no use now.
    if (progress.epoch == 0 && runState()->isTraining())
        return;
    m_faithfulness->setProgress(progress.epoch, progress.done, progress.total);
}

void TransformerLab::showFaithfulness(const TransformerFaithfulnessMeasured &measured)
{
    if (measured.epoch == 0 && runState()->isTraining())
        return;
    if (!measured.problem.isEmpty())
        m_faithfulness->showMessage(measured.problem);
    else
        m_faithfulness->setReport(measured.epoch, measured.report);
    updateActions();
}
