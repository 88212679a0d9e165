// EmbeddingPlot's words chosen by hand: the mouse, the keyboard and what a screen reader hears.
#include "ui/core/embeddingplot.h"

#include "ui/core/focusframe.h"

#include <QKeyEvent>
#include <QToolTip>

#include <cmath>
#include <limits>

namespace {

// How far (pixels) a click may land from a point and still pick it.
constexpr double kPickRadius = 8;
// How much one press of + or - zooms.
constexpr double kZoomStep = 1.25;

}  // namespace

int EmbeddingPlot::findWord(const QString &text)
{
    const QString wanted = text.trimmed();
    for (int i = 0; i < wordCount(); ++i)
        if (word(i).compare(wanted, Qt::CaseInsensitive) == 0) {
            emit wordClicked(i);
            return i;
        }
    return -1;
}

// Screen distance, not PC distance: the two axes have their own scales, and "the next word to the
// right" is what the eye sees. The 45-degree cones of the four arrows cover the whole plane, so
// every word lies in some direction of every other.
int EmbeddingPlot::wordInDirection(int from, int direction) const
{
    if (from < 0 || from >= wordCount())
        return -1;
    QPointF unit;  // on screen, y grows downwards
    switch (direction) {
    case Qt::Key_Left:
        unit = QPointF(-1, 0);
        break;
    case Qt::Key_Right:
        unit = QPointF(1, 0);
        break;
    case Qt::Key_Up:
        unit = QPointF(0, -1);
        break;
    case Qt::Key_Down:
        unit = QPointF(0, 1);
        break;
    default:
        return -1;
    }
    const QPointF origin = pixelOf(from);
    int best = -1;
    double bestDistance = std::numeric_limits<double>::max();
    for (int i = 0; i < wordCount(); ++i) {
        if (i == from)
            continue;
        const QPointF d = pixelOf(i) - origin;
        const double along = QPointF::dotProduct(d, unit);
        const double across = d.x() * unit.y() - d.y() * unit.x();
        if (along <= 0 || std::abs(across) > along)
            continue;
        const double distance = std::hypot(along, across);
        if (distance < bestDistance) {
            best = i;
            bestDistance = distance;
        }
    }
    return best;
}

int EmbeddingPlot::wordNearestCentre() const
{
    const QPointF centre = axisRect()->rect().center();
    int best = -1;
    double bestDistance = std::numeric_limits<double>::max();
    for (int i = 0; i < wordCount(); ++i) {
        const QPointF d = pixelOf(i) - centre;
        const double distance = std::hypot(d.x(), d.y());
        if (distance < bestDistance) {
            best = i;
            bestDistance = distance;
        }
    }
    return best;
}

QPointF EmbeddingPlot::pixelOf(int index) const
{
    const ProjectedWord &word = m_words[std::size_t(index)];
    return QPointF(xAxis->coordToPixel(word.x), yAxis->coordToPixel(word.y));
}

// Zoomed in, a word stepped to off screen is brought to the middle.
void EmbeddingPlot::scrollToWord(int index)
{
    const ProjectedWord &word = m_words[std::size_t(index)];
    if (!xAxis->range().contains(word.x))
        xAxis->setRange(word.x, xAxis->range().size(), Qt::AlignCenter);
    if (!yAxis->range().contains(word.y))
        yAxis->setRange(word.y, yAxis->range().size(), Qt::AlignCenter);
}

void EmbeddingPlot::keyPressEvent(QKeyEvent *event)
{
    if (m_words.empty()) {
        QCustomPlot::keyPressEvent(event);
        return;
    }
    const int key = event->key();
    switch (key) {
    case Qt::Key_Left:
    case Qt::Key_Right:
    case Qt::Key_Up:
    case Qt::Key_Down: {
        const int next = m_selected < 0 ? wordNearestCentre() : wordInDirection(m_selected, key);
        if (next >= 0) {
            scrollToWord(next);
            emit wordClicked(next);
        }
        return;
    }
    case Qt::Key_Return:
    case Qt::Key_Enter:
    case Qt::Key_Space:
        emit wordClicked(m_selected < 0 ? wordNearestCentre() : m_selected);
        return;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
    case Qt::Key_Minus: {
        const double factor = key == Qt::Key_Minus ? kZoomStep : 1 / kZoomStep;
        const QPointF centre = m_selected >= 0 ? wordPosition(m_selected)
                                               : QPointF(xAxis->range().center(), yAxis->range().center());
        xAxis->scaleRange(factor, centre.x());
        yAxis->scaleRange(factor, centre.y());
        replot(rpQueuedReplot);
        return;
    }
    case Qt::Key_0:
        resetView();
        replot(rpQueuedReplot);
        return;
    default:
        QCustomPlot::keyPressEvent(event);
    }
}

void EmbeddingPlot::paintEvent(QPaintEvent *event)
{
    QCustomPlot::paintEvent(event);
    paintFocusFrame(*this);
}

void EmbeddingPlot::focusInEvent(QFocusEvent *event)
{
    QCustomPlot::focusInEvent(event);
    update();
}

void EmbeddingPlot::focusOutEvent(QFocusEvent *event)
{
    QCustomPlot::focusOutEvent(event);
    update();
}

void EmbeddingPlot::updateAccessibleDescription()
{
    if (m_selected < 0) {
        setAccessibleDescription(tr("%1 words placed by their vectors' first two principal components; "
                                    "nearby points have similar vectors. Arrow keys step from word to word.")
                                     .arg(wordCount()));
        return;
    }
    QStringList neighbours;
    for (const WordNeighbour &neighbour : m_neighbours)
        neighbours << QStringLiteral("%1 %2").arg(word(neighbour.index)).arg(neighbour.similarity, 0, 'f', 2);
    const QPointF at = wordPosition(m_selected);
    QString text = tr("Selected: %1 at PC1 %2, PC2 %3.").arg(word(m_selected)).arg(at.x(), 0, 'f', 2).arg(at.y(), 0, 'f', 2);
    if (!neighbours.isEmpty())
        text += QLatin1Char(' ') + tr("Nearest by cosine: %1.").arg(neighbours.join(QStringLiteral(", ")));
    setAccessibleDescription(text);
}


int EmbeddingPlot::wordAt(const QPointF &pixel) const
{
    int best = -1;
    double bestDistance = kPickRadius;
    for (int i = 0; i < wordCount(); ++i) {
        const ProjectedWord &word = m_words[std::size_t(i)];
        const double distance = std::hypot(xAxis->coordToPixel(word.x) - pixel.x(),
                                           yAxis->coordToPixel(word.y) - pixel.y());
        if (distance <= bestDistance) {
            best = i;
            bestDistance = distance;
        }
    }
    return best;
}

void EmbeddingPlot::onMousePress(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton)
        return;
    const int index = wordAt(event->position());
    if (index >= 0)
        emit wordClicked(index);
}

void EmbeddingPlot::onMouseMove(QMouseEvent *event)
{
    const int index = wordAt(event->position());
    if (index >= 0)
        QToolTip::showText(event->globalPosition().toPoint(), word(index), this);
    else
        QToolTip::hideText();
}
