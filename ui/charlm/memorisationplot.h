#pragma once

#include <qcustomplot.h>

#include <cstdint>

// The memorisation meter over training: how many characters of the text the model recites
// exactly, decoding greedily from its first character, at each probe. A dashed line marks the
// most the meter counts (the whole text when it is short).
class MemorisationPlot : public QCustomPlot
{
    Q_OBJECT
public:
    explicit MemorisationPlot(QWidget *parent = nullptr);

    void clear();
    void setLimit(int64_t limit, bool wholeText);
    void addPoint(double epochPosition, int64_t characters);

    int pointCount() const { return m_graph->dataCount(); }
    int64_t lastValue() const { return m_last; }
    bool exportImage(const QString &path, int width, int height, QString *error = nullptr);

private:
    void followData();

    QCPGraph *m_graph;
    QCPItemStraightLine *m_limitLine;
    QCPItemText *m_limitText;
    QCPTextElement *m_title;
    int64_t m_limit = 0;
    int64_t m_last = 0;
    int64_t m_best = 0;
    double m_maxPosition = 0;
};
