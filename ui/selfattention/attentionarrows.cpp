#include "ui/selfattention/attentionarrows.h"

#include "ui/core/colorgradients.h"
#include "ui/core/plotexport.h"
#include "ui/core/plotstyle.h"
#include "ui/core/plottheme.h"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace {

constexpr double kPi = 3.14159265358979323846;
// The size the drawing is designed for; larger areas (exports) scale everything up.
constexpr double kDesignSide = 420;
// Up to this many words every arrow is labelled with its weight; beyond, only a chosen word's.
constexpr int kMaxLabelledWords = 3;
const QColor kInk(40, 40, 40);
const QColor kSelection(230, 120, 0);

QPointF unit(const QPointF &v)
{
    const double length = std::hypot(v.x(), v.y());
    return length > 0 ? v / length : QPointF(0, -1);
}

QPointF rotated(const QPointF &v, double degrees)
{
    const double a = degrees * kPi / 180;
    return {v.x() * std::cos(a) - v.y() * std::sin(a), v.x() * std::sin(a) + v.y() * std::cos(a)};
}

QFont scaled(QFont font, double zoom)
{
    font.setPointSizeF(font.pointSizeF() * zoom);
    return font;
}

} // namespace

struct AttentionArrows::Layout {
    double zoom = 1;
    QRectF title;
    QRectF legend;
    QRectF graph;
    QPointF centre;
    std::vector<QRectF> nodes;
    double loopLength = 0;
    QFont titleFont;
    QFont wordFont;
    QFont smallFont;

    // From the node's centre along `direction` to just outside its box.
    double reach(int node, const QPointF &direction) const
    {
        const QRectF &r = nodes[std::size_t(node)];
        const double ax = std::abs(direction.x()) > 1e-9 ? r.width() / 2 / std::abs(direction.x()) : 1e9;
        const double ay = std::abs(direction.y()) > 1e-9 ? r.height() / 2 / std::abs(direction.y()) : 1e9;
        return std::min(ax, ay) + 3 * zoom;
    }
};

AttentionArrows::AttentionArrows(QWidget *parent) : QWidget(parent)
{
    setAutoFillBackground(false);
    setMouseTracking(false);
    showMessage(tr("No attention to show yet"));
}

void AttentionArrows::setWeights(const QStringList &tokens, const std::vector<float> &weights)
{
    const std::size_t n = std::size_t(tokens.size());
    if (n == 0 || weights.size() != n * n) {
        showMessage(tr("Cannot draw arrows: %1 weights for %2 words").arg(weights.size()).arg(n));
        return;
    }
    m_tokens = tokens;
    m_weights = weights;
    m_message.clear();
    if (m_selected >= int(n))
        m_selected = -1;
    update();
}

void AttentionArrows::showMessage(const QString &message)
{
    m_tokens.clear();
    m_weights.clear();
    m_selected = -1;
    m_message = message;
    update();
}

void AttentionArrows::setTitle(const QString &title)
{
    m_title = title;
    update();
}

float AttentionArrows::weight(int query, int key) const
{
    const int n = wordCount();
    if (query < 0 || query >= n || key < 0 || key >= n)
        return 0;
    return m_weights[std::size_t(query) * std::size_t(n) + std::size_t(key)];
}

void AttentionArrows::selectQuery(int query)
{
    const int selected = query >= 0 && query < wordCount() ? query : -1;
    if (selected == m_selected)
        return;
    m_selected = selected;
    update();
    emit querySelected(m_selected);
}

QPointF AttentionArrows::wordCentre(int index) const
{
    const Layout layout = layoutFor(QRectF(rect()));
    if (index < 0 || index >= int(layout.nodes.size()))
        return {};
    return layout.nodes[std::size_t(index)].center();
}

double AttentionArrows::strokeWidth(double weight)
{
    return 0.75 + 11.0 * std::clamp(weight, 0.0, 1.0);
}

bool AttentionArrows::exportImage(const QString &path, int width, int height, QString *error) const
{
    return exportPaintedImage(path, QSize(width, height),
                              [this](QPainter &painter, const QRectF &area) { render(painter, area); }, error);
}

