#include "tests/common/testregistry.h"
#include "engine/attention/seq2seqmodel.h"
#include "ui/attention/embeddingpanel.h"
#include "ui/core/embeddingplot.h"
#include "tests/common/tinymodel.h"

#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

namespace {

// Hand-made 3-d embeddings. Cosine similarities to "cat" (1, 0.1, 0): dog 0.99, fox 0.80,
// bus 0.21, car 0.10, tree 0.00, sky -0.10. <EOS> points exactly like "cat" (similarity 1), so it
// would come first if special tokens were not left out of the neighbours.
EmbeddingTable plottedTable()
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

const int kPlottedCat = 4;

// Shows `plot` on screen and returns the pixel of word `index`, a couple of pixels off its centre.
QPoint showAndLocate(EmbeddingPlot &plot, int index)
{
    plot.show();
    if (!QTest::qWaitForWindowExposed(&plot))
        return {};
    plot.replot();
    const QPointF position = plot.wordPosition(index);
    return QPoint(qRound(plot.xAxis->coordToPixel(position.x())) + 2,
                  qRound(plot.yAxis->coordToPixel(position.y())) - 1);
}

} // namespace

class TestEmbeddingPlot : public QObject
{
    Q_OBJECT

private slots:
    void setProjectionPlacesEveryWord();
    void clickReportsWord_data();
    void clickReportsWord();
    void clickAwayFromPointsReportsNothing();
    void selectionHighlightsNeighbours();
    void messageClearsPoints();
    void exportImageHasRequestedSize();
    void exportSvgKeepsTextAsText();
    void panelListsNeighboursOfClickedWord();

private:
    QTemporaryDir m_dir;
};

void TestEmbeddingPlot::setProjectionPlacesEveryWord()
{
    EmbeddingPlot plot;
    const EmbeddingProjection projection = projectEmbeddings2d(plottedTable());
    plot.setProjection(projection, "Encoder embeddings");
    QCOMPARE(plot.wordCount(), 11);
    QCOMPARE(plot.word(kPlottedCat), QString("cat"));
    QCOMPARE(plot.selectedWord(), -1);
    QCOMPARE(plot.xAxis->label(), QString("PC1 (%1% of variance)").arg(100 * projection.explainedVariance[0], 0, 'f', 1));
    QCOMPARE(plot.yAxis->label(), QString("PC2 (%1% of variance)").arg(100 * projection.explainedVariance[1], 0, 'f', 1));
    for (int i = 0; i < 11; ++i)
        QCOMPARE(plot.wordPosition(i), QPointF(projection.words[std::size_t(i)].x, projection.words[std::size_t(i)].y));
    // Words that point the same way land near each other; opposite ones far apart.
    const QPointF cat = plot.wordPosition(kPlottedCat);
    const QPointF dog = plot.wordPosition(5);
    const QPointF sky = plot.wordPosition(10);
    QVERIFY(QLineF(cat, dog).length() < QLineF(cat, sky).length());

    EmbeddingProjection flat = projection;
    flat.components = 1;
    plot.setProjection(flat, "one dimension");
    QCOMPARE(plot.yAxis->label(), QString("PC2 (none: too few dimensions)"));
}

void TestEmbeddingPlot::clickReportsWord_data()
{
    QTest::addColumn<int>("index");
    QTest::newRow("cat") << kPlottedCat;
    QTest::newRow("tree") << 8;
    QTest::newRow("special token") << 2;
}

void TestEmbeddingPlot::clickReportsWord()
{
    QFETCH(int, index);
    EmbeddingPlot plot;
    plot.resize(800, 600);
    plot.setProjection(projectEmbeddings2d(plottedTable()), "Encoder embeddings");
    const QPoint pixel = showAndLocate(plot, index);

    QSignalSpy spy(&plot, &EmbeddingPlot::wordClicked);
    QTest::mouseClick(&plot, Qt::LeftButton, {}, pixel);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.takeFirst().at(0).toInt(), index);
    // The owner decides what a click selects.
    QCOMPARE(plot.selectedWord(), -1);
}

void TestEmbeddingPlot::clickAwayFromPointsReportsNothing()
{
    EmbeddingPlot plot;
    plot.resize(800, 600);
    plot.setProjection(projectEmbeddings2d(plottedTable()), "Encoder embeddings");
    showAndLocate(plot, kPlottedCat);

    QSignalSpy spy(&plot, &EmbeddingPlot::wordClicked);
    QTest::mouseClick(&plot, Qt::LeftButton, {}, QPoint(2, 2));
    QCOMPARE(spy.count(), 0);
}

