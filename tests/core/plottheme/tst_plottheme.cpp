#include "tests/common/testregistry.h"
#include "ui/core/lossplot.h"
#include "ui/core/plotstyle.h"
#include "ui/core/plottheme.h"

#include <QApplication>
#include <QtTest>

namespace {

QPalette darkPalette()
{
    QPalette palette;
    palette.setColor(QPalette::Window, QColor(45, 45, 48));
    palette.setColor(QPalette::WindowText, QColor(230, 230, 230));
    palette.setColor(QPalette::Base, QColor(30, 30, 32));
    palette.setColor(QPalette::Text, QColor(235, 235, 235));
    palette.setColor(QPalette::Button, QColor(50, 50, 54));
    palette.setColor(QPalette::ButtonText, QColor(230, 230, 230));
    return palette;
}

QCPTextElement *titleOf(QCustomPlot &plot)
{
    return qobject_cast<QCPTextElement *>(plot.plotLayout()->element(0, 0));
}

// The colour the plot paints where nothing is drawn: its top-left corner.
QColor pageColour(QCustomPlot &plot)
{
    return plot.toPixmap(200, 150).toImage().pixelColor(1, 1);
}

// What a plot's design gives each part, read back at one moment.
struct Sizes {
    double tick = 0;
    double label = 0;
    double title = 0;
    double legend = 0;
    double trainPen = 0;
    double trainMarker = 0;
    double axisPen = 0;
};

Sizes sizesOf(LossPlot &plot)
{
    return {plot.xAxis->tickLabelFont().pointSizeF(), plot.yAxis->labelFont().pointSizeF(),
            titleOf(plot)->font().pointSizeF(),       plot.legend->font().pointSizeF(),
            plot.trainGraph()->pen().widthF(),         plot.trainGraph()->scatterStyle().size(),
            plot.xAxis->basePen().widthF()};
}

} // namespace

class TestPlotTheme : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();

    void scaleReachesFontsLinesAndMarkers();
    void resetRestoresTheDesign();
    void partsAddedOrChangedLaterFollow();
    void darkPaletteGivesLightOnDark();
    void lightPaletteRestoresTheDesign();

private:
    QPalette m_lightPalette;
};

void TestPlotTheme::initTestCase()
{
    followPlotTheme();
    m_lightPalette = QApplication::palette();
    QVERIFY(m_lightPalette.color(QPalette::Base).lightness() > 200);
}

void TestPlotTheme::init()
{
    setViewScale(1);
    QApplication::setPalette(m_lightPalette);
}

void TestPlotTheme::scaleReachesFontsLinesAndMarkers()
{
    LossPlot plot;
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    const Sizes design = sizesOf(plot);
    QCOMPARE(design.tick, plotFonts(plot.font()).tick.pointSizeF());
    const double appFont = QApplication::font().pointSizeF();

    setViewScale(1.5);
    const Sizes scaled = sizesOf(plot);
    QCOMPARE(scaled.tick, 1.5 * design.tick);
    QCOMPARE(scaled.label, 1.5 * design.label);
    QCOMPARE(scaled.title, 1.5 * design.title);
    QCOMPARE(scaled.legend, 1.5 * design.legend);
    QCOMPARE(scaled.trainPen, 1.5 * design.trainPen);
    QCOMPARE(scaled.trainMarker, 1.5 * design.trainMarker);
    QVERIFY(scaled.axisPen > design.axisPen);  // a one-pixel line becomes one and a half
    QCOMPARE(QApplication::font().pointSizeF(), 1.5 * appFont);
    QCOMPARE(plotFonts(plot.font()).tick.pointSizeF(), scaled.tick);  // new plots start at the scale
}

void TestPlotTheme::resetRestoresTheDesign()
{
    LossPlot plot;
    plot.show();
    const Sizes design = sizesOf(plot);
    setViewScale(1.25);
    setViewScale(2);
    setViewScale(1);
    const Sizes back = sizesOf(plot);
    QCOMPARE(back.tick, design.tick);
    QCOMPARE(back.label, design.label);
    QCOMPARE(back.title, design.title);
    QCOMPARE(back.legend, design.legend);
    QCOMPARE(back.trainPen, design.trainPen);
    QCOMPARE(back.trainMarker, design.trainMarker);
    QCOMPARE(back.axisPen, design.axisPen);
}

void TestPlotTheme::partsAddedOrChangedLaterFollow()
{
    QCustomPlot plot;
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    setViewScale(2);
    // A graph added while zoomed, and a font set from plotFonts() then: both drawn at the scale.
    QCPGraph *graph = plot.addGraph();
    graph->setPen(QPen(Qt::red, 2));
    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 6));
    plot.xAxis->setTickLabelFont(plotFonts(plot.font()).tick);
    plot.replot();
    QCOMPARE(graph->pen().widthF(), 4.0);
    QCOMPARE(graph->scatterStyle().size(), 12.0);
    QCOMPARE(plot.xAxis->tickLabelFont().pointSizeF(), 18.0);

    // The plot restyles a part: the theme takes the new value as the design.
    graph->setPen(QPen(Qt::red, 1));
    plot.replot();
    QCOMPARE(graph->pen().widthF(), 2.0);
    setViewScale(1);
    QCOMPARE(graph->pen().widthF(), 1.0);
    QCOMPARE(graph->scatterStyle().size(), 6.0);
    QCOMPARE(plot.xAxis->tickLabelFont().pointSizeF(), 9.0);
}

void TestPlotTheme::darkPaletteGivesLightOnDark()
{
    LossPlot plot;
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    const QColor validation = plot.validationGraph()->pen().color();
    QVERIFY(pageColour(plot).lightness() > 200);
    QVERIFY(plot.xAxis->tickLabelColor().lightness() < 60);

    QApplication::setPalette(darkPalette());
    QCoreApplication::processEvents();
    QVERIFY(pageColour(plot).lightness() < 60);
    for (QCPAxis *axis : {plot.xAxis, plot.yAxis}) {
        QVERIFY(axis->tickLabelColor().lightness() > 180);
        QVERIFY(axis->labelColor().lightness() > 180);
        QVERIFY(axis->basePen().color().lightness() > 180);
    }
    QVERIFY(titleOf(plot)->textColor().lightness() > 180);
    QVERIFY(plot.legend->textColor().lightness() > 180);
    QVERIFY(plot.xAxis->grid()->pen().color().lightness() < 128);  // a faint line, as on white
    QCOMPARE(plot.validationGraph()->pen().color(), validation);   // data keeps its colour
    QCOMPARE(plot.yAxis2->tickLabelColor(), plot.exactMatchGraph()->pen().color());
}

void TestPlotTheme::lightPaletteRestoresTheDesign()
{
    LossPlot plot;
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    const QColor tick = plot.xAxis->tickLabelColor();
    const QColor grid = plot.xAxis->grid()->pen().color();
    const QColor page = pageColour(plot);

    QApplication::setPalette(darkPalette());
    QCoreApplication::processEvents();
    QVERIFY(plot.xAxis->tickLabelColor() != tick);
    QApplication::setPalette(m_lightPalette);
    QCoreApplication::processEvents();
    QCOMPARE(plot.xAxis->tickLabelColor(), tick);
    QCOMPARE(plot.xAxis->grid()->pen().color(), grid);
    QCOMPARE(pageColour(plot), page);
}

ATTNSCOPE_TEST(plottheme, TestPlotTheme)
#include "tst_plottheme.moc"