AttentionArrows::Layout AttentionArrows::layoutFor(const QRectF &area) const
{
    Layout layout;
    layout.zoom = std::clamp(std::min(area.width(), area.height()) / kDesignSide, 0.75, 4.0);
    const PlotFonts fonts = plotFonts(font());
    layout.titleFont = scaled(fonts.title, std::max(1.0, layout.zoom));  // as readable as the other titles
    layout.wordFont = scaled(fonts.label, layout.zoom);
    layout.wordFont.setBold(true);
    layout.smallFont = scaled(fonts.tick, layout.zoom);
    const double pad = 8 * layout.zoom;
    const double titleHeight = m_title.isEmpty() ? 0 : QFontMetricsF(layout.titleFont).height() * 1.5;
    const double legendHeight = QFontMetricsF(layout.smallFont).lineSpacing() * 2.4;
    layout.title = QRectF(area.left() + pad, area.top() + pad / 2, area.width() - 2 * pad, titleHeight);
    layout.legend = QRectF(area.left() + pad, area.bottom() - legendHeight - pad / 2, area.width() - 2 * pad, legendHeight);
    layout.graph = QRectF(QPointF(area.left() + pad, layout.title.bottom() + pad),
                          QPointF(area.right() - pad, layout.legend.top() - pad));
    layout.centre = layout.graph.center();
    layout.loopLength = 34 * layout.zoom;

    const int n = wordCount();
    if (n == 0)
        return layout;
    const QFontMetricsF metrics(layout.wordFont);
    std::vector<QSizeF> sizes;
    double halfWidth = 0;
    double halfHeight = 0;
    for (const QString &token : m_tokens) {
        const QSizeF size(metrics.horizontalAdvance(token) + 16 * layout.zoom, metrics.height() + 10 * layout.zoom);
        sizes.push_back(size);
        halfWidth = std::max(halfWidth, size.width() / 2);
        halfHeight = std::max(halfHeight, size.height() / 2);
    }
    // Loops stick out along the radius: leave room for them beyond the words on the circle.
    const double outside = layout.loopLength * 1.1;
    const double radius = std::max(20.0 * layout.zoom,
                                   std::min(layout.graph.width() / 2 - halfWidth - outside,
                                            layout.graph.height() / 2 - halfHeight - outside));
    for (int i = 0; i < n; ++i) {
        QPointF position = layout.centre;
        if (n == 1)
            position += QPointF(0, outside / 2);  // the loop goes up; keep the pair centred
        else {
            // Two words sit side by side; more go clockwise from the top.
            const double angle = n == 2 ? (i == 0 ? 180.0 : 0.0) : -90.0 + 360.0 * i / n;
            position += QPointF(std::cos(angle * kPi / 180), std::sin(angle * kPi / 180)) * radius;
        }
        const QSizeF &size = sizes[std::size_t(i)];
        layout.nodes.emplace_back(position - QPointF(size.width() / 2, size.height() / 2), size);
    }
    return layout;
}

