#include "ui/core/erasurecurvesplot.h"

#include "ui/core/okabeitocolors.h"
#include "ui/core/plotexport.h"
#include "ui/core/plotstyle.h"

#include <algorithm>
#include <cmath>

namespace {

const char *const kRandom = "random";

QCPTextElement *rectTitle(QCustomPlot *plot, const QString &text, const QFont &font)
{
    auto *title = new QCPTextElement(plot, text, font);
    title->setMargins(QMargins(0, 2, 0, 0));
    return title;
}

}

QColor attributionColor(const std::string &name)
{
    AttributionMethod method;
    if (!parseAttributionMethod(name, &method))
        return QColor(120, 120, 120);
    switch (method) {
    case AttributionMethod::Attention: return okabeito::blue;
    case AttributionMethod::Saliency: return okabeito::orange;
    case AttributionMethod::InputTimesGradient: return okabeito::bluishGreen;
    case AttributionMethod::IntegratedGradients: return okabeito::reddishPurple;
    case AttributionMethod::Occlusion: return okabeito::vermillion;
    case AttributionMethod::Rollout: return okabeito::skyBlue;
    }
    return okabeito::black;
}

ErasureCurvesPlot::ErasureCurvesPlot(QWidget *parent) : QCustomPlot(parent), m_comprehensiveness(axisRect())
{
    setAccessibleName(tr("Comprehensiveness and sufficiency curves"));
    const PlotFonts fonts = plotFonts(font());
    m_sufficiency = new QCPAxisRect(this);
    // The two charts side by side, each under its own title.
    plotLayout()->take(m_comprehensiveness);
    plotLayout()->simplify();
    auto *grid = new QCPLayoutGrid;
    plotLayout()->addElement(0, 0, grid);
    grid->addElement(0, 0, rectTitle(this, tr("Comprehensiveness\n(higher: more faithful)"), fonts.label));
    grid->addElement(0, 1, rectTitle(this, tr("Sufficiency\n(lower: more faithful)"), fonts.label));
    grid->addElement(1, 0, m_comprehensiveness);
    grid->addElement(1, 1, m_sufficiency);
    grid->setRowStretchFactors({0.001, 1});
    auto *margins = new QCPMarginGroup(this);
    for (QCPAxisRect *rect : {m_comprehensiveness, m_sufficiency}) {
        rect->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
        QCPAxis *x = rect->axis(QCPAxis::atBottom);
        QCPAxis *y = rect->axis(QCPAxis::atLeft);
        x->setLabel(tr("k: top words (%)"));
        x->setRange(5, 55);
        for (QCPAxis *axis : {x, y}) {
            axis->setTickLabelFont(fonts.tick);
            axis->setLabelFont(fonts.label);
        }
        y->grid()->setZeroLinePen(QPen(QColor(90, 90, 90), 1));
    }
    m_comprehensiveness->axis(QCPAxis::atLeft)->setLabel(tr("fall in P without them"));
    m_sufficiency->axis(QCPAxis::atLeft)->setLabel(tr("fall in P with only them"));
    legend->setVisible(true);
    legend->setFont(fonts.tick);
    placeLegendBelow(*this, 2);
    m_message = addPlotMessage(*this, fonts);
    showMessage(tr("No measurement yet."));
}

void ErasureCurvesPlot::showMessage(const QString &message)
{
    clearGraphs();
    m_curves.clear();
    showPlotMessage(*this, *m_message, message);
    setAccessibleDescription(message);
    replot(rpQueuedReplot);
}

void ErasureCurvesPlot::setCurves(const std::vector<ErasureCurve> &curves)
{
    clearGraphs();
    m_curves = curves;
    m_message->setVisible(false);
    const std::vector<double> &fractions = erasureFractions();
    double low = 0, high = 0.01;
    QStringList description;
    for (const ErasureCurve &curve : curves) {
        const bool random = curve.name == kRandom;
        AttributionMethod method;
        const QString name = !random && parseAttributionMethod(curve.name, &method)
                                 ? QString::fromUtf8(attributionMethodTitle(method))
                                 : QString::fromStdString(curve.name);
        const QPen pen(attributionColor(curve.name), random ? 1.5 : 2, random ? Qt::DashLine : Qt::SolidLine);
        const std::vector<double> *values[2] = {&curve.comprehensiveness, &curve.sufficiency};
        QCPAxisRect *rects[2] = {m_comprehensiveness, m_sufficiency};
        for (int side = 0; side < 2; ++side) {
            auto *graph = addGraph(rects[side]->axis(QCPAxis::atBottom), rects[side]->axis(QCPAxis::atLeft));
            graph->setName(name);
            graph->setPen(pen);
            graph->setScatterStyle(QCPScatterStyle(random ? QCPScatterStyle::ssNone : QCPScatterStyle::ssDisc,
                                                   pen.color(), pen.color(), 5));
            for (std::size_t i = 0; i < fractions.size() && i < values[side]->size(); ++i) {
                const double value = (*values[side])[i];
                if (!std::isfinite(value))
                    continue;
                graph->addData(100 * fractions[i], value);
                low = std::min(low, value);
                high = std::max(high, value);
            }
            if (side == 1)
                graph->removeFromLegend();
        }
        description << name;
    }
    const double pad = 0.08 * (high - low);
    for (QCPAxisRect *rect : {m_comprehensiveness, m_sufficiency})
        rect->axis(QCPAxis::atLeft)->setRange(low - pad, high + pad);
    setAccessibleDescription(tr("Erasure curves of %1").arg(description.join(QStringLiteral(", "))));
    replot(rpQueuedReplot);
}

bool ErasureCurvesPlot::exportImage(const QString &path, int width, int height, QString *error)
{
    const bool written = exportPlotImage(*this, path, width, height, error);
    replot(rpQueuedReplot);
    return written;
}

bool ErasureCurvesPlot::exportCsv(const QString &path, QString *error) const
{
    if (m_curves.empty()) {
        if (error)
            *error = tr("No curves to export: the faithfulness of a model has not been measured yet.");
        return false;
    }
    const std::vector<double> &fractions = erasureFractions();
    QString csv = QStringLiteral("curve,k,comprehensiveness,sufficiency\n");
    for (const ErasureCurve &curve : m_curves)
        for (std::size_t i = 0; i < fractions.size(); ++i)
            csv += QStringLiteral("%1,%2,%3,%4\n")
                       .arg(csvField(QString::fromStdString(curve.name)))
                       .arg(fractions[i], 0, 'g', 4)
                       .arg(i < curve.comprehensiveness.size() ? curve.comprehensiveness[i] : qQNaN(), 0, 'g', 8)
                       .arg(i < curve.sufficiency.size() ? curve.sufficiency[i] : qQNaN(), 0, 'g', 8);
    return writeFileAtomically(path, csv.toUtf8(), error);
}
