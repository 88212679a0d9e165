#pragma once

#include "ui/core/embeddingplot.h"

#include <QHash>
#include <QVector>

class QCPCurve;

// The word-embedding lab's map: the embedding plot, labels on the most frequent words only, and a
// trail through the places a followed word had at each refresh, so people see words move.
class WordMapPlot : public EmbeddingPlot
{
    Q_OBJECT
public:
    explicit WordMapPlot(QWidget *parent = nullptr);

    // A refresh of the same run: followed words extend their trails.
    void showMap(const EmbeddingProjection &map, const QString &title);
    void follow(const QString &word);
    void clearTrails();  // a new run, or vectors from a file
    int trailLength(const QString &word) const;  // positions kept for `word`; 0 when not followed

private:
    void drawTrails();

    QHash<QString, QVector<QPointF>> m_trails;
    QVector<QCPCurve *> m_curves;
};
