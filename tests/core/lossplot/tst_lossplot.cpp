#include "tests/common/testregistry.h"
#include "ui/core/lossplot.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

namespace {

EpochStats epoch(int number, double trainLoss, double valLoss, double exactMatch)
{
    EpochStats stats;
    stats.epoch = number;
    stats.trainLoss = trainLoss;
    stats.valLoss = valLoss;
    stats.valExactMatch = exactMatch;
    return stats;
}

double valueAt(QCPGraph *graph, int index)
{
    return graph->data()->at(index)->value;
}

QStringList readLines(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll()).split('\n', Qt::SkipEmptyParts);
}

} // namespace

class TestLossPlot : public QObject
{
    Q_OBJECT

private slots:
    void batchesAddPoints();
    void smoothingIsBiasCorrected_data();
    void smoothingIsBiasCorrected();
    void nonFiniteLossIsSkipped();
    void epochsAddPointsAndMarkBest();
    void historyReplacesCurves();
    void clearEmptiesEverything();
    void markerSitsAtTheShownEpoch();
    void followsDataUntilUserZooms();
    void exportCsvContent();
    void exportCsvWithoutDataFails();
    void exportImageHasRequestedSize();

private:
    QTemporaryDir m_dir;
};

void TestLossPlot::batchesAddPoints()
{
    LossPlot plot;
    QCOMPARE(plot.batchPointCount(), 0);
    plot.addBatch(0.25, 3.0);
    plot.addBatch(0.5, 2.0);
    plot.addBatch(0.75, 1.5);
    QCOMPARE(plot.batchPointCount(), 3);
    QCOMPARE(plot.epochPointCount(), 0);
    QCOMPARE(plot.batchGraph()->dataCount(), 3);
    QCOMPARE(plot.smoothedGraph()->dataCount(), 3);
    QCOMPARE(plot.batchGraph()->data()->at(1)->key, 0.5);
    QCOMPARE(valueAt(plot.batchGraph(), 2), 1.5);
}

void TestLossPlot::smoothingIsBiasCorrected_data()
{
    QTest::addColumn<double>("first");
    QTest::addColumn<double>("second");
    QTest::newRow("falling") << 4.0 << 2.0;
    QTest::newRow("rising") << 0.5 << 3.0;
}

void TestLossPlot::smoothingIsBiasCorrected()
{
    QFETCH(double, first);
    QFETCH(double, second);
    LossPlot plot;
    plot.addBatch(0.1, first);
    // Without the correction this would be (1 - beta) * first, far below the data.
    QCOMPARE(valueAt(plot.smoothedGraph(), 0), first);

    plot.addBatch(0.2, second);
    const double beta = LossPlot::kSmoothing;
    const double expected = (beta * (1 - beta) * first + (1 - beta) * second) / (1 - beta * beta);
    QVERIFY(std::abs(valueAt(plot.smoothedGraph(), 1) - expected) < 1e-12);
}

void TestLossPlot::nonFiniteLossIsSkipped()
{
    LossPlot plot;
    plot.addBatch(0.1, 2.0);
    plot.addBatch(0.2, std::nan(""));
    plot.addBatch(0.3, std::numeric_limits<double>::infinity());
    plot.addBatch(0.4, 2.0);
    QCOMPARE(plot.batchPointCount(), 2);
    QCOMPARE(valueAt(plot.smoothedGraph(), 1), 2.0);
}

void TestLossPlot::epochsAddPointsAndMarkBest()
{
    LossPlot plot;
    plot.addEpoch(epoch(1, 2.5, 2.2, 0.0), true);
    plot.addEpoch(epoch(2, 1.5, 1.2, 0.25), true);
    plot.addEpoch(epoch(3, 1.0, 1.4, 0.5), false);
    QCOMPARE(plot.epochPointCount(), 3);
    QCOMPARE(plot.batchPointCount(), 0);
    QCOMPARE(plot.trainGraph()->dataCount(), 3);
    QCOMPARE(plot.validationGraph()->dataCount(), 3);
    QCOMPARE(plot.trainGraph()->data()->at(2)->key, 3.0);  // plotted at the epoch's end
    QCOMPARE(valueAt(plot.trainGraph(), 2), 1.0);
    QCOMPARE(valueAt(plot.validationGraph(), 1), 1.2);
    QCOMPARE(plot.exactMatchGraph()->valueAxis(), plot.yAxis2);
    QCOMPARE(valueAt(plot.exactMatchGraph(), 2), 50.0);  // percent on the right axis
    QCOMPARE(plot.yAxis2->range(), QCPRange(0, 100));
    QCOMPARE(plot.bestEpoch(), 2);
}

void TestLossPlot::historyReplacesCurves()
{
    LossPlot plot;
    plot.addBatch(0.5, 3.0);
    plot.setHistory({epoch(1, 2.0, 2.0, 0.1), epoch(2, 1.0, 1.5, 0.4), epoch(3, 0.8, 1.7, 0.5)});
    QCOMPARE(plot.batchPointCount(), 0);
    QCOMPARE(plot.batchGraph()->dataCount(), 0);
    QCOMPARE(plot.epochPointCount(), 3);
    QCOMPARE(plot.validationGraph()->dataCount(), 3);
    QCOMPARE(plot.bestEpoch(), 2);
}

