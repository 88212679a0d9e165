#include "ui/core/attentionheatmap.h"

#include "ui/core/colorgradients.h"
#include "ui/core/plotexport.h"
#include "ui/core/plotstyle.h"
#include "ui/core/plottheme.h"

#include <QLocale>

#include <algorithm>
#include <cmath>

namespace {

// Above this many cells the numbers would be noise; the colours carry the information.
constexpr int kMaxNumberedCells = 15 * 15;
// Below this a plot of a few rows has no room for its labels and colour scale.
constexpr int kMinimumHeight = 180;
const QString kSelectionLayer = QStringLiteral("selection");
const QString kRightCellLayer = QStringLiteral("rightCells");
// Right-cell outlines sit this far inside their cell: outlines of neighbouring cells never merge.
constexpr double kRightCellInset = 0.05;

QCPItemRect *makeBox(QCustomPlot *plot, const QPen &pen)
{
    auto *box = new QCPItemRect(plot);
    box->setLayer(kSelectionLayer);
    box->setPen(pen);
    box->setBrush(Qt::NoBrush);
    box->setSelectable(false);
    box->setClipToAxisRect(false);  // outlines on the border stay whole
    box->setVisible(false);
    return box;
}

void placeBox(QCPItemRect *box, double left, double top, double right, double bottom)
{
    box->topLeft->setCoords(left, top);
    box->bottomRight->setCoords(right, bottom);
    box->setVisible(true);
}

} // namespace

AttentionHeatmap::AttentionHeatmap(QWidget *parent)
    : QCustomPlot(parent)
{
    setMouseTracking(true);  // hover tooltips without a pressed button
    setFocusPolicy(Qt::StrongFocus);
    setAccessibleName(tr("Attention heatmap"));
    // Cached tick labels keep their old rotation until the next draw, and margins are measured
    // from that cache: with rotation changing between layouts the margins would be wrong.
    setPlottingHint(QCP::phCacheLabels, false);
    const PlotFonts fonts = plotFonts(font());
    const QFont &tickFont = fonts.tick;
    const QFont &labelFont = fonts.label;
    m_title = addPlotTitle(*this, QString(), fonts);
    m_footnote = new QCPTextElement(this, QString(), tickFont);
    m_footnote->setTextColor(QColor(80, 80, 80));

    m_map = new QCPColorMap(xAxis, yAxis);
    m_map->setInterpolate(false);
    m_scale = new QCPColorScale(this);
    plotLayout()->addElement(1, 1, m_scale);
    m_scale->setType(QCPAxis::atRight);
    m_scale->setBarWidth(14);
    m_scale->setLabel(tr("attention weight"));
    m_scale->axis()->setLabelFont(labelFont);
    m_scale->axis()->setTickLabelFont(tickFont);
    m_map->setColorScale(m_scale);
    QCPColorGradient gradient = viridisGradient();
    gradient.setNanHandling(QCPColorGradient::nhNanColor);
    gradient.setNanColor(QColor(190, 190, 190));
    m_map->setGradient(gradient);
    // Fixed, never rescaled: the same colour means the same weight in every sentence.
    m_map->setDataRange(QCPRange(0, 1));
    auto *margins = new QCPMarginGroup(this);
    axisRect()->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
    m_scale->setMarginGroup(QCP::msTop | QCP::msBottom, margins);

    xAxis->setLabel(tr("encoder tokens (input)"));
    yAxis->setLabel(tr("decoder steps (output)"));
    yAxis->setRangeReversed(true);  // first decoder step at the top, like reading
    for (QCPAxis *axis : {xAxis, yAxis}) {
        axis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
        axis->grid()->setVisible(false);
        axis->setSubTicks(false);
        axis->setTickLength(0, 4);
        axis->setTickLabelFont(tickFont);
        axis->setLabelFont(labelFont);
    }

    addLayer(kSelectionLayer, layer(QStringLiteral("main")), QCustomPlot::limAbove);
    addLayer(kRightCellLayer, layer(QStringLiteral("main")), QCustomPlot::limAbove);
    m_message = addPlotMessage(*this, fonts);
    m_message->setLayer(kSelectionLayer);
    m_rowBox = makeBox(this, QPen(QColor(255, 64, 64), 2, Qt::DashLine));
    m_columnBox = makeBox(this, QPen(QColor(255, 64, 64), 2, Qt::DashLine));
    // A black halo under a white frame: the selected cell stands out on dark and on light cells.
    m_cellHalo = makeBox(this, QPen(Qt::black, 5));
    m_cellBox = makeBox(this, QPen(Qt::white, 2));

    connect(this, &QCustomPlot::mousePress, this, &AttentionHeatmap::onMousePress);
    connect(this, &QCustomPlot::mouseMove, this, &AttentionHeatmap::onMouseMove);
    showMessage(tr("No attention to show yet"));
}

