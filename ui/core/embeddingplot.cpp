#include "ui/core/embeddingplot.h"

#include "ui/core/okabeitocolors.h"
#include "ui/core/plotexport.h"
#include "ui/core/plotstyle.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace {

// Selected (vermillion) and neighbours (purple) differ in lightness as well as hue, so they stay apart
// without red-green vision; their rings also differ in size.
const QColor kWordColor = okabeito::blue;
const QColor kSpecialColor(165, 165, 165);
const QColor kSelectedColor = okabeito::vermillion;
const QColor kNeighbourColor(170, 51, 119);

QString componentLabel(int component, const EmbeddingProjection &projection)
{
    if (component >= projection.components)
        return QObject::tr("PC%1 (none: too few dimensions)").arg(component + 1);
    return QObject::tr("PC%1 (%2% of variance)")
        .arg(component + 1)
        .arg(100 * projection.explainedVariance[component], 0, 'f', 1);
}

} // namespace

EmbeddingPlot::EmbeddingPlot(QWidget *parent)
    : QCustomPlot(parent)
{
    const PlotFonts fonts = plotFonts(font());
    const QFont &tickFont = fonts.tick;
    const QFont &labelFont = fonts.label;
    m_title = addPlotTitle(*this, QString(), fonts);
    for (QCPAxis *axis : {xAxis, yAxis}) {
        axis->setTickLabelFont(tickFont);
        axis->setLabelFont(labelFont);
        axis->grid()->setZeroLinePen(QPen(QColor(200, 200, 200), 1, Qt::DashLine));
    }

    m_specialGraph = new QCPGraph(xAxis, yAxis);
    m_specialGraph->setLineStyle(QCPGraph::lsNone);
    m_specialGraph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, kSpecialColor, kSpecialColor, 5));
    m_wordGraph = new QCPGraph(xAxis, yAxis);
    m_wordGraph->setLineStyle(QCPGraph::lsNone);
    m_wordGraph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, kWordColor, kWordColor, 7));
    m_neighbourGraph = new QCPGraph(xAxis, yAxis);
    m_neighbourGraph->setLineStyle(QCPGraph::lsNone);
    m_neighbourGraph->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(kNeighbourColor, 2), Qt::NoBrush, 13));
    m_selectedGraph = new QCPGraph(xAxis, yAxis);
    m_selectedGraph->setLineStyle(QCPGraph::lsNone);
    m_selectedGraph->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(kSelectedColor, 2.5), Qt::NoBrush, 17));

    m_message = addPlotMessage(*this, fonts);

    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    setFocusPolicy(Qt::StrongFocus);
    setAccessibleName(tr("Word embedding map"));
    connect(this, &QCustomPlot::mousePress, this, &EmbeddingPlot::onMousePress);
    connect(this, &QCustomPlot::mouseMove, this, &EmbeddingPlot::onMouseMove);
    // After the layout, before drawing: pixel positions are final for this size and zoom.
    connect(this, &QCustomPlot::afterLayout, this, &EmbeddingPlot::placeLabels);
    connect(this, &QCustomPlot::mouseDoubleClick, this, [this] {
        resetView();
        replot(rpQueuedReplot);
    });
    showMessage(tr("No embeddings to show yet"));
}

void EmbeddingPlot::setProjection(const EmbeddingProjection &projection, const QString &title)
{
    if (projection.words.empty()) {
        showMessage(tr("No embeddings to show"), title);
        return;
    }
    clearPoints();
    m_title->setText(title);
    m_words = projection.words;
    m_labels.fill(nullptr, wordCount());
    for (int i = 0; i < wordCount(); ++i) {
        const ProjectedWord &word = m_words[std::size_t(i)];
        (word.special ? m_specialGraph : m_wordGraph)->addData(word.x, word.y);
        if (i < m_labelLimit)
            addLabel(i);
    }
    xAxis->setLabel(componentLabel(0, projection));
    yAxis->setLabel(componentLabel(1, projection));
    m_message->setVisible(false);
    updateHighlight();
    updateAccessibleDescription();
    resetView();
    replot(rpQueuedReplot);
}

