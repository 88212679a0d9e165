#include "tests/common/testregistry.h"
#include "engine/attention/attentioncomparison.h"
#include "engine/attention/weighthistory.h"
#include "engine/core/tokenizer.h"
#include "engine/transformer/attentionrollout.h"
#include "engine/transformer/transformermodel.h"
#include "tests/common/tinymodel.h"
#include "tests/common/tinytransformer.h"
#include "ui/attention/compareview.h"
#include "ui/core/attentionheatmap.h"
#include "ui/transformer/transformerresults.h"
#include "ui/transformer/transformershareddecoder.h"

#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>

// The comparison page on hand-built models, RNNs and a Transformer another lab shares: what each
// side picks, the heatmaps it shows and the difference between them.
class TestCompareView : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void bestAgainstItsEpochShowsEachOwnAttentionAndBMinusA();
    void differentOutputsAreComparedAlongAsOutput();
    void identicalPicksDifferByZero();
    void pickersOfferTheRunEpochsExperimentsAndFiles();
    void aBadFileIsRefusedAndThePickKept();
    void otherWordsAreNamedInsteadOfDiffed();
    void withoutModelsItSaysWhatToDo();
    void typingInTheMiddleKeepsTheCursor();
    void aTransformerOnEitherSideDecodesAndDraws();
    void aTransformerOfOtherWordsIsNamedInsteadOfDiffed();

private:
    // An untrained Transformer of two layers over `vocabulary`, as another lab shares it.
    static SharedDecoder transformer(std::uint64_t seed, const Vocabulary &vocabulary = words());
    static std::shared_ptr<const TransformerSnapshot> transformerSnapshot(std::uint64_t seed,
                                                                          const Vocabulary &vocabulary);
    static std::vector<float> cells(const AttentionHeatmap &heatmap);
    static Seq2SeqModel model(std::uint64_t seed, const Vocabulary &vocabulary = words());
    // A function, not a static: Vocabulary's own statics may not be built before one.
    static Vocabulary words() { return Vocabulary({"red", "green", "blue", "cat", "dog"}); }

    const QString m_sentence = QStringLiteral("red cat blue dog");
    ModelSnapshot m_best;
    ModelSnapshot m_latest;
    WeightHistory m_history;
    CompareView *m_view = nullptr;
};

Seq2SeqModel TestCompareView::model(std::uint64_t seed, const Vocabulary &vocabulary)
{
    return Seq2SeqModel(tinyModelConfig(), vocabulary, seed);
}

std::vector<float> TestCompareView::cells(const AttentionHeatmap &heatmap)
{
    std::vector<float> weights;
    for (int row = 0; row < heatmap.rows(); ++row)
        for (int column = 0; column < heatmap.columns(); ++column)
            weights.push_back(heatmap.weight(row, column));
    return weights;
}

void TestCompareView::initTestCase()
{
    m_best = std::make_shared<const Seq2SeqModel>(model(1));
    m_latest = std::make_shared<const Seq2SeqModel>(model(2));
    // Epoch 1 kept the best model's weights (in half precision), epoch 2 the latest's.
    m_history.add(1, *m_best);
    m_history.add(2, *m_latest);
}

void TestCompareView::init()
{
    m_view = new CompareView(m_history);
    m_view->setBestModel(m_best, QStringLiteral("seed 1"));
    m_view->setLatestModel(m_latest, QStringLiteral("seed 2"));
    m_view->historyChanged(true);
    m_view->setSentence(m_sentence);
    m_view->resize(1000, 400);
    m_view->show();
}

void TestCompareView::cleanup()
{
    delete m_view;
    m_view = nullptr;
}