void AttentionHeatmap::setMatrix(const QStringList &sourceTokens, const QStringList &outputTokens,
                                 const std::vector<float> &weights)
{
    setMatrix(HeatmapMatrix{sourceTokens, outputTokens, weights, {}, {}, {}});
}

void AttentionHeatmap::setMatrix(const HeatmapMatrix &matrix)
{
    if (matrix.columns.isEmpty() || matrix.rows.isEmpty()) {
        showMessage(tr("No attention to show: the sentence has no tokens"));
        return;
    }
    const std::size_t expected = std::size_t(matrix.columns.size()) * std::size_t(matrix.rows.size());
    if (matrix.weights.size() != expected) {
        showMessage(tr("Cannot show attention: %1 weights for %2 output x %3 input tokens")
                        .arg(matrix.weights.size()).arg(matrix.rows.size()).arg(matrix.columns.size()));
        return;
    }
    m_sourceTokens = matrix.columns;
    m_outputTokens = matrix.rows;
    m_weights = matrix.weights;
    m_selectedRow = m_selectedColumn = -1;
    m_rightCells.clear();
    m_message->setVisible(false);
    rebuildTicks(matrix.columnKnown, matrix.rowCopied, matrix.rowGate);
    rebuildCells();
    rebuildRightCellItems();
    updateSelectionItems();
    updateAccessibleDescription();
    adaptToViewport();
    replot(rpQueuedReplot);
}

void AttentionHeatmap::showMessage(const QString &message)
{
    m_sourceTokens.clear();
    m_outputTokens.clear();
    m_weights.clear();
    m_selectedRow = m_selectedColumn = -1;
    m_rightCells.clear();
    m_map->data()->clear();
    m_map->setVisible(false);
    rebuildCells();
    rebuildRightCellItems();
    rebuildTicks({}, {}, {});
    updateSelectionItems();
    xAxis->setRange(0, 1);
    yAxis->setRange(0, 1);
    showPlotMessage(*this, *m_message, message);
    setAccessibleDescription(message);
    replot(rpQueuedReplot);
}

void AttentionHeatmap::setColorScale(const QCPColorGradient &gradient, const QCPRange &range, const QString &label)
{
    QCPColorGradient withNan = gradient;
    withNan.setNanHandling(QCPColorGradient::nhNanColor);
    withNan.setNanColor(m_map->gradient().nanColor());
    m_map->setGradient(withNan);
    m_map->setDataRange(range);
    m_scale->setLabel(label);
    rebuildCells();  // the numbers' colours follow the cells'
    replot(rpQueuedReplot);
}

void AttentionHeatmap::setTitle(const QString &title)
{
    m_fullTitle = title;
    fitTitle();
    replot(rpQueuedReplot);
}

void AttentionHeatmap::setRoles(const QString &rowRole, const QString &rowAxisLabel, const QString &columnRole,
                                const QString &columnAxisLabel)
{
    m_rowRole = rowRole;
    m_columnRole = columnRole;
    yAxis->setLabel(rowAxisLabel);
    xAxis->setLabel(columnAxisLabel);
    updateAccessibleDescription();
    replot(rpQueuedReplot);
}

void AttentionHeatmap::setRightCells(const std::vector<int> &columnPerRow)
{
    m_rightCells = columnPerRow;
    rebuildRightCellItems();
    replot(rpQueuedReplot);
}

void AttentionHeatmap::setRightCellsShown(bool shown)
{
    if (shown == m_rightCellsShown)
        return;
    m_rightCellsShown = shown;
    rebuildRightCellItems();
    replot(rpQueuedReplot);
}

void AttentionHeatmap::rebuildRightCellItems()
{
    for (QCPItemRect *item : std::as_const(m_rightCellItems))
        removeItem(item);
    m_rightCellItems.clear();
    if (m_rightCellsShown) {
        QPen white(Qt::white, 1.2, Qt::DashLine);
        // A black frame under a white dashed one: it reads on the dark and the bright end of the
        // colour map, and stays apart from the selection's solid frame.
        for (int row = 0; row < std::min(rows(), int(m_rightCells.size())); ++row) {
            const int column = m_rightCells[std::size_t(row)];
            if (column < 0 || column >= columns())
                continue;
            for (const QPen &pen : {QPen(Qt::black, 2.5), white}) {
                QCPItemRect *box = makeBox(this, pen);
                box->setLayer(kRightCellLayer);
                box->setObjectName(rightCellObjectName());
                placeBox(box, column - 0.5 + kRightCellInset, row - 0.5 + kRightCellInset,
                         column + 0.5 - kRightCellInset, row + 0.5 - kRightCellInset);
                m_rightCellItems << box;
            }
        }
    }
    updateFootnote();
}

