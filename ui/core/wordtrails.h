#pragma once

#include <QHash>
#include <QPointF>
#include <QString>
#include <QVector>

class QCPCurve;
class QCustomPlot;

// Lines through the places words had on an embedding map over time (the refreshes of a training
// run, or the epochs of its history), drawn faintly on `plot` so people see the words move.
class WordTrails
{
public:
    explicit WordTrails(QCustomPlot *plot);

    void set(const QString &word, const QVector<QPointF> &points);
    void append(const QString &word, const QPointF &point);  // only to a word already followed
    void clear();
    bool contains(const QString &word) const { return m_trails.contains(word); }
    int length(const QString &word) const { return int(m_trails.value(word).size()); }  // 0: not followed
    // Puts the trails on the plot; a trail of one point has no line to draw yet.
    void draw();

private:
    QCustomPlot *m_plot;
    QHash<QString, QVector<QPointF>> m_trails;
    QVector<QCPCurve *> m_curves;
};
