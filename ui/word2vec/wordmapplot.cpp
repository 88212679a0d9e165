#include "ui/word2vec/wordmapplot.h"

namespace {

const QColor kTrailColor(200, 30, 45, 110);

}

WordMapPlot::WordMapPlot(QWidget *parent) : EmbeddingPlot(parent)
{
    connect(this, &EmbeddingPlot::wordClicked, this, [this](int index) { follow(word(index)); });
}

void WordMapPlot::showMap(const EmbeddingProjection &map, const QString &title)
{
    const int selected = selectedWord();
    const QString selectedWordText = word(selected);
    setProjection(map, title);
    for (int i = 0; i < wordCount(); ++i) {
        const auto trail = m_trails.find(word(i));
        if (trail != m_trails.end())
            trail->append(wordPosition(i));
    }
    drawTrails();
    if (!selectedWordText.isEmpty() && selected < wordCount() && word(selected) == selectedWordText)
        emit wordClicked(selected);  // the owner puts the highlight back with fresh neighbours
}

void WordMapPlot::follow(const QString &text)
{
    if (text.isEmpty() || m_trails.contains(text))
        return;
    for (int i = 0; i < wordCount(); ++i)
        if (word(i) == text) {
            m_trails.insert(text, {wordPosition(i)});
            drawTrails();
            return;
        }
}

void WordMapPlot::clearTrails()
{
    m_trails.clear();
    drawTrails();
}

int WordMapPlot::trailLength(const QString &text) const
{
    return int(m_trails.value(text).size());
}

void WordMapPlot::drawTrails()
{
    for (QCPCurve *curve : std::as_const(m_curves))
        removePlottable(curve);
    m_curves.clear();
    for (auto trail = m_trails.cbegin(); trail != m_trails.cend(); ++trail) {
        if (trail->size() < 2)
            continue;
        auto *curve = new QCPCurve(xAxis, yAxis);
        curve->setPen(QPen(kTrailColor, 1.5));
        curve->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDot, kTrailColor, 3));
        for (const QPointF &point : *trail)
            curve->addData(point.x(), point.y());
        curve->setSelectable(QCP::stNone);
        m_curves << curve;
    }
    replot(rpQueuedReplot);
}