float AttentionHeatmap::weight(int row, int column) const
{
    if (row < 0 || row >= rows() || column < 0 || column >= columns())
        return 0;
    return m_weights[std::size_t(row) * std::size_t(columns()) + std::size_t(column)];
}

bool AttentionHeatmap::exportImage(const QString &path, int width, int height, QString *error)
{
    // Lay out for the export size first, so label rotation and cell numbers suit the image.
    const QRect widgetViewport = viewport();
    setViewport(QRect(QPoint(0, 0), exportLayoutSize(width, height)));
    adaptToViewport();
    const bool written = exportPlotImage(*this, path, width, height, error);
    setViewport(widgetViewport);
    adaptToViewport();
    replot(rpQueuedReplot);
    return written;
}

bool AttentionHeatmap::exportCsv(const QString &path, QString *error) const
{
    if (rows() == 0 || columns() == 0) {
        if (error)
            *error = tr("No attention matrix to export.");
        return false;
    }
    QString csv;
    for (const QString &token : m_sourceTokens)
        csv += QLatin1Char(',') + csvField(token);
    csv += QLatin1Char('\n');
    for (int row = 0; row < rows(); ++row) {
        csv += csvField(m_outputTokens[row]);
        for (int column = 0; column < columns(); ++column)
            csv += QLatin1Char(',') + QString::number(double(weight(row, column)), 'f', 6);
        csv += QLatin1Char('\n');
    }
    return writeFileAtomically(path, csv.toUtf8(), error);
}

QSize AttentionHeatmap::minimumSizeHint() const
{
    const QSize base = QCustomPlot::minimumSizeHint();
    const int besideCells = std::max(viewport().height() - axisRect()->height(), 0);
    const int rowHeight = QFontMetrics(yAxis->tickLabelFont()).height();
    return QSize(base.width(), std::max({base.height(), kMinimumHeight, besideCells + rows() * rowHeight}));
}

void AttentionHeatmap::resizeEvent(QResizeEvent *event)
{
    QCustomPlot::resizeEvent(event);
    adaptToViewport();
}

void AttentionHeatmap::showEvent(QShowEvent *event)
{
    QCustomPlot::showEvent(event);
    // Data set while the plot was hidden (another tab) was fitted to the size it had when last shown.
    setViewport(rect());
    adaptToViewport();
    replot(rpQueuedReplot);
}

void AttentionHeatmap::rebuildCells()
{
    for (QCPItemText *text : std::as_const(m_cellTexts))
        removeItem(text);
    m_cellTexts.clear();
    const int columnCount = columns();
    const int rowCount = rows();
    if (columnCount == 0 || rowCount == 0)
        return;

    // QCPColorMap draws a dimension of one cell with zero width; two equal half-cells fill it.
    const int keyCells = columnCount == 1 ? 2 : columnCount;
    const int valueCells = rowCount == 1 ? 2 : rowCount;
    QCPColorMapData *data = m_map->data();
    data->setSize(keyCells, valueCells);
    data->setRange(columnCount == 1 ? QCPRange(-0.25, 0.25) : QCPRange(0, columnCount - 1),
                   rowCount == 1 ? QCPRange(-0.25, 0.25) : QCPRange(0, rowCount - 1));
    for (int key = 0; key < keyCells; ++key) {
        for (int value = 0; value < valueCells; ++value) {
            const float w = weight(rowCount == 1 ? 0 : value, columnCount == 1 ? 0 : key);
            data->setCell(key, value, std::isfinite(w) ? double(w) : std::nan(""));
        }
    }
    m_map->setVisible(true);
    xAxis->setRange(-0.5, columnCount - 0.5);
    yAxis->setRange(-0.5, rowCount - 0.5);

    if (rowCount * columnCount > kMaxNumberedCells)
        return;
    QCPColorGradient gradient = m_map->gradient();
    for (int row = 0; row < rowCount; ++row) {
        for (int column = 0; column < columnCount; ++column) {
            const float w = weight(row, column);
            auto *text = new QCPItemText(this);
            text->position->setCoords(column, row);
            text->setPositionAlignment(Qt::AlignCenter);
            // A negative value that rounds to zero is written 0.00, not -0.00.
            text->setText(QString::number(std::abs(w) < 0.005f ? 0.0 : double(w), 'f', 2));
            text->setColor(contrastingTextColor(QColor::fromRgb(gradient.color(double(w), m_map->dataRange()))));
            text->setSelectable(false);
            m_cellTexts << text;
        }
    }
}

