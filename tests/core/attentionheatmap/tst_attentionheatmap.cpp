#include "tests/common/testregistry.h"
#include "ui/core/attentionheatmap.h"
#include "tests/common/heatmapsamples.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

namespace {

QString tickLabel(QCPAxis *axis, double position)
{
    return qSharedPointerCast<QCPAxisTickerText>(axis->ticker())->ticks().value(position);
}

// The right-cell outlines on the plot: per frame, the cell (column, row) it lies inside and its pen.
struct Outline {
    QPoint cell;
    QPen pen;
};

QList<Outline> rightCellOutlines(AttentionHeatmap &heatmap)
{
    QList<Outline> outlines;
    for (int i = 0; i < heatmap.itemCount(); ++i) {
        auto *rect = qobject_cast<QCPItemRect *>(heatmap.item(i));
        if (!rect || rect->objectName() != AttentionHeatmap::rightCellObjectName() || !rect->visible())
            continue;
        const QPointF topLeft = rect->topLeft->coords();
        const QPointF bottomRight = rect->bottomRight->coords();
        const QPoint cell(qRound((topLeft.x() + bottomRight.x()) / 2), qRound((topLeft.y() + bottomRight.y()) / 2));
        // Inside its cell, not reaching the neighbours.
        if (topLeft.x() <= cell.x() - 0.5 || bottomRight.x() >= cell.x() + 0.5 || topLeft.y() <= cell.y() - 0.5
            || bottomRight.y() >= cell.y() + 0.5)
            outlines << Outline{QPoint(-1, -1), rect->pen()};
        else
            outlines << Outline{cell, rect->pen()};
    }
    return outlines;
}

QList<QPoint> cellsOf(const QList<Outline> &outlines)
{
    QList<QPoint> cells;
    for (const Outline &outline : outlines)
        if (!cells.contains(outline.cell))
            cells << outline.cell;
    return cells;
}

} // namespace

class TestAttentionHeatmap : public QObject
{
    Q_OBJECT

private slots:
    void setMatrixDimensions();
    void mismatchedSizesShowMessage();
    void unknownAndCopiedTokensAreMarked();
    void narrowColumnsNameEveryFewColumns();
    void pointerGateIsShownBesideEachOutputWord();
    void clickSelectsCell_data();
    void clickSelectsCell();
    void clickOutsideCellsSelectsNothing();
    void rightCellsAreOutlinedWhenShown();
    void newMatrixClearsRightCells();
    void exportImageHasRequestedSize_data();
    void exportImageHasRequestedSize();
    void exportPdf();
    void exportCsvContent();
    void exportToMissingFolderFails_data();
    void exportToMissingFolderFails();
    void exportCsvWithoutDataFails();

private:
    QTemporaryDir m_dir;
};

void TestAttentionHeatmap::setMatrixDimensions()
{
    AttentionHeatmap heatmap;
    QCOMPARE(heatmap.rows(), 0);
    QCOMPARE(heatmap.columns(), 0);
    heatmap.setMatrix(kSource, kOutput, rampWeights());
    QCOMPARE(heatmap.rows(), 4);
    QCOMPARE(heatmap.columns(), 5);
    QCOMPARE(heatmap.weight(2, 3), 13.0f / 20.0f);
    QCOMPARE(heatmap.weight(4, 0), 0.0f);  // outside
    QCOMPARE(tickLabel(heatmap.xAxis, 1), QString("cat"));
    QCOMPARE(tickLabel(heatmap.yAxis, 0), QString("down"));
    QVERIFY(heatmap.yAxis->rangeReversed());  // first decoder step at the top
}

void TestAttentionHeatmap::mismatchedSizesShowMessage()
{
    AttentionHeatmap heatmap;
    heatmap.setMatrix(kSource, kOutput, rampWeights());
    heatmap.selectCell(1, 1);
    heatmap.setMatrix(kSource, kOutput, std::vector<float>(3, 0.5f));
    QCOMPARE(heatmap.rows(), 0);
    QCOMPARE(heatmap.columns(), 0);
    QCOMPARE(heatmap.selectedRow(), -1);
    QCOMPARE(heatmap.selectedColumn(), -1);
}

