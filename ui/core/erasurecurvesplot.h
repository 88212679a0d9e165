#pragma once

#include "engine/core/faithfulnessreport.h"

#include <qcustomplot.h>

// ERASER's two curves side by side against k, the share of source words a method ranks highest:
// comprehensiveness (how much P(output) falls when they are left out; higher is more faithful) and
// sufficiency (how much it falls when only they are kept; lower is more faithful). One line per
// method in its own colour, the random ranking dashed grey as the baseline.
class ErasureCurvesPlot : public QCustomPlot
{
    Q_OBJECT
public:
    explicit ErasureCurvesPlot(QWidget *parent = nullptr);

    void setCurves(const std::vector<ErasureCurve> &curves);
    void showMessage(const QString &message);

    int curveCount() const { return int(m_curves.size()); }
    const std::vector<ErasureCurve> &curves() const { return m_curves; }
    QCPAxisRect *comprehensivenessRect() const { return m_comprehensiveness; }
    QCPAxisRect *sufficiencyRect() const { return m_sufficiency; }

    bool exportImage(const QString &path, int width, int height, QString *error = nullptr);
    // A row per curve and k: curve, k, comprehensiveness, sufficiency.
    bool exportCsv(const QString &path, QString *error = nullptr) const;

private:
    QCPAxisRect *m_comprehensiveness;
    QCPAxisRect *m_sufficiency;
    QCPItemText *m_message;
    std::vector<ErasureCurve> m_curves;
};

// The colour a method (by attributionMethodName, or "random") has in every attribution plot.
QColor attributionColor(const std::string &name);
