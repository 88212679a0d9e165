#include "tests/common/testregistry.h"
#include "tests/common/workbenchfixture.h"

#include "ui/core/plottheme.h"
#include "ui/workbench/mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QTabWidget>
#include <QTest>
#include <qcustomplot.h>

#include <vector>

namespace {

// What every plot of a window draws its fonts and lines at, read back from its axes and graphs.
struct PlotSizes {
    QCustomPlot *plot = nullptr;
    double tickFont = 0;
    double labelFont = 0;
    std::vector<double> penWidths;  // of the graphs drawn with a line
};

// The key axis of every axis rect: small multiples lay out rects of their own in place of the
// default one (xAxis). Other axes may be coloured on purpose.
QList<QCPAxis *> bottomAxes(const QCustomPlot &plot)
{
    QList<QCPAxis *> axes;
    for (QCPAxisRect *rect : plot.axisRects())
        axes << rect->axis(QCPAxis::atBottom);
    return axes;
}

std::vector<PlotSizes> plotSizes(const MainWindow &window)
{
    std::vector<PlotSizes> all;
    for (QCustomPlot *plot : window.findChildren<QCustomPlot *>()) {
        // A plot showing only a message has no axes to size.
        const QList<QCPAxis *> axes = bottomAxes(*plot);
        if (axes.isEmpty())
            continue;
        PlotSizes sizes{plot, axes.first()->tickLabelFont().pointSizeF(), axes.first()->labelFont().pointSizeF(), {}};
        for (int i = 0; i < plot->graphCount(); ++i)
            if (plot->graph(i)->pen().style() != Qt::NoPen)
                sizes.penWidths.push_back(plot->graph(i)->pen().widthF());
        all.push_back(sizes);
    }
    return all;
}

// A line of design width `width` at `scale`: width 0 means one device pixel.
double scaledWidth(double width, double scale)
{
    return width > 0 ? width * scale : (scale == 1 ? 0 : scale);
}

void verifyScaled(const std::vector<PlotSizes> &design, const std::vector<PlotSizes> &now, double scale)
{
    QCOMPARE(now.size(), design.size());
    for (std::size_t i = 0; i < design.size(); ++i) {
        const QByteArray name = design[i].plot->metaObject()->className();
        QVERIFY2(qFuzzyCompare(now[i].tickFont, design[i].tickFont * scale), name);
        QVERIFY2(qFuzzyCompare(now[i].labelFont, design[i].labelFont * scale), name);
        QCOMPARE(now[i].penWidths.size(), design[i].penWidths.size());
        for (std::size_t g = 0; g < design[i].penWidths.size(); ++g)
            QVERIFY2(qFuzzyCompare(1 + now[i].penWidths[g], 1 + scaledWidth(design[i].penWidths[g], scale)), name);
    }
}

} // namespace

class TestPresentation : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void zoomKeysScaleEveryPlot();
    void presentationIsOneStepOfTheScale();
    void presentationFitsAProjector();
    void presentationPutsTheSetupAway();
    void zoomStopsAtTheEnds();
    void scaleIsKeptInTheSettings();
    void darkPaletteReachesEveryPlot();

private:
    MainWindow *m_window = nullptr;
};

void TestPresentation::initTestCase()
{
    useTestSettings(QStringLiteral("tst_presentation"));
}

void TestPresentation::init()
{
    m_window = shownWorkbench();
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window));
    QCOMPARE(viewScale(), 1.0);
}

void TestPresentation::cleanup()
{
    delete m_window;
    m_window = nullptr;
    setViewScale(1);
}

void TestPresentation::zoomKeysScaleEveryPlot()
{
    const std::vector<PlotSizes> design = plotSizes(*m_window);
    QVERIFY(design.size() >= 5);  // loss, heatmap, embeddings, experiments, the other labs' plots
    const double appFont = QApplication::font().pointSizeF();

    QTest::keyClick(m_window, Qt::Key_Equal, Qt::ControlModifier);
    QCOMPARE(viewScale(), 1.25);
    verifyScaled(design, plotSizes(*m_window), 1.25);
    QCOMPARE(QApplication::font().pointSizeF(), 1.25 * appFont);

    QTest::keyClick(m_window, Qt::Key_Plus, Qt::ControlModifier);
    QCOMPARE(viewScale(), 1.5);
    verifyScaled(design, plotSizes(*m_window), 1.5);

    QTest::keyClick(m_window, Qt::Key_Minus, Qt::ControlModifier);
    QCOMPARE(viewScale(), 1.25);
    verifyScaled(design, plotSizes(*m_window), 1.25);

    QTest::keyClick(m_window, Qt::Key_0, Qt::ControlModifier);
    QCOMPARE(viewScale(), 1.0);
    verifyScaled(design, plotSizes(*m_window), 1.0);
    QCOMPARE(QApplication::font().pointSizeF(), appFont);
}