void TestCompareView::bestAgainstItsEpochShowsEachOwnAttentionAndBMinusA()
{
    QVERIFY(m_view->pick(CompareView::Side::A, QStringLiteral("best")));
    QVERIFY(m_view->pick(CompareView::Side::B, QStringLiteral("epoch:1")));
    QVERIFY(m_view->hasComparison());

    const DecodedSentence a = m_best->reverse(m_sentence.toStdString());
    const DecodedSentence b = m_history.modelAt(1, *m_latest).reverse(m_sentence.toStdString());
    QCOMPARE(cells(*m_view->heatmap(CompareView::Side::A)), a.attention);
    QCOMPARE(cells(*m_view->heatmap(CompareView::Side::B)), b.attention);
    QVERIFY(m_view->findChild<QLabel *>(QStringLiteral("outputA"))->text().contains(QString::fromStdString(a.text())));
    QVERIFY(m_view->findChild<QLabel *>(QStringLiteral("outputB"))->text().contains(QString::fromStdString(b.text())));

    // Half-precision weights change the attention a little and the output not at all.
    QCOMPARE(b.outputTokens, a.outputTokens);
    const std::vector<float> difference = cells(*m_view->differenceMap());
    QCOMPARE(difference.size(), a.attention.size());
    bool someNonZero = false;
    for (std::size_t i = 0; i < difference.size(); ++i) {
        QVERIFY2(std::abs(difference[i] - (b.attention[i] - a.attention[i])) < 1e-5f, qPrintable(QString::number(i)));
        someNonZero = someNonZero || difference[i] != 0.f;
    }
    QVERIFY(someNonZero);
    QVERIFY(m_view->differenceNote()->text().contains(QStringLiteral("cell by cell")));
}

void TestCompareView::differentOutputsAreComparedAlongAsOutput()
{
    QVERIFY(m_view->pick(CompareView::Side::A, QStringLiteral("latest")));
    QVERIFY(m_view->pick(CompareView::Side::B, QStringLiteral("best")));
    const AttentionComparison &c = m_view->comparison();
    QVERIFY2(!c.sameOutput(), "two untrained models of other seeds should disagree on this sentence");
    const std::vector<float> expected =
        attentionDifference(decodeAlong(*m_latest, c.a), decodeAlong(*m_best, c.a));
    QCOMPARE(cells(*m_view->differenceMap()), expected);
    QCOMPARE(m_view->differenceMap()->rows(), c.a.rows());  // A's output words
    QVERIFY(m_view->differenceNote()->text().contains(QStringLiteral("A's output")));
}

void TestCompareView::identicalPicksDifferByZero()
{
    for (const QString &key : {QStringLiteral("best"), QStringLiteral("epoch:2")}) {
        QVERIFY(m_view->pick(CompareView::Side::A, key));
        QVERIFY(m_view->pick(CompareView::Side::B, key));
        const std::vector<float> difference = cells(*m_view->differenceMap());
        QVERIFY(!difference.empty());
        QVERIFY2(std::all_of(difference.begin(), difference.end(), [](float d) { return d == 0.f; }), qPrintable(key));
    }
}

void TestCompareView::pickersOfferTheRunEpochsExperimentsAndFiles()
{
    m_view->addExperimentModel(QStringLiteral("run 1, bahdanau, hidden 32, seed 42"),
                               std::make_shared<const Seq2SeqModel>(model(42)));
    QComboBox *picker = m_view->picker(CompareView::Side::B);
    for (const QString &key : {QStringLiteral("best"), QStringLiteral("latest"), QStringLiteral("epoch:1"),
                               QStringLiteral("epoch:2"), QStringLiteral("run:0"), QStringLiteral("open")})
        QVERIFY2(picker->findData(key) >= 0, qPrintable(key));
    QCOMPARE(m_view->pickedKey(CompareView::Side::A), QStringLiteral("best"));  // the defaults
    QCOMPARE(m_view->pickedKey(CompareView::Side::B), QStringLiteral("latest"));
    QVERIFY(m_view->pick(CompareView::Side::B, QStringLiteral("run:0")));
    QCOMPARE(m_view->comparison().b.attention, model(42).reverse(m_sentence.toStdString()).attention);

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("other.ckpt"));
    model(7).save(QFile::encodeName(path).toStdString());
    QString error;
    QVERIFY2(m_view->loadFile(CompareView::Side::A, path, &error), qPrintable(error));
    QCOMPARE(m_view->pickedKey(CompareView::Side::A), QStringLiteral("file"));
    QVERIFY(m_view->picker(CompareView::Side::A)->currentText().contains(QStringLiteral("other.ckpt")));
    QCOMPARE(m_view->comparison().a.attention, model(7).reverse(m_sentence.toStdString()).attention);
    QCOMPARE(m_view->picker(CompareView::Side::B)->findData(QStringLiteral("file")), -1);  // A's alone
}

