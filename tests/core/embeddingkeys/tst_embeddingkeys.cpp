#include "tests/common/testregistry.h"
#include "engine/attention/seq2seqmodel.h"
#include "ui/attention/embeddingpanel.h"
#include "ui/core/embeddingplot.h"
#include "tests/common/tinymodel.h"

#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QtTest>

namespace {

// A plus sign of words around "centre", with "near" just off its upward arm: stepping up from the
// centre reaches "near" first. The axes' scales nearly match on a square plot, so every step below
// is unambiguous on screen.
EmbeddingProjection plusSign()
{
    EmbeddingProjection projection;
    projection.components = 2;
    projection.explainedVariance[0] = 0.6;
    projection.explainedVariance[1] = 0.3;
    const struct {
        const char *word;
        double x, y;
    } places[] = {{"centre", 0, 0}, {"right", 1, 0}, {"farright", 3, 0}, {"left", -2, 0},
                  {"near", 0.3, 1.2}, {"up", 0, 2}, {"top", 0, 4}, {"down", 0, -1}};
    for (const auto &place : places) {
        ProjectedWord word;
        word.word = place.word;
        word.x = place.x;
        word.y = place.y;
        projection.words.push_back(word);
    }
    return projection;
}

} // namespace

// The embedding plot without a mouse: found by name, walked with the arrow keys.
class TestEmbeddingKeys : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void findWordReportsItLikeAClick();
    void arrowsStepToTheNearestWordThatWay_data();
    void arrowsStepToTheNearestWordThatWay();
    void enterReportsTheWordAgain();
    void accessibleDescriptionReadsTheSelection();
    void panelSearchFieldSelectsTheTypedWord();

private:
    int index(const QString &word) const;
    QString pressFrom(const QString &start, const QList<int> &keys);

    EmbeddingPlot *m_plot = nullptr;
};

void TestEmbeddingKeys::init()
{
    m_plot = new EmbeddingPlot;
    m_plot->resize(600, 600);
    m_plot->setProjection(plusSign(), QStringLiteral("plus"));
    // As the panels do: a reported word becomes the selection.
    connect(m_plot, &EmbeddingPlot::wordClicked, m_plot, [this](int word) { m_plot->setSelection(word, {}); });
    m_plot->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_plot));
    m_plot->setFocus();
    m_plot->replot();
}

void TestEmbeddingKeys::cleanup()
{
    delete m_plot;
    m_plot = nullptr;
}

int TestEmbeddingKeys::index(const QString &word) const
{
    for (int i = 0; i < m_plot->wordCount(); ++i)
        if (m_plot->word(i) == word)
            return i;
    return -1;
}

QString TestEmbeddingKeys::pressFrom(const QString &start, const QList<int> &keys)
{
    m_plot->setSelection(index(start), {});
    for (int key : keys)
        QTest::keyClick(m_plot, Qt::Key(key));
    return m_plot->word(m_plot->selectedWord());
}

void TestEmbeddingKeys::findWordReportsItLikeAClick()
{
    QCOMPARE(m_plot->focusPolicy(), Qt::StrongFocus);
    QSignalSpy spy(m_plot, &EmbeddingPlot::wordClicked);
    QCOMPARE(m_plot->findWord(QStringLiteral("  FarRight ")), index("farright"));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.takeFirst().at(0).toInt(), index("farright"));
    QCOMPARE(m_plot->selectedWord(), index("farright"));
    QCOMPARE(m_plot->findWord(QStringLiteral("unicorn")), -1);
    QCOMPARE(m_plot->findWord(QStringLiteral("far")), -1);  // a whole word, not a prefix
    QCOMPARE(spy.count(), 0);
    QCOMPARE(m_plot->selectedWord(), index("farright"));
}

void TestEmbeddingKeys::arrowsStepToTheNearestWordThatWay_data()
{
    QTest::addColumn<QString>("start");
    QTest::addColumn<QList<int>>("keys");
    QTest::addColumn<QString>("end");
    QTest::newRow("right: the nearer of two") << "centre" << QList<int>{Qt::Key_Right} << "right";
    QTest::newRow("right twice") << "centre" << QList<int>{Qt::Key_Right, Qt::Key_Right} << "farright";
    QTest::newRow("right stops at the last") << "centre" << QList<int>{Qt::Key_Right, Qt::Key_Right, Qt::Key_Right}
                                             << "farright";
    QTest::newRow("left") << "centre" << QList<int>{Qt::Key_Left} << "left";
    QTest::newRow("down") << "centre" << QList<int>{Qt::Key_Down} << "down";
    QTest::newRow("up: off-axis but within 45 degrees") << "centre" << QList<int>{Qt::Key_Up} << "near";
    QTest::newRow("up the arm") << "centre" << QList<int>{Qt::Key_Up, Qt::Key_Up, Qt::Key_Up} << "top";
    QTest::newRow("up stops at the top") << "top" << QList<int>{Qt::Key_Up} << "top";
    QTest::newRow("back down") << "top" << QList<int>{Qt::Key_Down, Qt::Key_Down} << "near";
    QTest::newRow("left from the far end") << "farright" << QList<int>{Qt::Key_Left} << "right";
}