void TestPresentation::presentationIsOneStepOfTheScale()
{
    QAction *presentation = m_window->presentationAction();
    QVERIFY(presentation->isCheckable());
    QVERIFY(!presentation->isChecked());
    const std::vector<PlotSizes> design = plotSizes(*m_window);

    QTest::keyClick(m_window, Qt::Key_P, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(viewScale(), MainWindow::kPresentationScale);
    QVERIFY(presentation->isChecked());
    verifyScaled(design, plotSizes(*m_window), MainWindow::kPresentationScale);

    // Zooming away from the preset leaves presentation mode; zooming back returns to it.
    QTest::keyClick(m_window, Qt::Key_Equal, Qt::ControlModifier);
    QVERIFY(!presentation->isChecked());
    QTest::keyClick(m_window, Qt::Key_Minus, Qt::ControlModifier);
    QVERIFY(presentation->isChecked());

    QTest::keyClick(m_window, Qt::Key_P, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(viewScale(), 1.0);
    QVERIFY(!presentation->isChecked());
    verifyScaled(design, plotSizes(*m_window), 1.0);
}

void TestPresentation::presentationFitsAProjector()
{
    m_window->presentationAction()->trigger();
    for (const LabPage &page : everyPage(*m_window)) {
        m_window->showPage(page.widget);
        const QSize needed = m_window->minimumSizeHint();
        QVERIFY2(needed.width() <= 1280 && needed.height() <= 720, qPrintable(page.title));
    }
}

void TestPresentation::presentationPutsTheSetupAway()
{
    const auto shownOnTheLeft = [this] {
        QList<QDockWidget *> shown;
        for (QDockWidget *dock : m_window->findChildren<QDockWidget *>())
            if (dock->isVisible() && m_window->dockWidgetArea(dock) == Qt::LeftDockWidgetArea)
                shown << dock;
        return shown;
    };
    const QList<QDockWidget *> setup = shownOnTheLeft();
    QVERIFY(!setup.isEmpty());

    m_window->presentationAction()->trigger();
    const QList<LabPage> pages = everyPage(*m_window);
    for (auto page = pages.crbegin(); page != pages.crend(); ++page) {
        m_window->showPage(page->widget);
        QVERIFY2(shownOnTheLeft().isEmpty(), qPrintable(page->title));
    }
    m_window->showPage(pages.first().widget);
    m_window->presentationAction()->trigger();
    QCOMPARE(shownOnTheLeft(), setup);
}

void TestPresentation::zoomStopsAtTheEnds()
{
    for (int i = 0; i < 20; ++i)
        m_window->zoomInAction()->trigger();
    QCOMPARE(viewScale(), std::end(MainWindow::kScales)[-1]);
    QVERIFY(!m_window->zoomInAction()->isEnabled());
    QVERIFY(m_window->zoomOutAction()->isEnabled());
    for (int i = 0; i < 20; ++i)
        m_window->zoomOutAction()->trigger();
    QCOMPARE(viewScale(), MainWindow::kScales[0]);
    QVERIFY(!m_window->zoomOutAction()->isEnabled());
    m_window->actualSizeAction()->trigger();
    QCOMPARE(viewScale(), 1.0);
    QVERIFY(m_window->zoomInAction()->isEnabled() && m_window->zoomOutAction()->isEnabled());
}

void TestPresentation::scaleIsKeptInTheSettings()
{
    m_window->zoomInAction()->trigger();
    m_window->zoomInAction()->trigger();
    QCOMPARE(viewScale(), 1.5);
    QVERIFY(m_window->close());
    setViewScale(1);

    MainWindow second;
    addRegisteredLabs(&second);
    QCOMPARE(viewScale(), 1.5);
    QVERIFY(!second.presentationAction()->isChecked());
    const std::vector<PlotSizes> restored = plotSizes(second);
    setViewScale(1);
    verifyScaled(plotSizes(second), restored, 1.5);
}

void TestPresentation::darkPaletteReachesEveryPlot()
{
    const QPalette light = QApplication::palette();
    QPalette dark = light;
    dark.setColor(QPalette::Window, QColor(40, 40, 44));
    dark.setColor(QPalette::WindowText, QColor(225, 225, 225));
    dark.setColor(QPalette::Base, QColor(28, 28, 30));
    dark.setColor(QPalette::Text, QColor(230, 230, 230));
    QApplication::setPalette(dark);
    QCoreApplication::processEvents();
    for (QCustomPlot *plot : m_window->findChildren<QCustomPlot *>()) {
        plot->replot();
        const QByteArray name = plot->metaObject()->className();
        for (QCPAxis *axis : bottomAxes(*plot)) {
            QVERIFY2(axis->tickLabelColor().lightness() > 180, name);
            QVERIFY2(axis->basePen().color().lightness() > 180, name);
        }
        QVERIFY2(plot->toPixmap(100, 80).toImage().pixelColor(1, 1).lightness() < 60, name);
    }
    QApplication::setPalette(light);
    QCoreApplication::processEvents();
    for (QCustomPlot *plot : m_window->findChildren<QCustomPlot *>()) {
        plot->replot();
        const QByteArray name = plot->metaObject()->className();
        for (QCPAxis *axis : bottomAxes(*plot))
            QVERIFY2(axis->tickLabelColor().lightness() < 60, name);
        QVERIFY2(plot->toPixmap(100, 80).toImage().pixelColor(1, 1).lightness() > 200, name);
    }
}

ATTNSCOPE_TEST(presentation, TestPresentation)
#include "tst_presentation.moc"
