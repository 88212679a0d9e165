#include "ui/core/plottheme.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QMetaProperty>
#include <QPointer>
#include <QSet>

#include <functional>

namespace {

double g_scale = 1;

// On each plot: the view scale its fonts were last brought to, and whether it follows the theme.
constexpr char kThemedScale[] = "_plotTheme_scale";
constexpr char kFollowed[] = "_plotTheme_followed";

// The style attributes the theme manages, by their QCustomPlot property names. Legend items are
// left out: their legend hands its font and text colour on to them.
constexpr const char *kAttributes[] = {"pen",     "brush",        "color",        "textColor",  "borderPen",
                                       "iconBorderPen", "basePen", "tickPen",     "subTickPen", "labelColor",
                                       "tickLabelColor", "subGridPen", "zeroLinePen", "font",   "labelFont",
                                       "tickLabelFont"};

struct Restyle {
    double scale = 1;      // to draw at
    double fontScale = 1;  // the scale fonts set since the last theming were made for
    QColor page;           // what white becomes
    QColor ink;            // what black becomes
    bool keepColours = false;
};

QColor onPage(const QColor &design, const QColor &page, const QColor &ink)
{
    // Coloured ink stays: data colours are chosen to read on light and dark pages alike.
    if (design.hslSaturationF() > 0.15)
        return design;
    const double inkShare = 1 - design.lightnessF();
    const auto mix = [inkShare](double from, double to) { return from + inkShare * (to - from); };
    QColor mixed = QColor::fromRgbF(float(mix(page.redF(), ink.redF())), float(mix(page.greenF(), ink.greenF())),
                                    float(mix(page.blueF(), ink.blueF())));
    mixed.setAlphaF(design.alphaF());
    return mixed;
}

QColor onPalette(const QColor &design, const Restyle &restyle)
{
    return restyle.keepColours ? design : onPage(design, restyle.page, restyle.ink);
}

QFont scaledFont(QFont font, double factor)
{
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * factor);
    else if (font.pixelSize() > 0)
        font.setPixelSize(std::max(1, qRound(font.pixelSize() * factor)));
    return font;
}

QVariant styled(const QVariant &design, const Restyle &restyle)
{
    switch (design.typeId()) {
    case QMetaType::QPen: {
        QPen pen = design.value<QPen>();
        if (pen.brush().style() == Qt::SolidPattern)
            pen.setColor(onPalette(pen.color(), restyle));
        if (pen.style() != Qt::NoPen && restyle.scale != 1)  // width 0 is one device pixel
            pen.setWidthF(pen.widthF() > 0 ? pen.widthF() * restyle.scale : restyle.scale);
        return pen;
    }
    case QMetaType::QBrush: {
        QBrush brush = design.value<QBrush>();
        if (brush.style() == Qt::SolidPattern)
            brush.setColor(onPalette(brush.color(), restyle));
        return brush;
    }
    case QMetaType::QColor:
        return onPalette(design.value<QColor>(), restyle);
    case QMetaType::QFont:
        return scaledFont(design.value<QFont>(), restyle.scale);
    case QMetaType::Double:
        return design.toDouble() * restyle.scale;
    default:
        return design;
    }
}

QVariant designOf(const QVariant &current, const Restyle &restyle)
{
    if (current.typeId() == QMetaType::QFont)
        return scaledFont(current.value<QFont>(), 1 / restyle.fontScale);
    return current;
}

// One attribute of one plot part. The theme keeps the value the plot gave it (its design) and the
// value it drew; a current value other than the one drawn was set by the plot since, and becomes
// the new design.
void restyle(QObject &part, const char *attribute, const QVariant &current, const Restyle &how,
             const std::function<void(const QVariant &)> &write)
{
    const QByteArray designKey = QByteArrayLiteral("_plotTheme_design_") + attribute;
    const QByteArray drawnKey = QByteArrayLiteral("_plotTheme_drawn_") + attribute;
    const QVariant drawn = part.property(drawnKey);
    QVariant design;
    if (drawn.isValid() && drawn == current) {
        design = part.property(designKey);
    } else {
        design = designOf(current, how);
        part.setProperty(designKey, design);
    }
    const QVariant result = styled(design, how);
    if (result != current)
        write(result);
    if (result != drawn)
        part.setProperty(drawnKey, result);
}

void restyleProperties(QObject &part, const Restyle &how)
{
    const QMetaObject *meta = part.metaObject();
    for (const char *attribute : kAttributes) {
        const int index = meta->indexOfProperty(attribute);
        if (index < 0)
            continue;
        const QMetaProperty property = meta->property(index);
        restyle(part, attribute, property.read(&part), how,
                [&part, &property](const QVariant &value) { property.write(&part, value); });
    }
}