void TestCompareView::aBadFileIsRefusedAndThePickKept()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("broken.ckpt"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("not a checkpoint");
    file.close();
    QString error;
    QVERIFY(!m_view->loadFile(CompareView::Side::A, path, &error));
    QVERIFY(!error.isEmpty());
    QCOMPARE(m_view->pickedKey(CompareView::Side::A), QStringLiteral("best"));
    QVERIFY(m_view->hasComparison());
}

void TestCompareView::otherWordsAreNamedInsteadOfDiffed()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("words.ckpt"));
    model(3, Vocabulary({"sun", "moon", "tree"})).save(QFile::encodeName(path).toStdString());
    QString error;
    QVERIFY2(m_view->loadFile(CompareView::Side::B, path, &error), qPrintable(error));
    QVERIFY(!m_view->comparison().problem.empty());
    QCOMPARE(m_view->differenceMap()->rows(), 0);
    QVERIFY(m_view->heatmap(CompareView::Side::B)->rows() > 0);  // each side's own attention still shows
    QVERIFY(m_view->differenceMap()->accessibleDescription().contains(QStringLiteral("different words")));
}

void TestCompareView::withoutModelsItSaysWhatToDo()
{
    WeightHistory empty;
    CompareView view(empty);
    view.show();
    view.setSentence(m_sentence);
    QVERIFY(!view.hasComparison());
    QCOMPARE(view.heatmap(CompareView::Side::A)->rows(), 0);
    QVERIFY(view.differenceMap()->accessibleDescription().contains(QStringLiteral("Pick a model")));
}

void TestCompareView::typingInTheMiddleKeepsTheCursor()
{
    // The lab echoes an edit back through the Reverse page, as here.
    connect(m_view, &CompareView::sentenceEdited, m_view, &CompareView::setSentence);
    QVERIFY(m_view->pick(CompareView::Side::A, QStringLiteral("best")));
    QLineEdit *field = m_view->sentenceField();
    field->setFocus();
    field->setCursorPosition(3);  // after "red"
    QTest::keyClicks(field, QStringLiteral("dish"));
    QCOMPARE(field->text(), QStringLiteral("reddish cat blue dog"));
    QCOMPARE(field->cursorPosition(), 7);
    const DecodedSentence typed = m_best->reverse("reddish cat blue dog");
    QTRY_COMPARE(cells(*m_view->heatmap(CompareView::Side::A)), typed.attention);
}

std::shared_ptr<const TransformerSnapshot> TestCompareView::transformerSnapshot(std::uint64_t seed,
                                                                               const Vocabulary &vocabulary)
{
    const TransformerModel model(tinyTransformer(2, 2, 16, 24), vocabulary, Task::Reverse, seed);
    return std::make_shared<const TransformerSnapshot>(TransformerSnapshot{
        model.inference(), vocabulary, model.config(), Task::Reverse, 1, model.parameterCount()});
}

SharedDecoder TestCompareView::transformer(std::uint64_t seed, const Vocabulary &vocabulary)
{
    return sharedTransformerDecoder(transformerSnapshot(seed, vocabulary), true, QStringLiteral("seed %1").arg(seed));
}

