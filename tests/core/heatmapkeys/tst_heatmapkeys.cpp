#include "tests/common/testregistry.h"
#include "ui/core/attentionheatmap.h"
#include "tests/common/heatmapsamples.h"

#include <QSignalSpy>
#include <QtTest>

// The heatmap without a mouse: keys select cells exactly as clicks do.
class TestHeatmapKeys : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void takesKeyboardFocus();
    void keysMoveSelection_data();
    void keysMoveSelection();
    void edgesStopTheSelection_data();
    void edgesStopTheSelection();
    void enterReportsTheCellAgain();
    void keyAfterClickMovesFromTheClickedCell();
    void accessibleDescriptionReadsTheCell();

private:
    // Checks one cellSelected emission against the matrix set on the heatmap.
    void verifyReported(const QList<QVariant> &arguments, int row, int column) const;

    AttentionHeatmap *m_heatmap = nullptr;
    std::vector<float> m_weights;
};

void TestHeatmapKeys::init()
{
    m_weights = rampWeights();
    m_heatmap = new AttentionHeatmap;
    m_heatmap->resize(800, 600);
    m_heatmap->setMatrix(kSource, kOutput, m_weights);
    m_heatmap->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_heatmap));
    m_heatmap->setFocus();
    m_heatmap->replot();
}

void TestHeatmapKeys::cleanup()
{
    delete m_heatmap;
    m_heatmap = nullptr;
}

void TestHeatmapKeys::verifyReported(const QList<QVariant> &arguments, int row, int column) const
{
    QCOMPARE(arguments.at(0).toInt(), row);
    QCOMPARE(arguments.at(1).toInt(), column);
    QCOMPARE(arguments.at(2).toDouble(), double(m_weights[std::size_t(row * kSource.size() + column)]));
}

void TestHeatmapKeys::takesKeyboardFocus()
{
    QCOMPARE(m_heatmap->focusPolicy(), Qt::StrongFocus);
    QVERIFY(m_heatmap->hasFocus());
    QVERIFY(!m_heatmap->accessibleName().isEmpty());
}

void TestHeatmapKeys::keysMoveSelection_data()
{
    QTest::addColumn<int>("startRow");
    QTest::addColumn<int>("startColumn");
    QTest::addColumn<int>("key");
    QTest::addColumn<int>("modifiers");
    QTest::addColumn<int>("row");
    QTest::addColumn<int>("column");
    const int none = Qt::NoModifier;
    QTest::newRow("first key selects the top left") << -1 << -1 << int(Qt::Key_Right) << none << 0 << 0;
    QTest::newRow("right") << 1 << 2 << int(Qt::Key_Right) << none << 1 << 3;
    QTest::newRow("left") << 1 << 2 << int(Qt::Key_Left) << none << 1 << 1;
    QTest::newRow("down") << 1 << 2 << int(Qt::Key_Down) << none << 2 << 2;
    QTest::newRow("up") << 1 << 2 << int(Qt::Key_Up) << none << 0 << 2;
    QTest::newRow("home: row start") << 2 << 3 << int(Qt::Key_Home) << none << 2 << 0;
    QTest::newRow("end: row end") << 2 << 1 << int(Qt::Key_End) << none << 2 << 4;
    QTest::newRow("ctrl+home: first cell") << 2 << 3 << int(Qt::Key_Home) << int(Qt::ControlModifier) << 0 << 0;
    QTest::newRow("ctrl+end: last cell") << 1 << 1 << int(Qt::Key_End) << int(Qt::ControlModifier) << 3 << 4;
    QTest::newRow("page up: column top") << 2 << 3 << int(Qt::Key_PageUp) << none << 0 << 3;
    QTest::newRow("page down: column bottom") << 1 << 3 << int(Qt::Key_PageDown) << none << 3 << 3;
}

