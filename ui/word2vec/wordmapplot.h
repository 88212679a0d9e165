#pragma once

#include "ui/core/embeddingplot.h"
#include "ui/core/wordtrails.h"

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
    int trailLength(const QString &word) const { return m_trails.length(word); }  // 0 when not followed

private:
    WordTrails m_trails;
};
