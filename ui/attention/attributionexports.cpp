#include "ui/attention/attributionexports.h"

#include "ui/core/attributionstripsplot.h"
#include "ui/core/contrastbox.h"
#include "ui/core/erasurecurvesplot.h"
#include "ui/core/faithfulnesspage.h"
#include "ui/attention/rowattributionview.h"
#include "ui/core/stepscorestable.h"
#include "ui/core/exportactions.h"

#include <QAction>
#include <QTableWidget>

namespace {

template <typename View>
FileWriter csvOf(View *view)
{
    return [view](const QString &path, QString *error) { return view->exportCsv(path, error); };
}

}

AttributionExports::AttributionExports(QWidget *dialogParent, StepScoresTable *steps, RowAttributionView *row,
                                       FaithfulnessPage *faithfulness, QObject *parent)
    : QObject(parent), m_exports(new ExportActions(dialogParent, this))
{
    const QString csv = tr("CSV file (*.csv)");
    m_steps << m_exports->addImage(tr("Export &Step Scores…"), QStringLiteral("step_scores.png"), steps)
            << m_exports->addFile(tr("Export Step Scores (CSV)…"), QStringLiteral("step_scores.csv"), csv, csvOf(steps));
    AttributionStripsPlot *multiples = row->plot();
    m_row << m_exports->addImage(tr("Export Methods for the &Output Word…"), QStringLiteral("methods_row.png"),
                                 multiples)
          << m_exports->addFile(tr("Export Methods for the Output Word (CSV)…"), QStringLiteral("methods_row.csv"), csv,
                                csvOf(multiples));
    AttributionStripsPlot *contrast = row->contrastBox()->plot();
    m_contrast << m_exports->addImage(tr("Export &Contrast…"), QStringLiteral("contrast.png"), contrast)
               << m_exports->addFile(tr("Export Contrast (CSV)…"), QStringLiteral("contrast.csv"), csv,
                                     csvOf(contrast));
    ErasureCurvesPlot *curves = faithfulness->curvesPlot();
    QTableWidget *table = faithfulness->agreementTable();
    m_faithfulness
        << m_exports->addImage(tr("Export &Faithfulness Curves…"), QStringLiteral("faithfulness_curves.png"), curves)
        << m_exports->addFile(tr("Export Faithfulness Curves (CSV)…"), QStringLiteral("faithfulness_curves.csv"), csv,
                              csvOf(curves))
        << m_exports->addImage(tr("Export Method A&greement…"), QStringLiteral("method_agreement.png"), table,
                               [faithfulness](const QString &path, int width, int height, QString *error) {
                                   return faithfulness->exportAgreementImage(path, width, height, error);
                               })
        << m_exports->addFile(tr("Export Method Agreement (CSV)…"), QStringLiteral("method_agreement.csv"), csv,
                              [faithfulness](const QString &path, QString *error) {
                                  return faithfulness->exportAgreementCsv(path, error);
                              });
    setAvailable(false, false, false, false);
}

QList<QAction *> AttributionExports::actions() const
{
    return m_exports->actions();
}

void AttributionExports::setAvailable(bool hasSteps, bool hasRow, bool hasContrast, bool hasFaithfulness)
{
    const auto enable = [](const QList<QAction *> &actions, bool enabled) {
        for (QAction *action : actions)
            action->setEnabled(enabled);
    };
    enable(m_steps, hasSteps);
    enable(m_row, hasRow);
    enable(m_contrast, hasContrast);
    enable(m_faithfulness, hasFaithfulness);
}