void TestEmbeddingPlot::selectionHighlightsNeighbours()
{
    EmbeddingPlot plot;
    plot.setProjection(projectEmbeddings2d(plottedTable()), "Encoder embeddings");
    plot.setSelection(kPlottedCat, {{5, 0.99}, {9, 0.8}, {42, 0.5}});
    QCOMPARE(plot.selectedWord(), kPlottedCat);
    // Rows the plot does not have are dropped.
    QCOMPARE(int(plot.neighbours().size()), 2);
    QCOMPARE(plot.neighbours()[1].index, 9);
    plot.setSelection(11, {{5, 0.99}});
    QCOMPARE(plot.selectedWord(), -1);
    QVERIFY(plot.neighbours().empty());
    plot.setSelection(kPlottedCat, {{5, 0.99}});
    // New points drop the old highlight.
    plot.setProjection(projectEmbeddings2d(plottedTable()), "next epoch");
    QCOMPARE(plot.selectedWord(), -1);
    QVERIFY(plot.neighbours().empty());
}

void TestEmbeddingPlot::messageClearsPoints()
{
    EmbeddingPlot plot;
    plot.setProjection(projectEmbeddings2d(plottedTable()), "before");
    plot.showMessage("Cannot show embeddings", "bad");
    QCOMPARE(plot.wordCount(), 0);
    plot.setSelection(0, {});
    QCOMPARE(plot.selectedWord(), -1);
    plot.setProjection(EmbeddingProjection{}, "empty");
    QCOMPARE(plot.wordCount(), 0);
}

void TestEmbeddingPlot::exportImageHasRequestedSize()
{
    EmbeddingPlot plot;
    plot.setProjection(projectEmbeddings2d(plottedTable()), "Encoder embeddings");
    const QString path = m_dir.filePath("embeddings.png");
    QString error;
    QVERIFY2(plot.exportImage(path, 800, 700, &error), qPrintable(error));
    QCOMPARE(QImage(path).size(), QSize(800, 700));
}

void TestEmbeddingPlot::exportSvgKeepsTextAsText()
{
    EmbeddingPlot plot;
    plot.setProjection(projectEmbeddings2d(plottedTable()), "Encoder embeddings");
    const QString path = m_dir.filePath("embeddings.svg");
    QString error;
    QVERIFY2(plot.exportImage(path, 800, 600, &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&file);
    QVERIFY(xml.readNextStartElement());
    QCOMPARE(xml.name().toString(), QStringLiteral("svg"));
    QCOMPARE(xml.attributes().value("viewBox").toString(), QStringLiteral("0 0 800 600"));
    QStringList texts;
    while (!xml.atEnd())
        if (xml.readNext() == QXmlStreamReader::Characters)
            texts << xml.text().toString().trimmed();
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QVERIFY(texts.contains("Encoder embeddings"));  // the title, as text a reader can search
    QVERIFY(texts.contains("cat"));
}

void TestEmbeddingPlot::panelListsNeighboursOfClickedWord()
{
    const ModelConfig config = panelModelConfig();
    const Vocabulary vocabulary = panelVocabulary();
    EmbeddingPanel panel;
    panel.resize(900, 600);
    panel.setModel(std::make_shared<const Seq2SeqModel>(config, vocabulary, 1), "epoch 1");
    EmbeddingPlot *plot = panel.plot();
    QCOMPARE(plot->wordCount(), vocabulary.size());
    const int dog = vocabulary.id("dog");
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    const QPoint pixel = showAndLocate(*plot, dog);
    QTest::mouseClick(plot, Qt::LeftButton, {}, pixel);

    const EmbeddingTable embeddings = Seq2SeqModel(config, vocabulary, 1).encoderEmbeddings();
    const std::vector<WordNeighbour> expected = nearestWords(embeddings, dog, EmbeddingPanel::kNeighbours);
    QCOMPARE(plot->selectedWord(), dog);
    QCOMPARE(int(plot->neighbours().size()), EmbeddingPanel::kNeighbours);
    const QString listed = panel.findChild<QLabel *>("neighbours")->text();
    QVERIFY(listed.startsWith("<b>dog</b>"));
    int at = 0;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        QCOMPARE(plot->neighbours()[i].index, expected[i].index);
        // Listed best first, each with its similarity.
        const QString row = QString("<tr><td>%1&nbsp;</td><td align=\"right\">%2</td></tr>")
                                .arg(QString::fromStdString(embeddings.words[std::size_t(expected[i].index)]))
                                .arg(expected[i].similarity, 0, 'f', 2);
        const int found = listed.indexOf(row, at);
        QVERIFY2(found > at, qPrintable(row));
        at = found;
    }

    // The next snapshot keeps following the picked word; the decoder side has its own vectors.
    panel.setModel(std::make_shared<const Seq2SeqModel>(config, vocabulary, 2), "epoch 2");
    QCOMPARE(plot->selectedWord(), dog);
    panel.setSide(EmbeddingPanel::Side::Decoder);
    QCOMPARE(plot->selectedWord(), dog);
    const EmbeddingTable decoder = Seq2SeqModel(config, vocabulary, 2).decoderEmbeddings();
    QCOMPARE(plot->neighbours().front().index, nearestWords(decoder, dog, 1).front().index);
    panel.setModel(nullptr, QString());
    QCOMPARE(plot->wordCount(), 0);
}

ATTNSCOPE_TEST(embeddingplot, TestEmbeddingPlot)
#include "tst_embeddingplot.moc"