void TestAttentionHeatmap::unknownAndCopiedTokensAreMarked()
{
    HeatmapMatrix sentence;
    sentence.columns = {"the", "zebra", "<EOS>"};
    sentence.columnKnown = {true, false, true};
    sentence.rows = {"zebra", "the", "<EOS>"};
    sentence.rowCopied = {true, false, false};
    sentence.weights = {0.1f, 0.8f, 0.1f, 0.9f, 0.05f, 0.05f, 0.2f, 0.2f, 0.6f};
    AttentionHeatmap heatmap;
    heatmap.setMatrix(sentence);
    QCOMPARE(heatmap.rows(), 3);
    QCOMPARE(heatmap.weight(0, 1), 0.8f);
    QCOMPARE(tickLabel(heatmap.xAxis, 0), QString("the"));
    QCOMPARE(tickLabel(heatmap.xAxis, 1), QString("zebra*"));
    QCOMPARE(tickLabel(heatmap.yAxis, 0), QString("zebra*"));
    QCOMPARE(tickLabel(heatmap.yAxis, 1), QString("the"));
}

void TestAttentionHeatmap::narrowColumnsNameEveryFewColumns()
{
    HeatmapMatrix sentence;
    for (int i = 0; i < 30; ++i) {
        sentence.columns.push_back(QString("word%1").arg(i));
        sentence.columnKnown.push_back(i != 3);
    }
    sentence.rows = {"a", "b"};
    sentence.weights.assign(60, 0.5f);
    AttentionHeatmap heatmap;
    heatmap.setMatrix(sentence);
    const auto ticks = [&] { return qSharedPointerCast<QCPAxisTickerText>(heatmap.xAxis->ticker())->ticks(); };

    heatmap.resize(1600, 400);
    heatmap.show();
    QVERIFY(QTest::qWaitForWindowExposed(&heatmap));
    QCOMPARE(ticks().size(), 30);
    QCOMPARE(tickLabel(heatmap.xAxis, 3), QString("word3*"));

    // Upright labels taller than a column is wide would overlap: only every few columns is named,
    // evenly, from the first, with the marks they carry.
    heatmap.resize(180, 400);
    QCoreApplication::processEvents();
    QCOMPARE(heatmap.xAxis->tickLabelRotation(), -90.0);
    const QMap<double, QString> thinned = ticks();
    QVERIFY2(thinned.size() > 1 && thinned.size() < 30, qPrintable(QString::number(thinned.size())));
    const double step = thinned.keys().at(1) - thinned.keys().at(0);
    const double columnWidth = double(heatmap.axisRect()->width()) / 30;
    QVERIFY(step * columnWidth >= QFontMetrics(heatmap.xAxis->tickLabelFont()).height());
    for (auto it = thinned.cbegin(); it != thinned.cend(); ++it) {
        QCOMPARE(std::fmod(it.key(), step), 0.0);
        QCOMPARE(it.value(), it.key() == 3 ? QString("word3*") : QString("word%1").arg(int(it.key())));
    }

    heatmap.resize(1600, 400);
    QCoreApplication::processEvents();
    QCOMPARE(ticks().size(), 30);
}

void TestAttentionHeatmap::clickSelectsCell_data()
{
    QTest::addColumn<int>("row");
    QTest::addColumn<int>("column");
    QTest::newRow("top left") << 0 << 0;
    QTest::newRow("middle") << 2 << 3;
    QTest::newRow("bottom right") << 3 << 4;
    QTest::newRow("bottom left") << 3 << 0;
}

void TestAttentionHeatmap::clickSelectsCell()
{
    QFETCH(int, row);
    QFETCH(int, column);
    AttentionHeatmap heatmap;
    heatmap.resize(800, 600);
    heatmap.setMatrix(kSource, kOutput, rampWeights());
    heatmap.show();
    QVERIFY(QTest::qWaitForWindowExposed(&heatmap));
    heatmap.replot();

    QSignalSpy spy(&heatmap, &AttentionHeatmap::cellSelected);
    const QPoint centre(qRound(heatmap.xAxis->coordToPixel(column)), qRound(heatmap.yAxis->coordToPixel(row)));
    QTest::mouseClick(&heatmap, Qt::LeftButton, {}, centre);

    QCOMPARE(spy.count(), 1);
    const QList<QVariant> arguments = spy.takeFirst();
    QCOMPARE(arguments.at(0).toInt(), row);
    QCOMPARE(arguments.at(1).toInt(), column);
    QCOMPARE(arguments.at(2).toDouble(), double(float(row * 5 + column) / 20.0f));
    QCOMPARE(heatmap.selectedRow(), row);
    QCOMPARE(heatmap.selectedColumn(), column);

    heatmap.clearSelection();
    QCOMPARE(heatmap.selectedRow(), -1);
    QCOMPARE(heatmap.selectedColumn(), -1);
}