void TestHeatmapKeys::keysMoveSelection()
{
    QFETCH(int, startRow);
    QFETCH(int, startColumn);
    QFETCH(int, key);
    QFETCH(int, modifiers);
    QFETCH(int, row);
    QFETCH(int, column);
    if (startRow >= 0)
        m_heatmap->selectCell(startRow, startColumn);
    QSignalSpy spy(m_heatmap, &AttentionHeatmap::cellSelected);
    QTest::keyClick(m_heatmap, Qt::Key(key), Qt::KeyboardModifiers(modifiers));
    QCOMPARE(spy.count(), 1);
    verifyReported(spy.takeFirst(), row, column);
    QCOMPARE(m_heatmap->selectedRow(), row);
    QCOMPARE(m_heatmap->selectedColumn(), column);
}

void TestHeatmapKeys::edgesStopTheSelection_data()
{
    QTest::addColumn<int>("startRow");
    QTest::addColumn<int>("startColumn");
    QTest::addColumn<int>("key");
    QTest::newRow("left edge") << 2 << 0 << int(Qt::Key_Left);
    QTest::newRow("right edge") << 2 << 4 << int(Qt::Key_Right);
    QTest::newRow("top edge") << 0 << 3 << int(Qt::Key_Up);
    QTest::newRow("bottom edge") << 3 << 1 << int(Qt::Key_Down);
}

void TestHeatmapKeys::edgesStopTheSelection()
{
    QFETCH(int, startRow);
    QFETCH(int, startColumn);
    QFETCH(int, key);
    m_heatmap->selectCell(startRow, startColumn);
    QSignalSpy spy(m_heatmap, &AttentionHeatmap::cellSelected);
    for (int i = 0; i < 3; ++i)
        QTest::keyClick(m_heatmap, Qt::Key(key));
    QCOMPARE(spy.count(), 0);  // nothing changed, nothing reported
    QCOMPARE(m_heatmap->selectedRow(), startRow);
    QCOMPARE(m_heatmap->selectedColumn(), startColumn);
}

void TestHeatmapKeys::enterReportsTheCellAgain()
{
    QSignalSpy spy(m_heatmap, &AttentionHeatmap::cellSelected);
    QTest::keyClick(m_heatmap, Qt::Key_Down);
    QTest::keyClick(m_heatmap, Qt::Key_Down);
    QTest::keyClick(m_heatmap, Qt::Key_Right);
    QCOMPARE(spy.count(), 3);
    verifyReported(spy.at(0), 0, 0);
    verifyReported(spy.at(2), 1, 1);
    spy.clear();
    QTest::keyClick(m_heatmap, Qt::Key_Return);
    QTest::keyClick(m_heatmap, Qt::Key_Space);
    QCOMPARE(spy.count(), 2);
    verifyReported(spy.at(0), 1, 1);
    verifyReported(spy.at(1), 1, 1);
}

void TestHeatmapKeys::keyAfterClickMovesFromTheClickedCell()
{
    const QPoint cell(qRound(m_heatmap->xAxis->coordToPixel(3)), qRound(m_heatmap->yAxis->coordToPixel(2)));
    QSignalSpy spy(m_heatmap, &AttentionHeatmap::cellSelected);
    QTest::mouseClick(m_heatmap, Qt::LeftButton, {}, cell);
    QTest::keyClick(m_heatmap, Qt::Key_Up);
    QCOMPARE(spy.count(), 2);
    verifyReported(spy.at(0), 2, 3);
    verifyReported(spy.at(1), 1, 3);
    QCOMPARE(m_heatmap->selectedRow(), 1);
    QCOMPARE(m_heatmap->selectedColumn(), 3);
}

void TestHeatmapKeys::accessibleDescriptionReadsTheCell()
{
    QVERIFY(m_heatmap->accessibleDescription().contains(QStringLiteral("4 rows")));
    QTest::keyClick(m_heatmap, Qt::Key_End, Qt::ControlModifier);
    // The last output token, the last input token and their weight, 19/20.
    const QString description = m_heatmap->accessibleDescription();
    QVERIFY2(description.contains(QStringLiteral("'the'")) && description.contains(QStringLiteral("'<EOS>'"))
                 && description.contains(QStringLiteral("0.95")),
             qPrintable(description));
}

ATTNSCOPE_TEST(heatmapkeys, TestHeatmapKeys)
#include "tst_heatmapkeys.moc"