QCPItemText *EmbeddingPlot::addLabel(int index)
{
    if (!m_labels[index]) {
        const ProjectedWord &word = m_words[std::size_t(index)];
        auto *label = new QCPItemText(this);
        label->position->setCoords(word.x, word.y);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        label->setPadding(QMargins(6, 0, 0, 0));
        label->setText(QString::fromStdString(word.word));
        label->setSelectable(false);
        m_labels[index] = label;
    }
    return m_labels[index];
}

void EmbeddingPlot::setSelection(int index, const std::vector<WordNeighbour> &neighbours)
{
    m_selected = index >= 0 && index < wordCount() ? index : -1;
    m_neighbours.clear();
    if (m_selected >= 0)
        for (const WordNeighbour &neighbour : neighbours)
            if (neighbour.index >= 0 && neighbour.index < wordCount())
                m_neighbours.push_back(neighbour);
    updateHighlight();
    updateAccessibleDescription();
    replot(rpQueuedReplot);
}

QString EmbeddingPlot::word(int index) const
{
    return index >= 0 && index < wordCount() ? QString::fromStdString(m_words[std::size_t(index)].word) : QString();
}

QPointF EmbeddingPlot::wordPosition(int index) const
{
    if (index < 0 || index >= wordCount())
        return QPointF();
    return QPointF(m_words[std::size_t(index)].x, m_words[std::size_t(index)].y);
}

bool EmbeddingPlot::exportImage(const QString &path, int width, int height, QString *error)
{
    const bool written = exportPlotImage(*this, path, width, height, error);
    replot(rpQueuedReplot);  // the export laid the plot out at its own size
    return written;
}

void EmbeddingPlot::showMessage(const QString &message, const QString &title)
{
    clearPoints();
    m_title->setText(title);
    xAxis->setLabel(QStringLiteral("PC1"));
    yAxis->setLabel(QStringLiteral("PC2"));
    xAxis->setRange(-1, 1);
    yAxis->setRange(-1, 1);
    showPlotMessage(*this, *m_message, message);
    setAccessibleDescription(message);
    replot(rpQueuedReplot);
}

void EmbeddingPlot::clearPoints()
{
    for (QCPItemText *label : std::as_const(m_labels))
        if (label)
            removeItem(label);
    m_labels.clear();
    for (QCPGraph *graph : {m_wordGraph, m_specialGraph, m_neighbourGraph, m_selectedGraph})
        graph->data()->clear();
    m_words.clear();
    m_neighbours.clear();
    m_selected = -1;
}

void EmbeddingPlot::resetView()
{
    if (m_words.empty())
        return;
    double left = std::numeric_limits<double>::max();
    double right = std::numeric_limits<double>::lowest();
    double bottom = left;
    double top = right;
    for (const ProjectedWord &word : m_words) {
        left = std::min(left, word.x);
        right = std::max(right, word.x);
        bottom = std::min(bottom, word.y);
        top = std::max(top, word.y);
    }
    const double width = right - left > 1e-9 ? right - left : 1.0;
    const double height = top - bottom > 1e-9 ? top - bottom : 1.0;
    // Extra room on the right: labels sit to the right of their points.
    xAxis->setRange(left - 0.06 * width, right + 0.16 * width);
    yAxis->setRange(bottom - 0.07 * height, top + 0.07 * height);
}

void EmbeddingPlot::updateHighlight()
{
    m_neighbourGraph->data()->clear();
    m_selectedGraph->data()->clear();
    QFont wordFont = xAxis->tickLabelFont();
    QFont specialFont = wordFont;
    specialFont.setItalic(true);
    specialFont.setPointSize(std::max(6, wordFont.pointSize() - 1));
    QFont strongFont = wordFont;
    strongFont.setBold(true);
    for (int i = 0; i < m_labels.size(); ++i) {
        if (!m_labels[i])
            continue;
        if (i >= m_labelLimit) {  // labelled only while it was highlighted
            removeItem(m_labels[i]);
            m_labels[i] = nullptr;
            continue;
        }
        const bool special = m_words[std::size_t(i)].special;
        m_labels[i]->setFont(special ? specialFont : wordFont);
        m_labels[i]->setColor(special ? kSpecialColor.darker(115) : QColor(40, 40, 40));
    }
    for (const WordNeighbour &neighbour : m_neighbours) {
        const int index = neighbour.index;
        m_neighbourGraph->addData(m_words[std::size_t(index)].x, m_words[std::size_t(index)].y);
        addLabel(index)->setFont(strongFont);
        m_labels[index]->setColor(kNeighbourColor);
    }
    if (m_selected >= 0) {
        m_selectedGraph->addData(m_words[std::size_t(m_selected)].x, m_words[std::size_t(m_selected)].y);
        addLabel(m_selected)->setFont(strongFont);
        m_labels[m_selected]->setColor(kSelectedColor);
    }
}