void TestEmbeddingKeys::arrowsStepToTheNearestWordThatWay()
{
    QFETCH(QString, start);
    QFETCH(QList<int>, keys);
    QFETCH(QString, end);
    QCOMPARE(pressFrom(start, keys), end);
}

void TestEmbeddingKeys::enterReportsTheWordAgain()
{
    m_plot->setSelection(index("left"), {});
    QSignalSpy spy(m_plot, &EmbeddingPlot::wordClicked);
    QTest::keyClick(m_plot, Qt::Key_Return);
    QTest::keyClick(m_plot, Qt::Key_Space);
    QCOMPARE(spy.count(), 2);
    QCOMPARE(spy.at(0).at(0).toInt(), index("left"));
    QCOMPARE(spy.at(1).at(0).toInt(), index("left"));

    // With nothing selected, the first arrow picks a word to start from.
    m_plot->setSelection(-1, {});
    spy.clear();
    QTest::keyClick(m_plot, Qt::Key_Down);
    QCOMPARE(spy.count(), 1);
    QVERIFY(m_plot->selectedWord() >= 0);
}

void TestEmbeddingKeys::accessibleDescriptionReadsTheSelection()
{
    QVERIFY(!m_plot->accessibleName().isEmpty());
    QVERIFY(m_plot->accessibleDescription().contains(QStringLiteral("8 words")));
    m_plot->setSelection(index("up"), {{index("top"), 0.87}});
    const QString description = m_plot->accessibleDescription();
    QVERIFY2(description.contains(QStringLiteral("up")) && description.contains(QStringLiteral("top 0.87")),
             qPrintable(description));
}

void TestEmbeddingKeys::panelSearchFieldSelectsTheTypedWord()
{
    const ModelConfig config = panelModelConfig();
    const Vocabulary vocabulary = panelVocabulary();
    EmbeddingPanel panel;
    panel.resize(900, 600);
    panel.setModel(std::make_shared<const Seq2SeqModel>(config, vocabulary, 1), "epoch 1");
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    auto *neighbours = panel.findChild<QLabel *>("neighbours");
    QLineEdit *field = panel.findField();
    QVERIFY(!field->accessibleName().isEmpty());

    field->setFocus();
    QTest::keyClicks(field, QStringLiteral("Dog"));
    QTest::keyClick(field, Qt::Key_Return);
    const int dog = vocabulary.id("dog");
    QCOMPARE(panel.plot()->selectedWord(), dog);
    QCOMPARE(int(panel.plot()->neighbours().size()), EmbeddingPanel::kNeighbours);
    QVERIFY(neighbours->text().startsWith("<b>dog</b>"));  // the list a click on "dog" shows

    field->clear();
    QTest::keyClicks(field, QStringLiteral("unicorn"));
    QTest::keyClick(field, Qt::Key_Return);
    QCOMPARE(panel.plot()->selectedWord(), dog);
    QVERIFY(neighbours->text().contains(QStringLiteral("unicorn")));

    // From the field, Tab reaches the plot, whose arrows step on from the found word.
    QTest::keyClick(field, Qt::Key_Tab);
    QCOMPARE(QApplication::focusWidget(), panel.plot());
    EmbeddingPlot *plot = panel.plot();
    const auto pixel = [plot](int word) {
        const QPointF at = plot->wordPosition(word);
        return QPointF(plot->xAxis->coordToPixel(at.x()), plot->yAxis->coordToPixel(at.y()));
    };
    // Seven words from "dog": some way leads on, and every step goes the way of its arrow.
    int moves = 0;
    for (int key : {Qt::Key_Right, Qt::Key_Down, Qt::Key_Left, Qt::Key_Up}) {
        const int from = plot->selectedWord();
        QTest::keyClick(plot, Qt::Key(key));
        const int to = plot->selectedWord();
        if (to == from)
            continue;
        ++moves;
        const QPointF step = pixel(to) - pixel(from);
        const double along = key == Qt::Key_Right ? step.x() : key == Qt::Key_Left ? -step.x()
                           : key == Qt::Key_Down  ? step.y() : -step.y();
        QVERIFY(along > 0);
    }
    QVERIFY(moves > 0);
}

ATTNSCOPE_TEST(embeddingkeys, TestEmbeddingKeys)
#include "tst_embeddingkeys.moc"