void AttentionHeatmap::rebuildTicks(const std::vector<bool> &sourceKnown, const std::vector<bool> &outputCopied,
                                    const std::vector<float> &copyGate)
{
    auto yTicker = qSharedPointerCast<QCPAxisTickerText>(yAxis->ticker());
    yTicker->clear();
    m_columnLabels.clear();
    bool anyUnknown = false;
    bool anyCopied = false;
    for (int column = 0; column < columns(); ++column) {
        const std::size_t i = std::size_t(column);
        const bool unknown = i < sourceKnown.size() && !sourceKnown[i];
        anyUnknown = anyUnknown || unknown;
        m_columnLabels << (unknown ? m_sourceTokens[column] + QLatin1Char('*') : m_sourceTokens[column]);
    }
    showColumnLabels(1);
    for (int row = 0; row < rows(); ++row) {
        const std::size_t i = std::size_t(row);
        const bool copied = i < outputCopied.size() && outputCopied[i];
        anyCopied = anyCopied || copied;
        QString label = copied ? m_outputTokens[row] + QLatin1Char('*') : m_outputTokens[row];
        if (i < copyGate.size())
            label += QStringLiteral(" (%1)").arg(QLocale().toString(double(copyGate[i]), 'f', 2));
        yTicker->addTick(row, label);
    }
    xAxis->setTickLabels(columns() > 0);
    yAxis->setTickLabels(rows() > 0);
    xAxis->setTicks(columns() > 0);
    yAxis->setTicks(rows() > 0);

    m_tickNotes.clear();
    if (anyUnknown)
        m_tickNotes << tr("input* not in the vocabulary (read as <UNK>)");
    const bool pointer = !copyGate.empty();
    if (anyCopied)
        m_tickNotes << (pointer ? tr("output* copied from the input by the pointer")
                                : tr("output* was <UNK>, replaced by the input word attended to most"));
    if (pointer)
        m_tickNotes << tr("(p): p_gen; 1 - p is copied along the row: the copy distribution");
    updateFootnote();
}

void AttentionHeatmap::updateFootnote()
{
    QStringList notes = m_tickNotes;
    if (!m_rightCellItems.isEmpty())
        notes << tr("dashed frames: the input word each output word must come from");
    // On one line when it fits beside the colour scale, else a line per note, cut to the width: a
    // footnote wider than the plot's column would squeeze the colour scale into its own label, and
    // a tall one the cells.
    const int available = std::max(viewport().width() - m_scale->outerRect().width() - 16, 60);
    const QFontMetrics metrics(m_footnote->font());
    const QString oneLine = notes.join(QStringLiteral(";   "));
    if (metrics.horizontalAdvance(oneLine) <= available) {
        setFootnote(oneLine);
        return;
    }
    for (QString &note : notes)
        note = metrics.elidedText(note, Qt::ElideRight, available);
    setFootnote(notes.join(QLatin1Char('\n')));
}

void AttentionHeatmap::setFootnote(const QString &text)
{
    m_footnote->setText(text);
    const bool inLayout = m_footnote->layout() != nullptr;
    if (text.isEmpty() && inLayout) {
        plotLayout()->take(m_footnote);
        plotLayout()->simplify();
    } else if (!text.isEmpty() && !inLayout) {
        plotLayout()->addElement(plotLayout()->rowCount(), 0, m_footnote);
    }
}

void AttentionHeatmap::updateSelectionItems()
{
    const bool selected = m_selectedRow >= 0 && m_selectedColumn >= 0;
    for (QCPItemRect *box : {m_rowBox, m_columnBox, m_cellHalo, m_cellBox})
        box->setVisible(false);
    if (!selected)
        return;
    const double row = m_selectedRow;
    const double column = m_selectedColumn;
    placeBox(m_rowBox, -0.5, row - 0.5, columns() - 0.5, row + 0.5);
    placeBox(m_columnBox, column - 0.5, -0.5, column + 0.5, rows() - 0.5);
    placeBox(m_cellHalo, column - 0.5, row - 0.5, column + 0.5, row + 0.5);
    placeBox(m_cellBox, column - 0.5, row - 0.5, column + 0.5, row + 0.5);
}