void TestAttentionHeatmap::clickOutsideCellsSelectsNothing()
{
    AttentionHeatmap heatmap;
    heatmap.resize(800, 600);
    heatmap.setMatrix(kSource, kOutput, rampWeights());
    heatmap.show();
    QVERIFY(QTest::qWaitForWindowExposed(&heatmap));
    heatmap.replot();

    QSignalSpy spy(&heatmap, &AttentionHeatmap::cellSelected);
    QTest::mouseClick(&heatmap, Qt::LeftButton, {}, QPoint(3, 3));
    QCOMPARE(spy.count(), 0);
    QCOMPARE(heatmap.selectedRow(), -1);
}

void TestAttentionHeatmap::rightCellsAreOutlinedWhenShown()
{
    AttentionHeatmap heatmap;
    heatmap.setMatrix(kSource, kOutput, rampWeights());
    // Row 2 has no right cell; row 3's column lies outside the matrix.
    heatmap.setRightCells({3, 2, -1, 9});
    QVERIFY(rightCellOutlines(heatmap).isEmpty());  // off by default

    heatmap.setRightCellsShown(true);
    QVERIFY(heatmap.rightCellsShown());
    const QList<Outline> outlines = rightCellOutlines(heatmap);
    QCOMPARE(cellsOf(outlines), (QList<QPoint>{QPoint(3, 0), QPoint(2, 1)}));
    // Each cell: a black frame under a white dashed one, which read on dark and bright cells alike.
    QCOMPARE(outlines.size(), 4);
    for (const QPoint &cell : cellsOf(outlines)) {
        QList<QPen> pens;
        for (const Outline &outline : outlines)
            if (outline.cell == cell)
                pens << outline.pen;
        QCOMPARE(pens.size(), 2);
        QCOMPARE(pens[0].color(), QColor(Qt::black));
        QCOMPARE(pens[1].color(), QColor(Qt::white));
        QCOMPARE(pens[1].style(), Qt::DashLine);
        QVERIFY(pens[0].widthF() > pens[1].widthF());
    }

    heatmap.setRightCells({0, 1, 2, 3});
    QCOMPARE(cellsOf(rightCellOutlines(heatmap)), (QList<QPoint>{QPoint(0, 0), QPoint(1, 1), QPoint(2, 2), QPoint(3, 3)}));
    heatmap.setRightCellsShown(false);
    QVERIFY(rightCellOutlines(heatmap).isEmpty());
    heatmap.setRightCellsShown(true);
    QCOMPARE(rightCellOutlines(heatmap).size(), 8);
}

void TestAttentionHeatmap::newMatrixClearsRightCells()
{
    AttentionHeatmap heatmap;
    heatmap.setMatrix(kSource, kOutput, rampWeights());
    heatmap.setRightCellsShown(true);
    heatmap.setRightCells({3, 2, 1, 0});
    QCOMPARE(rightCellOutlines(heatmap).size(), 8);
    heatmap.setMatrix(kSource, kOutput, rampWeights());  // the cells belong to the last sentence
    QVERIFY(rightCellOutlines(heatmap).isEmpty());
    QVERIFY(heatmap.rightCellsShown());
    heatmap.setRightCells({3, 2, 1, 0});
    heatmap.showMessage(QStringLiteral("no model"));
    QVERIFY(rightCellOutlines(heatmap).isEmpty());
}

void TestAttentionHeatmap::exportImageHasRequestedSize_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("height");
    QTest::newRow("png, CLI default") << "heatmap.png" << 1000 << 800;
    QTest::newRow("png, small") << "small.png" << 321 << 207;
    QTest::newRow("jpg") << "heatmap.jpg" << 640 << 480;
}

