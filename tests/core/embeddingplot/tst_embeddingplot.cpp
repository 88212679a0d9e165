#include "ui/core/embeddingplot.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

namespace {

// Hand-made 3-d embeddings. Cosine similarities to "cat" (1, 0.1, 0): dog 0.99, fox 0.80,
// bus 0.21, car 0.10, tree 0.00, sky -0.10. <EOS> points exactly like "cat" (similarity 1), so it
// would come first if special tokens were not left out of the neighbours.
EmbeddingTable table()
{
    EmbeddingTable t;
    t.words = {"<PAD>", "<SOS>", "<EOS>", "<UNK>", "cat", "dog", "car", "bus", "tree", "fox", "sky"};
    t.dimensions = 3;
    t.values = {
        0, 0, 0,           // <PAD>
        0.3f, 0.3f, 0.3f,  // <SOS>
        2, 0.2f, 0,        // <EOS>
        -0.2f, 0.1f, 0.4f, // <UNK>
        1, 0.1f, 0,        // cat
        0.9f, 0.2f, 0,     // dog
        0, 1, 0.1f,        // car
        0.1f, 0.9f, 0,     // bus
        0, 0, 1,           // tree
        0.8f, 0, 0.6f,     // fox
        0, -1, 0,          // sky
    };
    return t;
}

const int kCat = 4;

} // namespace

class TestEmbeddingPlot : public QObject
{
    Q_OBJECT

private slots:
    void setEmbeddingsPlacesEveryWord();
    void neighboursByCosine();
    void clickSelectsWord_data();
    void clickSelectsWord();
    void clickAwayFromPointsSelectsNothing();
    void badTableShowsNothing_data();
    void badTableShowsNothing();
    void exportImageHasRequestedSize();

private:
    QTemporaryDir m_dir;
};

void TestEmbeddingPlot::setEmbeddingsPlacesEveryWord()
{
    EmbeddingPlot plot;
    plot.setEmbeddings(table(), "Encoder embeddings");
    QCOMPARE(plot.wordCount(), 11);
    QCOMPARE(plot.word(kCat), QString("cat"));
    QCOMPARE(plot.selectedWord(), -1);
    QVERIFY(plot.xAxis->label().startsWith("PC1 ("));
    QVERIFY(plot.xAxis->label().endsWith("% of variance)"));
    QVERIFY(plot.yAxis->label().startsWith("PC2 ("));
    // Words that point the same way land near each other; opposite ones far apart.
    const QPointF cat = plot.wordPosition(kCat);
    const QPointF dog = plot.wordPosition(5);
    const QPointF sky = plot.wordPosition(10);
    QVERIFY(QLineF(cat, dog).length() < QLineF(cat, sky).length());
}

void TestEmbeddingPlot::neighboursByCosine()
{
    EmbeddingPlot plot;
    plot.setEmbeddings(table(), "Encoder embeddings");
    QCOMPARE(plot.neighbours(kCat),
             QStringList({"dog  0.99", "fox  0.80", "bus  0.21", "car  0.10", "tree  0.00"}));
}

void TestEmbeddingPlot::clickSelectsWord_data()
{
    QTest::addColumn<int>("index");
    QTest::addColumn<QString>("word");
    QTest::addColumn<QString>("nearest");
    QTest::newRow("cat") << kCat << "cat" << "dog  0.99";
    QTest::newRow("tree") << 8 << "tree" << "fox  0.60";
    QTest::newRow("special token") << 2 << "<EOS>" << "cat  1.00";
}

void TestEmbeddingPlot::clickSelectsWord()
{
    QFETCH(int, index);
    QFETCH(QString, word);
    QFETCH(QString, nearest);
    EmbeddingPlot plot;
    plot.resize(800, 600);
    plot.setEmbeddings(table(), "Encoder embeddings");
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    plot.replot();

    QSignalSpy spy(&plot, &EmbeddingPlot::wordSelected);
    const QPointF position = plot.wordPosition(index);
    // A couple of pixels off the centre still hits the point.
    const QPoint pixel(qRound(plot.xAxis->coordToPixel(position.x())) + 2,
                       qRound(plot.yAxis->coordToPixel(position.y())) - 1);
    QTest::mouseClick(&plot, Qt::LeftButton, {}, pixel);

    QCOMPARE(spy.count(), 1);
    const QList<QVariant> arguments = spy.takeFirst();
    QCOMPARE(arguments.at(0).toString(), word);
    const QStringList neighbours = arguments.at(1).toStringList();
    QCOMPARE(neighbours.size(), 5);
    QCOMPARE(neighbours.first(), nearest);
    QCOMPARE(neighbours, plot.neighbours(index));
    QCOMPARE(plot.selectedWord(), index);
}

void TestEmbeddingPlot::clickAwayFromPointsSelectsNothing()
{
    EmbeddingPlot plot;
    plot.resize(800, 600);
    plot.setEmbeddings(table(), "Encoder embeddings");
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    plot.replot();

    QSignalSpy spy(&plot, &EmbeddingPlot::wordSelected);
    QTest::mouseClick(&plot, Qt::LeftButton, {}, QPoint(2, 2));
    QCOMPARE(spy.count(), 0);
    QCOMPARE(plot.selectedWord(), -1);
}

void TestEmbeddingPlot::badTableShowsNothing_data()
{
    QTest::addColumn<int>("dimensions");
    QTest::addColumn<int>("valueCount");
    QTest::newRow("too few values") << 3 << 10;
    QTest::newRow("zero dimensions") << 0 << 0;
}

void TestEmbeddingPlot::badTableShowsNothing()
{
    QFETCH(int, dimensions);
    QFETCH(int, valueCount);
    EmbeddingPlot plot;
    plot.setEmbeddings(table(), "before");
    EmbeddingTable bad = table();
    bad.dimensions = dimensions;
    bad.values.resize(std::size_t(valueCount));
    plot.setEmbeddings(bad, "bad");
    QCOMPARE(plot.wordCount(), 0);
    QSignalSpy spy(&plot, &EmbeddingPlot::wordSelected);
    plot.selectWord(0);
    QCOMPARE(spy.count(), 0);
    QCOMPARE(plot.selectedWord(), -1);
}

void TestEmbeddingPlot::exportImageHasRequestedSize()
{
    EmbeddingPlot plot;
    plot.setEmbeddings(table(), "Encoder embeddings");
    const QString path = m_dir.filePath("embeddings.png");
    QString error;
    QVERIFY2(plot.exportImage(path, 800, 700, &error), qPrintable(error));
    QCOMPARE(QImage(path).size(), QSize(800, 700));
}

QTEST_MAIN(TestEmbeddingPlot)
#include "tst_embeddingplot.moc"