void TestCompareView::aTransformerOnEitherSideDecodesAndDraws()
{
    const auto snapshot = transformerSnapshot(5, words());
    m_view->setDecoder(sharedTransformerDecoder(snapshot, true, QStringLiteral("tiny")));
    QVERIFY(m_view->pick(CompareView::Side::A, QStringLiteral("best")));
    QVERIFY(m_view->pick(CompareView::Side::B, QStringLiteral("decoder:0")));
    QVERIFY(m_view->hasComparison());
    QVERIFY(m_view->picker(CompareView::Side::B)->currentText().startsWith(QStringLiteral("Transformer: tiny")));

    // B: the Transformer's own greedy output, its last layer's cross-attention with the heads averaged.
    const std::vector<std::string> words = tokenize(m_sentence.toStdString());
    const TransformerOutput own = decodeWords(*snapshot->inference, snapshot->vocabulary, words);
    AttentionHeatmap *b = m_view->heatmap(CompareView::Side::B);
    QCOMPARE(b->rows(), int(own.outputTokens.size()));
    QCOMPARE(b->columns(), 5);
    QCOMPARE(cells(*b), layerHeadMean(own.cross, 1).values);
    const QString output = m_view->findChild<QLabel *>(QStringLiteral("outputB"))->text();
    QVERIFY2(output.contains(QStringLiteral("cross-attention of the last decoder layer")), qPrintable(output));

    // B − A along A's (the RNN's) output: the Transformer fed the RNN's words, a row for each.
    const AttentionComparison &c = m_view->comparison();
    QVERIFY2(c.problem.empty(), c.problem.c_str());
    QCOMPARE(m_view->differenceMap()->rows(), c.a.rows());
    QCOMPARE(m_view->differenceMap()->columns(), c.a.columns());
    const std::vector<float> alongA =
        layerHeadMean(decodeWordsAlong(*snapshot->inference, snapshot->vocabulary, words, c.a.outputTokens).cross, 1)
            .values;
    const std::vector<float> rnn = decodeAlong(*m_best, c.a).attention;
    std::vector<float> difference = cells(*m_view->differenceMap());
    QCOMPARE(difference.size(), rnn.size());
    for (std::size_t i = 0; i < difference.size(); ++i)
        QVERIFY2(std::abs(difference[i] - (alongA[i] - rnn[i])) < 1e-5f, qPrintable(QString::number(i)));

    // The other way round: the RNN fed the Transformer's words, a row for each of them.
    QVERIFY(m_view->pick(CompareView::Side::A, QStringLiteral("decoder:0")));
    QVERIFY(m_view->pick(CompareView::Side::B, QStringLiteral("best")));
    QCOMPARE(m_view->comparison().a.outputTokens, own.outputTokens);
    QCOMPARE(m_view->differenceMap()->rows(), int(own.outputTokens.size()));
    QCOMPARE(m_view->differenceMap()->columns(), 5);
    // Against itself, exactly zero.
    QVERIFY(m_view->pick(CompareView::Side::B, QStringLiteral("decoder:0")));
    difference = cells(*m_view->differenceMap());
    QVERIFY(!difference.empty());
    QVERIFY(std::all_of(difference.begin(), difference.end(), [](float d) { return d == 0.f; }));

    // The lab's next model takes the place of its last.
    m_view->setDecoder(transformer(6));
    QCOMPARE(m_view->picker(CompareView::Side::A)->findData(QStringLiteral("decoder:1")), -1);
    QVERIFY(m_view->picker(CompareView::Side::A)->currentText().contains(QStringLiteral("seed 6")));
}

void TestCompareView::aTransformerOfOtherWordsIsNamedInsteadOfDiffed()
{
    m_view->setDecoder(transformer(5, Vocabulary({"red", "cat", "sun"})));
    QVERIFY(m_view->pick(CompareView::Side::B, QStringLiteral("decoder:0")));
    QVERIFY(m_view->heatmap(CompareView::Side::B)->rows() > 0);
    QCOMPARE(m_view->differenceMap()->rows(), 0);
    QVERIFY(m_view->differenceMap()->accessibleDescription().contains(QStringLiteral("different words")));
}

ATTNSCOPE_TEST(compareview, TestCompareView)
#include "tst_compareview.moc"