void TestAttentionHeatmap::exportImageHasRequestedSize()
{
    QFETCH(QString, name);
    QFETCH(int, width);
    QFETCH(int, height);
    AttentionHeatmap heatmap;  // never shown: the CLI exports without a window
    heatmap.setMatrix(kSource, kOutput, rampWeights());
    const QString path = m_dir.filePath(name);
    QString error;
    QVERIFY2(heatmap.exportImage(path, width, height, &error), qPrintable(error));
    const QImage image(path);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), QSize(width, height));
    // Not a blank canvas: the viridis cells put purple and yellow into the picture.
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7)
            colours.insert(image.pixel(x, y));
    QVERIFY(colours.size() > 10);
}

void TestAttentionHeatmap::exportPdf()
{
    AttentionHeatmap heatmap;
    heatmap.setMatrix(kSource, kOutput, rampWeights());
    const QString path = m_dir.filePath("heatmap.pdf");
    QString error;
    QVERIFY2(heatmap.exportImage(path, 1000, 800, &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.read(5) == "%PDF-");
    QVERIFY(file.size() > 1000);
    // Only the finished file remains: no temporary files beside it.
    QCOMPARE(QDir(m_dir.path()).entryList({"heatmap.pdf*"}, QDir::Files), QStringList{"heatmap.pdf"});
}

void TestAttentionHeatmap::pointerGateIsShownBesideEachOutputWord()
{
    QLocale::setDefault(QLocale::c());
    HeatmapMatrix sentence;
    sentence.columns = {"the", "zebra", "<EOS>"};
    sentence.columnKnown = {true, false, true};
    sentence.rows = {"zebra", "the", "<EOS>"};
    sentence.rowCopied = {true, false, false};
    sentence.rowGate = {0.02f, 0.75f, 0.5f};
    sentence.weights = {0.1f, 0.8f, 0.1f, 0.9f, 0.05f, 0.05f, 0.2f, 0.2f, 0.6f};
    AttentionHeatmap heatmap;
    heatmap.setMatrix(sentence);
    QCOMPARE(tickLabel(heatmap.yAxis, 0), QString("zebra* (0.02)"));
    QCOMPARE(tickLabel(heatmap.yAxis, 1), QString("the (0.75)"));
    // The words themselves stay as they are: the CSV's first column has no gate in it.
    const QString path = m_dir.filePath("pointer.csv");
    QVERIFY(heatmap.exportCsv(path));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(QString::fromUtf8(file.readAll()).contains(QStringLiteral("\nzebra,")));
}

void TestAttentionHeatmap::exportCsvContent()
{
    AttentionHeatmap heatmap;
    heatmap.setMatrix({"a", ",", "<EOS>"}, {"x", "<EOS>"}, {0.1f, 0.2f, 0.7f, 0.25f, 0.25f, 0.5f});
    const QString path = m_dir.filePath("attention.csv");
    QString error;
    QVERIFY2(heatmap.exportCsv(path, &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(file.readAll()),
             QString(",a,\",\",<EOS>\n"
                     "x,0.100000,0.200000,0.700000\n"
                     "<EOS>,0.250000,0.250000,0.500000\n"));
}

void TestAttentionHeatmap::exportToMissingFolderFails_data()
{
    QTest::addColumn<QString>("name");
    QTest::newRow("png") << "heatmap.png";
    QTest::newRow("pdf") << "heatmap.pdf";
    QTest::newRow("csv") << "heatmap.csv";
}

void TestAttentionHeatmap::exportToMissingFolderFails()
{
    QFETCH(QString, name);
    AttentionHeatmap heatmap;
    heatmap.setMatrix(kSource, kOutput, rampWeights());
    const QString path = m_dir.filePath("no-such-folder/" + name);
    QString error;
    const bool written = name.endsWith(".csv") ? heatmap.exportCsv(path, &error)
                                               : heatmap.exportImage(path, 400, 300, &error);
    QVERIFY(!written);
    QVERIFY(!error.isEmpty());
    QVERIFY(!QFile::exists(path));
    QVERIFY(!QFileInfo::exists(m_dir.filePath("no-such-folder")));
}

void TestAttentionHeatmap::exportCsvWithoutDataFails()
{
    AttentionHeatmap heatmap;
    heatmap.showMessage("No attention: this model has none");
    const QString path = m_dir.filePath("empty.csv");
    QString error;
    QVERIFY(!heatmap.exportCsv(path, &error));
    QVERIFY(!error.isEmpty());
    QVERIFY(!QFile::exists(path));
}

ATTNSCOPE_TEST(attentionheatmap, TestAttentionHeatmap)
#include "tst_attentionheatmap.moc"