void TestLossPlot::clearEmptiesEverything()
{
    LossPlot plot;
    plot.addBatch(0.5, 3.0);
    plot.addEpoch(epoch(1, 2.0, 2.0, 0.1), true);
    plot.clear();
    QCOMPARE(plot.batchPointCount(), 0);
    QCOMPARE(plot.epochPointCount(), 0);
    QCOMPARE(plot.bestEpoch(), 0);
    for (QCPGraph *graph : {plot.batchGraph(), plot.smoothedGraph(), plot.trainGraph(),
                            plot.validationGraph(), plot.exactMatchGraph()})
        QCOMPARE(graph->dataCount(), 0);
    // The smoothing starts over too.
    plot.addBatch(0.1, 5.0);
    QCOMPARE(valueAt(plot.smoothedGraph(), 0), 5.0);
}

void TestLossPlot::markerSitsAtTheShownEpoch()
{
    LossPlot plot;
    plot.setHistory({epoch(1, 2.0, 2.0, 0.1), epoch(2, 1.0, 1.5, 0.4), epoch(3, 0.8, 1.7, 0.5)});
    const auto verticalLinesAt = [&plot](double x) {
        int lines = 0;
        for (int i = 0; i < plot.itemCount(); ++i)
            if (auto *line = qobject_cast<QCPItemStraightLine *>(plot.item(i));
                line && line->visible() && line->point1->coords().x() == x && line->point2->coords().x() == x)
                ++lines;
        return lines;
    };
    QVERIFY(!plot.hasMarker());
    QCOMPARE(verticalLinesAt(3), 0);  // the best epoch's line is at 2
    plot.setMarker(3);
    QVERIFY(plot.hasMarker());
    QCOMPARE(plot.markerEpoch(), 3.0);
    QCOMPARE(verticalLinesAt(3), 1);
    plot.setMarker(qQNaN());
    QVERIFY(!plot.hasMarker());
    QCOMPARE(verticalLinesAt(3), 0);
    plot.setMarker(1);
    plot.clear();
    QVERIFY(!plot.hasMarker());
}

void TestLossPlot::followsDataUntilUserZooms()
{
    LossPlot plot;
    plot.resize(700, 450);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    plot.addBatch(0.5, 3.0);
    plot.addBatch(2.5, 1.0);
    QVERIFY(plot.followsData());
    QVERIFY(plot.xAxis->range().contains(2.5));
    QVERIFY(plot.yAxis->range().contains(3.0));

    plot.xAxis->setRange(0.2, 0.8);  // as a drag or wheel zoom would
    QVERIFY(!plot.followsData());
    plot.addBatch(4.5, 0.5);
    QCOMPARE(plot.xAxis->range(), QCPRange(0.2, 0.8));

    plot.replot();
    QTest::mouseDClick(&plot, Qt::LeftButton, {}, plot.axisRect()->rect().center());
    QVERIFY(plot.followsData());
    QVERIFY(plot.xAxis->range().contains(4.5));
}

void TestLossPlot::exportCsvContent()
{
    LossPlot plot;
    plot.addBatch(0.5, 4.0);
    plot.addBatch(1.0, 2.0);
    plot.addEpoch(epoch(1, 3.0, 2.5, 0.25), true);
    plot.addBatch(1.5, 1.0);
    const QString path = m_dir.filePath("loss.csv");
    QString error;
    QVERIFY2(plot.exportCsv(path, &error), qPrintable(error));

    const QStringList lines = readLines(path);
    QCOMPARE(lines.size(), 5);
    QCOMPARE(lines[0], QString("epoch_position,batch_loss,smoothed_batch_loss,train_loss,val_loss,val_exact_match"));
    QCOMPARE(lines[1], QString("0.5,4,4,,,"));
    const QStringList second = lines[2].split(',');
    QCOMPARE(second.size(), 6);
    QCOMPARE(second[0], QString("1"));
    QCOMPARE(second[1], QString("2"));
    QVERIFY(std::abs(second[2].toDouble() - valueAt(plot.smoothedGraph(), 1)) < 1e-6);
    QCOMPARE(lines[3], QString("1,,,3,2.5,0.25"));  // the epoch follows its last batch
    QVERIFY(lines[4].startsWith("1.5,1,"));
}

void TestLossPlot::exportCsvWithoutDataFails()
{
    LossPlot plot;
    const QString path = m_dir.filePath("none.csv");
    QString error;
    QVERIFY(!plot.exportCsv(path, &error));
    QVERIFY(!error.isEmpty());
    QVERIFY(!QFile::exists(path));
}

void TestLossPlot::exportImageHasRequestedSize()
{
    LossPlot plot;
    plot.addBatch(0.5, 3.0);
    plot.addEpoch(epoch(1, 2.0, 2.0, 0.1), true);
    const QString path = m_dir.filePath("loss.png");
    QString error;
    QVERIFY2(plot.exportImage(path, 900, 500, &error), qPrintable(error));
    QCOMPARE(QImage(path).size(), QSize(900, 500));
    QVERIFY(!plot.exportImage(m_dir.filePath("missing/loss.png"), 900, 500, &error));
    QVERIFY(!error.isEmpty());
}

ATTNSCOPE_TEST(lossplot, TestLossPlot)
#include "tst_lossplot.moc"