void EmbeddingPlot::placeLabels()
{
    if (m_labels.isEmpty() || std::min<int>(m_labelLimit, m_labels.size()) > kMaxPlacedLabels)
        return;
    const QRectF area = axisRect()->rect();
    std::vector<QPointF> pixels;
    for (const ProjectedWord &word : m_words)
        pixels.emplace_back(xAxis->coordToPixel(word.x), yAxis->coordToPixel(word.y));
    // Rings drawn around highlighted points make them larger obstacles.
    std::vector<double> radius(pixels.size(), 4.0);
    for (const WordNeighbour &neighbour : m_neighbours)
        radius[std::size_t(neighbour.index)] = 7.5;
    if (m_selected >= 0)
        radius[std::size_t(m_selected)] = 9.5;
    const auto overlap = [](const QRectF &a, const QRectF &b) {
        const QRectF common = a.intersected(b);
        return common.isEmpty() ? 0.0 : common.width() * common.height();
    };

    // Highlighted words choose first, special tokens last.
    std::vector<int> order;
    if (m_selected >= 0)
        order.push_back(m_selected);
    for (const WordNeighbour &neighbour : m_neighbours)
        order.push_back(neighbour.index);
    for (int pass = 0; pass < 2; ++pass)
        for (int i = 0; i < wordCount(); ++i)
            if (m_words[std::size_t(i)].special == (pass == 1) && std::find(order.begin(), order.end(), i) == order.end())
                order.push_back(i);

    std::vector<QRectF> taken;
    for (int index : order) {
        QCPItemText *label = m_labels[index];
        if (!label)
            continue;
        const QPointF at = pixels[std::size_t(index)];
        const int gap = int(std::ceil(radius[std::size_t(index)])) + 2;
        struct Placement {
            Qt::Alignment alignment;
            QMargins padding;
        };
        const Placement placements[] = {
            {Qt::AlignLeft | Qt::AlignVCenter, QMargins(gap, 0, 0, 0)},
            {Qt::AlignRight | Qt::AlignVCenter, QMargins(0, 0, gap, 0)},
            {Qt::AlignHCenter | Qt::AlignBottom, QMargins(0, 0, 0, gap - 2)},
            {Qt::AlignHCenter | Qt::AlignTop, QMargins(0, gap - 2, 0, 0)},
        };
        const QSizeF text = QFontMetricsF(label->font()).size(0, label->text());
        double bestCost = std::numeric_limits<double>::max();
        QRectF bestRect;
        Placement best = placements[0];
        for (const Placement &placement : placements) {
            const QMargins &pad = placement.padding;
            const double width = text.width() + pad.left() + pad.right();
            const double height = text.height() + pad.top() + pad.bottom();
            double left = at.x() - width / 2;
            if (placement.alignment & Qt::AlignLeft)
                left = at.x();
            else if (placement.alignment & Qt::AlignRight)
                left = at.x() - width;
            double top = at.y() - height / 2;
            if (placement.alignment & Qt::AlignTop)
                top = at.y();
            else if (placement.alignment & Qt::AlignBottom)
                top = at.y() - height;
            const QRectF rect = QRectF(left, top, width, height).marginsRemoved(QMarginsF(pad));
            double cost = rect.width() * rect.height() - overlap(rect, area);  // outside the plot
            for (const QRectF &other : taken)
                cost += overlap(rect, other);
            for (std::size_t i = 0; i < pixels.size(); ++i)
                if (int(i) != index)
                    cost += overlap(rect, QRectF(pixels[i] - QPointF(radius[i], radius[i]),
                                                 QSizeF(2 * radius[i], 2 * radius[i])));
            if (cost < bestCost) {
                bestCost = cost;
                bestRect = rect;
                best = placement;
            }
            if (cost <= 0)
                break;
        }
        label->setPositionAlignment(best.alignment);
        label->setPadding(best.padding);
        taken.push_back(bestRect);
    }
}