template <typename Plottable>
void restyleScatter(Plottable &plottable, const Restyle &how)
{
    if (plottable.scatterStyle().isNone())
        return;
    const auto write = [&plottable](auto change) {
        QCPScatterStyle style = plottable.scatterStyle();
        change(style);
        plottable.setScatterStyle(style);
    };
    restyle(plottable, "scatterSize", plottable.scatterStyle().size(), how, [&write](const QVariant &size) {
        write([&size](QCPScatterStyle &style) { style.setSize(size.toDouble()); });
    });
    // A scatter style without a pen of its own draws with the graph's; setting one would change that.
    if (plottable.scatterStyle().isPenDefined())
        restyle(plottable, "scatterPen", plottable.scatterStyle().pen(), how, [&write](const QVariant &pen) {
            write([&pen](QCPScatterStyle &style) { style.setPen(pen.value<QPen>()); });
        });
    restyle(plottable, "scatterBrush", plottable.scatterStyle().brush(), how, [&write](const QVariant &brush) {
        write([&brush](QCPScatterStyle &style) { style.setBrush(brush.value<QBrush>()); });
    });
}

void theme(QCustomPlot &plot, double unthemedFontScale)
{
    const QVariant themedScale = plot.property(kThemedScale);
    Restyle how;
    how.scale = g_scale;
    how.fontScale = themedScale.isValid() ? themedScale.toDouble() : unthemedFontScale;
    how.page = plot.palette().color(QPalette::Base);
    how.ink = plot.palette().color(QPalette::Text);
    plot.setBackground(how.page);

    // Items over a colour map are read against its cells, not the page.
    QSet<QCPAxisRect *> mapRects;
    for (int i = 0; i < plot.plottableCount(); ++i)
        if (auto *map = qobject_cast<QCPColorMap *>(plot.plottable(i)); map && map->visible())
            mapRects.insert(map->keyAxis()->axisRect());

    for (QObject *child : plot.findChildren<QObject *>()) {
        if (qobject_cast<QCPAbstractLegendItem *>(child))
            continue;
        Restyle partHow = how;
        if (auto *item = qobject_cast<QCPAbstractItem *>(child))
            partHow.keepColours = mapRects.contains(item->clipAxisRect());
        restyleProperties(*child, partHow);
        if (auto *graph = qobject_cast<QCPGraph *>(child))
            restyleScatter(*graph, partHow);
        else if (auto *curve = qobject_cast<QCPCurve *>(child))
            restyleScatter(*curve, partHow);
    }
    plot.setProperty(kThemedScale, g_scale);
}

QList<QCustomPlot *> allPlots()
{
    QList<QCustomPlot *> plots;
    for (QWidget *widget : QApplication::allWidgets())
        if (auto *plot = qobject_cast<QCustomPlot *>(widget))
            plots << plot;
    return plots;
}

class PlotThemeFollower : public QObject
{
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        const QEvent::Type type = event->type();
        if (type != QEvent::Polish && type != QEvent::PaletteChange && type != QEvent::ApplicationPaletteChange)
            return false;
        auto *plot = qobject_cast<QCustomPlot *>(watched);
        if (!plot)
            return false;
        if (!plot->property(kFollowed).toBool()) {
            plot->setProperty(kFollowed, true);
            connect(plot, &QCustomPlot::beforeReplot, plot, [plot] { applyPlotTheme(*plot); });
        }
        // The widget takes the application's new palette after this filter: the replot themes it then.
        if (type != QEvent::ApplicationPaletteChange)
            applyPlotTheme(*plot);
        if (type != QEvent::Polish)
            plot->replot(QCustomPlot::rpQueuedReplot);
        return false;
    }
};

} // namespace

double viewScale()
{
    return g_scale;
}

void setViewScale(double scale)
{
    if (scale == g_scale)
        return;
    static const QFont desktopFont = QApplication::font();  // before any scaling
    const double previous = g_scale;
    g_scale = scale;
    QApplication::setFont(scaledFont(desktopFont, scale));
    // A widget whose code chose its font size (a larger sentence field, say) keeps it against the
    // application font: it grows in proportion instead.
    for (QWidget *widget : QApplication::allWidgets())
        if (widget->testAttribute(Qt::WA_SetFont) && (widget->font().resolveMask() & QFont::SizeResolved))
            widget->setFont(scaledFont(widget->font(), scale / previous));
    for (QCustomPlot *plot : allPlots()) {
        theme(*plot, previous);
        plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

QColor onPalette(const QColor &design, const QPalette &palette)
{
    return onPage(design, palette.color(QPalette::Base), palette.color(QPalette::Text));
}

void applyPlotTheme(QCustomPlot &plot)
{
    theme(plot, g_scale);
}

void followPlotTheme()
{
    static QPointer<PlotThemeFollower> follower;
    if (follower)
        return;
    follower = new PlotThemeFollower(qApp);
    qApp->installEventFilter(follower);
}
