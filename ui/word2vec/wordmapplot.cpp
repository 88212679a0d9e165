#include "ui/word2vec/wordmapplot.h"

WordMapPlot::WordMapPlot(QWidget *parent) : EmbeddingPlot(parent), m_trails(this)
{
    connect(this, &EmbeddingPlot::wordClicked, this, [this](int index) { follow(word(index)); });
}

void WordMapPlot::showMap(const EmbeddingProjection &map, const QString &title)
{
    const int selected = selectedWord();
    const QString selectedWordText = word(selected);
    setProjection(map, title);
    for (int i = 0; i < wordCount(); ++i)
        m_trails.append(word(i), wordPosition(i));
    m_trails.draw();
    if (!selectedWordText.isEmpty() && selected < wordCount() && word(selected) == selectedWordText)
        emit wordClicked(selected);  // the owner puts the highlight back with fresh neighbours
}

void WordMapPlot::follow(const QString &text)
{
    if (text.isEmpty() || m_trails.contains(text))
        return;
    for (int i = 0; i < wordCount(); ++i)
        if (word(i) == text) {
            m_trails.set(text, {wordPosition(i)});
            m_trails.draw();
            return;
        }
}

void WordMapPlot::clearTrails()
{
    m_trails.clear();
    m_trails.draw();
}
