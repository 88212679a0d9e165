#include "ui/core/embeddingplot.h"

#include "engine/core/pca.h"
#include "ui/core/plotexport.h"
#include "ui/core/plotstyle.h"

#include <algorithm>
#include <exception>
#include <cmath>
#include <limits>
#include <numeric>

namespace {

// How far (pixels) a click may land from a point and still pick it.
constexpr double kPickRadius = 8;
const QColor kWordColor(31, 119, 180);
const QColor kSpecialColor(165, 165, 165);
const QColor kSelectedColor(200, 30, 45);
const QColor kNeighbourColor(215, 105, 0);

bool isSpecialToken(const std::string &word)
{
    return word.size() > 2 && word.front() == '<' && word.back() == '>';
}

QString componentLabel(int component, const PrincipalComponents &pca)
{
    if (component >= pca.components)
        return QObject::tr("PC%1 (none: too few dimensions)").arg(component + 1);
    return QObject::tr("PC%1 (%2% of variance)")
        .arg(component + 1)
        .arg(100 * pca.explainedVariance[std::size_t(component)], 0, 'f', 1);
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
    connect(this, &QCustomPlot::mousePress, this, &EmbeddingPlot::onMousePress);
    // After the layout, before drawing: pixel positions are final for this size and zoom.
    connect(this, &QCustomPlot::afterLayout, this, &EmbeddingPlot::placeLabels);
    connect(this, &QCustomPlot::mouseDoubleClick, this, [this] {
        resetView();
        replot(rpQueuedReplot);
    });
    showMessage(tr("No embeddings to show yet"));
}

void EmbeddingPlot::setEmbeddings(const EmbeddingTable &table, const QString &title)
{
    clearPoints();
    m_title->setText(title);
    const int rows = int(table.words.size());
    const int dimensions = table.dimensions;
    if (rows == 0) {
        showMessage(tr("No embeddings to show"));
        return;
    }
    if (dimensions <= 0 || table.values.size() != std::size_t(rows) * std::size_t(dimensions)) {
        showMessage(tr("Cannot show embeddings: %1 values for %2 words x %3 dimensions")
                        .arg(table.values.size()).arg(rows).arg(dimensions));
        return;
    }

    // Special tokens are trained differently (or not at all, like <PAD>); fitting the axes to the
    // vocabulary's words keeps them from spending a component on a few outliers.
    std::vector<int> fitRows;
    for (int row = 0; row < rows; ++row)
        if (!isSpecialToken(table.words[std::size_t(row)]))
            fitRows.push_back(row);
    if (fitRows.size() < 2) {
        fitRows.resize(std::size_t(rows));
        std::iota(fitRows.begin(), fitRows.end(), 0);
    }
    std::vector<float> fitValues;
    fitValues.reserve(fitRows.size() * std::size_t(dimensions));
    for (int row : fitRows) {
        const auto begin = table.values.begin() + std::ptrdiff_t(row) * dimensions;
        fitValues.insert(fitValues.end(), begin, begin + dimensions);
    }
    PrincipalComponents pca;
    try {
        pca = principalComponents(fitValues, int(fitRows.size()), dimensions, 2);
    } catch (const std::exception &error) {
        showMessage(tr("Cannot show embeddings: %1").arg(QString::fromStdString(error.what())));
        return;
    }

    m_values = table.values;
    m_dimensions = dimensions;
    for (int row = 0; row < rows; ++row) {
        const std::string &word = table.words[std::size_t(row)];
        double coordinates[2] = {0, 0};
        for (int component = 0; component < pca.components; ++component) {
            for (int d = 0; d < dimensions; ++d) {
                const double centred = double(table.values[std::size_t(row) * dimensions + d]) - pca.mean[std::size_t(d)];
                coordinates[component] += centred * pca.axes[std::size_t(component) * dimensions + d];
            }
        }
        const QPointF position(coordinates[0], coordinates[1]);
        const bool special = isSpecialToken(word);
        m_words.push_back(QString::fromStdString(word));
        m_special.push_back(special);
        m_positions.push_back(position);
        (special ? m_specialGraph : m_wordGraph)->addData(position.x(), position.y());

        auto *label = new QCPItemText(this);
        label->position->setCoords(position);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        label->setPadding(QMargins(6, 0, 0, 0));
        label->setText(m_words.back());
        label->setSelectable(false);
        m_labels << label;
    }
    xAxis->setLabel(componentLabel(0, pca));
    yAxis->setLabel(componentLabel(1, pca));
    m_message->setVisible(false);
    updateHighlight();
    resetView();
    replot(rpQueuedReplot);
}

void EmbeddingPlot::selectWord(int index)
{
    if (index < 0 || index >= wordCount()) {
        m_selected = -1;
        updateHighlight();
        replot(rpQueuedReplot);
        return;
    }
    m_selected = index;
    updateHighlight();
    replot(rpQueuedReplot);
    emit wordSelected(m_words[std::size_t(index)], neighbours(index));
}

QString EmbeddingPlot::word(int index) const
{
    return index >= 0 && index < wordCount() ? m_words[std::size_t(index)] : QString();
}

QPointF EmbeddingPlot::wordPosition(int index) const
{
    return index >= 0 && index < wordCount() ? m_positions[std::size_t(index)] : QPointF();
}

QStringList EmbeddingPlot::neighbours(int index) const
{
    QStringList result;
    for (const auto &[row, similarity] : nearestWords(index))
        result << QStringLiteral("%1  %2").arg(m_words[std::size_t(row)]).arg(similarity, 0, 'f', 2);
    return result;
}

bool EmbeddingPlot::exportImage(const QString &path, int width, int height, QString *error)
{
    const bool written = exportPlotImage(*this, path, width, height, error);
    replot(rpQueuedReplot);  // the export laid the plot out at its own size
    return written;
}

void EmbeddingPlot::showMessage(const QString &message)
{
    clearPoints();
    xAxis->setLabel(QStringLiteral("PC1"));
    yAxis->setLabel(QStringLiteral("PC2"));
    xAxis->setRange(-1, 1);
    yAxis->setRange(-1, 1);
    showPlotMessage(*this, *m_message, message);
    replot(rpQueuedReplot);
}

void EmbeddingPlot::clearPoints()
{
    for (QCPItemText *label : std::as_const(m_labels))
        removeItem(label);
    m_labels.clear();
    for (QCPGraph *graph : {m_wordGraph, m_specialGraph, m_neighbourGraph, m_selectedGraph})
        graph->data()->clear();
    m_words.clear();
    m_special.clear();
    m_values.clear();
    m_positions.clear();
    m_dimensions = 0;
    m_selected = -1;
}

void EmbeddingPlot::resetView()
{
    if (m_positions.empty())
        return;
    double left = std::numeric_limits<double>::max();
    double right = std::numeric_limits<double>::lowest();
    double bottom = left;
    double top = right;
    for (const QPointF &p : m_positions) {
        left = std::min(left, p.x());
        right = std::max(right, p.x());
        bottom = std::min(bottom, p.y());
        top = std::max(top, p.y());
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
    const auto near = nearestWords(m_selected);
    QFont wordFont = xAxis->tickLabelFont();
    QFont specialFont = wordFont;
    specialFont.setItalic(true);
    specialFont.setPointSize(std::max(6, wordFont.pointSize() - 1));
    QFont strongFont = wordFont;
    strongFont.setBold(true);
    for (int i = 0; i < m_labels.size(); ++i) {
        const bool special = m_special[std::size_t(i)];
        m_labels[i]->setFont(special ? specialFont : wordFont);
        m_labels[i]->setColor(special ? kSpecialColor.darker(115) : QColor(40, 40, 40));
    }
    for (const auto &neighbour : near) {
        const int index = neighbour.first;
        m_neighbourGraph->addData(m_positions[std::size_t(index)].x(), m_positions[std::size_t(index)].y());
        m_labels[index]->setFont(strongFont);
        m_labels[index]->setColor(kNeighbourColor);
    }
    if (m_selected >= 0) {
        m_selectedGraph->addData(m_positions[std::size_t(m_selected)].x(), m_positions[std::size_t(m_selected)].y());
        m_labels[m_selected]->setFont(strongFont);
        m_labels[m_selected]->setColor(kSelectedColor);
    }
}

void EmbeddingPlot::placeLabels()
{
    if (m_labels.isEmpty() || m_labels.size() > kMaxPlacedLabels)
        return;
    const QRectF area = axisRect()->rect();
    std::vector<QPointF> pixels;
    for (const QPointF &p : m_positions)
        pixels.emplace_back(xAxis->coordToPixel(p.x()), yAxis->coordToPixel(p.y()));
    // Rings drawn around highlighted points make them larger obstacles.
    std::vector<double> radius(pixels.size(), 4.0);
    const auto near = nearestWords(m_selected);
    for (const auto &neighbour : near)
        radius[std::size_t(neighbour.first)] = 7.5;
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
    for (const auto &neighbour : near)
        order.push_back(neighbour.first);
    for (int pass = 0; pass < 2; ++pass)
        for (int i = 0; i < wordCount(); ++i)
            if (m_special[std::size_t(i)] == (pass == 1) && std::find(order.begin(), order.end(), i) == order.end())
                order.push_back(i);

    std::vector<QRectF> taken;
    for (int index : order) {
        QCPItemText *label = m_labels[index];
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

std::vector<std::pair<int, double>> EmbeddingPlot::nearestWords(int index) const
{
    std::vector<std::pair<int, double>> result;
    if (index < 0 || index >= wordCount())
        return result;
    for (const auto &entry : nearestByCosine(m_values, wordCount(), m_dimensions, index, wordCount() - 1)) {
        if (m_special[std::size_t(entry.first)])
            continue;
        result.push_back(entry);
        if (int(result.size()) == kNeighbours)
            break;
    }
    return result;
}

int EmbeddingPlot::wordAt(const QPointF &pixel) const
{
    int best = -1;
    double bestDistance = kPickRadius;
    for (int i = 0; i < wordCount(); ++i) {
        const QPointF p = m_positions[std::size_t(i)];
        const double distance = std::hypot(xAxis->coordToPixel(p.x()) - pixel.x(),
                                           yAxis->coordToPixel(p.y()) - pixel.y());
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
        selectWord(index);
}