void AttentionArrows::render(QPainter &painter, const QRectF &area) const
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    // Drawn for a white page; the palette's colours take over on a dark desktop.
    const QPalette &colours = palette();
    const auto ink = [&colours](const QColor &design) { return onPalette(design, colours); };
    painter.fillRect(area, ink(Qt::white));
    const Layout layout = layoutFor(area);
    const double zoom = layout.zoom;
    if (!m_title.isEmpty()) {
        painter.setFont(layout.titleFont);
        painter.setPen(ink(Qt::black));
        painter.drawText(layout.title, Qt::AlignCenter, m_title);
    }
    if (!m_message.isEmpty() || wordCount() == 0) {
        painter.setFont(scaled(plotFonts(font()).title, zoom));
        painter.setPen(ink(QColor(90, 90, 90)));
        painter.drawText(layout.graph.adjusted(10 * zoom, 0, -10 * zoom, 0), Qt::AlignCenter | Qt::TextWordWrap, m_message);
        painter.restore();
        return;
    }

    const int n = wordCount();
    QCPColorGradient gradient = viridisGradient();  // color() is not const
    struct Arrow {
        int query;
        int key;
        double weight;
    };
    std::vector<Arrow> arrows;
    for (int q = 0; q < n; ++q)
        for (int k = 0; k < n; ++k)
            arrows.push_back({q, k, double(weight(q, k))});
    // Faded ones first, then light to heavy: the strong arrows are never buried.
    std::stable_sort(arrows.begin(), arrows.end(), [this](const Arrow &a, const Arrow &b) {
        const bool fadedA = m_selected >= 0 && a.query != m_selected;
        const bool fadedB = m_selected >= 0 && b.query != m_selected;
        if (fadedA != fadedB)
            return fadedA;
        return a.weight < b.weight;
    });

    struct Label {
        QPointF at;
        QString text;
    };
    std::vector<Label> labels;
    const bool labelAll = n <= kMaxLabelledWords && m_selected < 0;
    for (const Arrow &arrow : arrows) {
        const bool faded = m_selected >= 0 && arrow.query != m_selected;
        const QPointF from = layout.nodes[std::size_t(arrow.query)].center();
        const QPointF to = layout.nodes[std::size_t(arrow.key)].center();
        QPainterPath shaft;
        QPointF tip;
        QPointF direction;
        QPointF labelAt;
        const double width = strokeWidth(arrow.weight) * zoom;
        const double head = std::max(9.0 * zoom, 1.6 * width + 5 * zoom);
        if (arrow.query == arrow.key) {
            const QPointF out = n == 1 ? QPointF(0, -1) : unit(from - layout.centre);
            const QPointF leave = rotated(out, -32);
            const QPointF enter = rotated(out, 32);
            const QPointF start = from + leave * layout.reach(arrow.query, leave);
            tip = from + enter * layout.reach(arrow.query, enter);
            const QPointF c1 = start + rotated(out, -20) * layout.loopLength * 1.5;
            const QPointF c2 = tip + rotated(out, 20) * layout.loopLength * 1.5;
            direction = unit(tip - c2);
            shaft.moveTo(start);
            shaft.cubicTo(c1, c2, tip - direction * head * 0.8);
            labelAt = (start + 3 * c1 + 3 * c2 + tip) / 8;
        } else {
            // Bend to the right of the direction of travel: i→j and j→i take opposite sides.
            const QPointF along = to - from;
            const QPointF normal = unit(QPointF(-along.y(), along.x()));
            const QPointF control = (from + to) / 2 + normal * std::hypot(along.x(), along.y()) * 0.2;
            const QPointF leave = unit(control - from);
            const QPointF enter = unit(control - to);
            const QPointF start = from + leave * layout.reach(arrow.query, leave);
            tip = to + enter * layout.reach(arrow.key, enter);
            direction = unit(tip - control);
            shaft.moveTo(start);
            shaft.quadTo(control, tip - direction * head * 0.8);
            labelAt = 0.25 * start + 0.5 * control + 0.25 * tip;
        }

        QColor colour = QColor::fromRgb(gradient.color(arrow.weight, QCPRange(0, 1)));
        if (faded)
            colour.setAlpha(45);
        // A dark rim keeps the light (heavy) end of the scale visible on white.
        const bool rimmed = !faded && width >= 2.5 * zoom;
        painter.setBrush(Qt::NoBrush);
        if (rimmed) {
            painter.setPen(QPen(ink(kInk), width + 2 * zoom, Qt::SolidLine, Qt::FlatCap));
            painter.drawPath(shaft);
        }
        painter.setPen(QPen(colour, width, Qt::SolidLine, Qt::FlatCap));
        painter.drawPath(shaft);
        const QPointF side(-direction.y(), direction.x());
        const double halfHead = std::max(head * 0.5, width * 0.5 + 3 * zoom);
        const QPolygonF arrowHead({tip, tip - direction * head + side * halfHead, tip - direction * head - side * halfHead});
        painter.setPen(rimmed ? QPen(ink(kInk), 1 * zoom) : Qt::NoPen);
        painter.setBrush(colour);
        painter.drawPolygon(arrowHead);

        if (!faded && (labelAll || arrow.query == m_selected))
            labels.push_back({labelAt, QString::number(arrow.weight, 'f', 2)});
    }

    painter.setFont(layout.smallFont);
    const QFontMetricsF smallMetrics(layout.smallFont);
    for (const Label &label : labels) {
        const QSizeF size(smallMetrics.horizontalAdvance(label.text) + 6 * zoom, smallMetrics.height() + 2 * zoom);
        const QRectF box(label.at - QPointF(size.width() / 2, size.height() / 2), size);
        painter.setPen(QPen(ink(QColor(150, 150, 150)), 0.8 * zoom));
        painter.setBrush(ink(QColor(255, 255, 255, 225)));
        painter.drawRoundedRect(box, 3 * zoom, 3 * zoom);
        painter.setPen(ink(kInk));
        painter.drawText(box, Qt::AlignCenter, label.text);
    }

    painter.setFont(layout.wordFont);
    for (int i = 0; i < n; ++i) {
        const QRectF &node = layout.nodes[std::size_t(i)];
        const bool selected = i == m_selected;
        painter.setPen(QPen(selected ? kSelection : ink(kInk), (selected ? 3 : 1.5) * zoom));
        painter.setBrush(selected ? QColor(255, 244, 214) : ink(QColor(245, 245, 245)));
        painter.drawRoundedRect(node, 6 * zoom, 6 * zoom);
        // The selected word's box stays light yellow on any page, so its text stays black.
        painter.setPen(selected ? QColor(Qt::black) : ink(Qt::black));
        painter.drawText(node, Qt::AlignCenter, m_tokens[i]);
    }

    painter.setFont(layout.smallFont);
    painter.setPen(ink(QColor(80, 80, 80)));
    const QString legend = m_selected >= 0
                               ? tr("Where “%1” looks: arrow from the query word to each key, width and colour = weight. "
                                    "Click it again to show all words.").arg(m_tokens[m_selected])
                               : tr("Arrow from each query word to the key words it attends to; width and colour = weight. "
                                    "Click a word to single out its arrows.");
    painter.drawText(layout.legend, Qt::AlignCenter | Qt::TextWordWrap, legend);
    painter.restore();
}

void AttentionArrows::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    render(painter, QRectF(rect()));
}

void AttentionArrows::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    const Layout layout = layoutFor(QRectF(rect()));
    for (int i = 0; i < int(layout.nodes.size()); ++i) {
        if (layout.nodes[std::size_t(i)].contains(event->position())) {
            selectQuery(i == m_selected ? -1 : i);
            return;
        }
    }
    selectQuery(-1);
}
