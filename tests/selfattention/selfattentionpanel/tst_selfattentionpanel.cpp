#include "tests/common/testregistry.h"
#include "engine/selfattention/selfattentioninputs.h"
#include "ui/core/attentionheatmap.h"
#include "ui/selfattention/attentionarrows.h"
#include "ui/selfattention/matrixtable.h"
#include "ui/selfattention/predictiontable.h"
#include "ui/selfattention/reflectionbox.h"
#include "ui/selfattention/selfattentioncontrols.h"
#include "ui/selfattention/selfattentionpanel.h"

#include <QImage>
#include <QImageReader>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

#include <cmath>
#include <memory>
#include <random>

namespace {

using Source = SelfAttentionControls::Source;

void fillGuesses(PredictionTable *table, const QList<QStringList> &rows)
{
    for (int r = 0; r < rows.size(); ++r)
        for (int c = 0; c < rows[r].size(); ++c)
            table->setGuess(r, c, rows[r][c]);
}

} // namespace

class TestSelfAttentionPanel : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void predictionRejectsBadRow_data();
    void predictionRejectsBadRow();
    void validPredictionRevealsAndShowsDifferences();
    void rowSumColumnFollowsTyping();
    void changedInputHidesWeightsAgain();
    void stepsShowResultsOnlyOnceRevealed();
    void badInputShowsMessage_data();
    void badInputShowsMessage();
    void trainedEmbeddingsUseUnknownRow();
    void exportWritesPngOfRequestedSize_data();
    void exportWritesPngOfRequestedSize();
    void exportWritesVectorDrawings_data();
    void exportWritesVectorDrawings();
    void clickingWordSelectsItsArrows();
    void arrowsFollowADarkPalette();
    void settingsRoundTrip();
    void reflectionAnswersFromTheShownWeights();
    void reflectionComparesAnotherSentence();

private:
    QTemporaryDir m_dir;
    std::unique_ptr<SelfAttentionPanel> m_panel;
};

void TestSelfAttentionPanel::init()
{
    m_panel = std::make_unique<SelfAttentionPanel>();
    m_panel->resize(1200, 900);
    m_panel->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_panel.get()));
    m_panel->controls()->setSentence(QStringLiteral("I love AI"));
    m_panel->controls()->setSource(Source::Random);
    m_panel->controls()->setPredictFirst(true);
}

void TestSelfAttentionPanel::predictionRejectsBadRow_data()
{
    QTest::addColumn<QStringList>("loveRow");
    QTest::addColumn<QString>("expected");
    QTest::newRow("sums to 0.90") << QStringList{"0.5", "0.3", "0.1"} << QString("sums to 0.90");
    QTest::newRow("sums to 1.20") << QStringList{"0.5", "0.5", "0.2"} << QString("sums to 1.20");
    QTest::newRow("empty row") << QStringList{"", "", ""} << QString("sums to 0.00");
    QTest::newRow("not a number") << QStringList{"half", "0.5", ""} << QString("is not a number");
    QTest::newRow("above one") << QStringList{"1.5", "-0.5", ""} << QString("outside 0…1");
}

void TestSelfAttentionPanel::predictionRejectsBadRow()
{
    QFETCH(QStringList, loveRow);
    QFETCH(QString, expected);
    PredictionTable *table = m_panel->predictionTable();
    QCOMPARE(table->tokens(), (QStringList{"I", "love", "AI"}));
    fillGuesses(table, {{"1/3", "1/3", "1/3"}, loveRow, {"0", "0.25", "0.75"}});
    QTest::mouseClick(m_panel->revealButton(), Qt::LeftButton);

    QVERIFY(!m_panel->isRevealed());
    QVERIFY(table->isMessageShown());
    QVERIFY(table->findChild<QLabel *>(QStringLiteral("predictionMessage"))->isVisible());
    QVERIFY2(table->message().contains(QStringLiteral("“love”")), qPrintable(table->message()));
    QVERIFY2(table->message().contains(expected), qPrintable(table->message()));
    QCOMPARE(table->guessTable()->currentRow(), 1);
    QVERIFY(!table->hasDifferences());
    QCOMPARE(m_panel->heatmap()->rows(), 0);  // still hidden
    QCOMPARE(m_panel->arrows()->wordCount(), 0);
}

void TestSelfAttentionPanel::validPredictionRevealsAndShowsDifferences()
{
    PredictionTable *table = m_panel->predictionTable();
    const QList<QStringList> guesses = {{"1/3", "1/3", "1/3"}, {"0.2", "0.5", "0.3"}, {"", QLocale().toString(0.25), "0.75"}};  // the user's own decimal mark
    const double values[3][3] = {{1.0 / 3, 1.0 / 3, 1.0 / 3}, {0.2, 0.5, 0.3}, {0, 0.25, 0.75}};
    fillGuesses(table, guesses);
    QTest::mouseClick(m_panel->revealButton(), Qt::LeftButton);

    QVERIFY2(m_panel->isRevealed(), qPrintable(table->message()));
    QVERIFY(!table->isMessageShown());
    QVERIFY(table->hasDifferences());
    QVERIFY(table->differenceTable()->isVisible());
    const Matrix &weights = m_panel->result().weights;
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) {
            const double expected = weights.at(r, c) - values[r][c];
            QVERIFY(std::abs(table->difference(r, c) - expected) < 1e-12);
            const QString shown = table->differenceTable()->item(r, c)->text();
            QVERIFY2(std::abs(QLocale().toDouble(shown.startsWith('+') ? shown.mid(1) : shown) - expected) <= 0.005,
                     qPrintable(shown));
        }
    }
    // The pictures now show the computed weights.
    QCOMPARE(m_panel->heatmap()->rows(), 3);
    QCOMPARE(m_panel->heatmap()->weight(1, 2), float(weights.at(1, 2)));
    QCOMPARE(m_panel->arrows()->wordCount(), 3);
    QCOMPARE(m_panel->arrows()->weight(2, 0), float(weights.at(2, 0)));

    // Editing a guess makes the differences stale.
    table->setGuess(0, 0, QStringLiteral("0.5"));
    QVERIFY(!table->hasDifferences());
}

void TestSelfAttentionPanel::rowSumColumnFollowsTyping()
{
    PredictionTable *table = m_panel->predictionTable();
    fillGuesses(table, {{"0.5", "0.25", ""}});
    QCOMPARE(table->guessTable()->item(0, 3)->text(), QLocale().toString(0.75, 'f', 2));
    table->setGuess(0, 2, QStringLiteral("x"));
    QCOMPARE(table->guessTable()->item(0, 3)->text(), QStringLiteral("?"));
}

void TestSelfAttentionPanel::changedInputHidesWeightsAgain()
{
    m_panel->revealWithoutPrediction();
    QVERIFY(m_panel->isRevealed());
    const std::vector<double> before = m_panel->result().weights.values;
    m_panel->controls()->setSeed(m_panel->controls()->seed() + 1);
    QVERIFY(!m_panel->isRevealed());
    QVERIFY(m_panel->result().weights.values != before);
    QCOMPARE(m_panel->heatmap()->rows(), 0);

    // Without "predict first" the weights are always on show.
    m_panel->controls()->setPredictFirst(false);
    QVERIFY(m_panel->isRevealed());
    m_panel->controls()->setDK(m_panel->controls()->dK() == 3 ? 4 : 3);
    QVERIFY(m_panel->isRevealed());
    QCOMPARE(m_panel->heatmap()->rows(), 3);
}

void TestSelfAttentionPanel::stepsShowResultsOnlyOnceRevealed()
{
    const auto table = [this](const char *name) { return m_panel->findChild<MatrixTable *>(name); };
    const ScaledDotProductAttention &a = m_panel->result();
    QCOMPARE(table("matrixQ")->rowCount(), 3);
    QCOMPARE(table("matrixQ")->value(2, 1), a.q.at(2, 1));
    QCOMPARE(table("matrixWK")->rowCount(), m_panel->controls()->dModel());
    QCOMPARE(table("matrixWeights")->rowCount(), 0);
    QVERIFY(!table("matrixWeights")->isVisible());
    QVERIFY(m_panel->findChild<QLabel *>("matrixScoresTitle")->text().contains("√3"));

    m_panel->revealWithoutPrediction();
    QVERIFY(table("matrixWeights")->isVisible());
    QCOMPARE(table("matrixWeights")->value(1, 2), a.weights.at(1, 2));
    QCOMPARE(table("matrixOutput")->value(0, 0), a.output.at(0, 0));

    m_panel->controls()->setDK(4);
    QVERIFY(!table("matrixWeights")->isVisible());
    QVERIFY(m_panel->findChild<QLabel *>("matrixScoresTitle")->text().contains("√4"));
    m_panel->controls()->setSentence(QString());
    QCOMPARE(table("matrixQ")->rowCount(), 0);
}

void TestSelfAttentionPanel::badInputShowsMessage_data()
{
    QTest::addColumn<QString>("sentence");
    QTest::addColumn<bool>("trained");
    QTest::addColumn<QString>("expected");
    QTest::newRow("empty") << QString("   ") << false << QString("Type a sentence");
    QTest::newRow("too long") << QString("one two three four five six seven eight nine") << false
                              << QString("at most %1 words").arg(SelfAttentionPanel::kMaxWords);
    QTest::newRow("trained without model") << QString("I love AI") << true << QString("no trained embeddings");
}

void TestSelfAttentionPanel::badInputShowsMessage()
{
    QFETCH(QString, sentence);
    QFETCH(bool, trained);
    QFETCH(QString, expected);
    m_panel->controls()->setSentence(sentence);
    m_panel->controls()->setSource(trained ? Source::Trained : Source::Random);
    QVERIFY(!m_panel->hasResult());
    QVERIFY2(m_panel->inputMessage().contains(expected), qPrintable(m_panel->inputMessage()));
    QVERIFY(m_panel->findChild<QLabel *>(QStringLiteral("selfAttentionMessage"))->isVisible());
    QVERIFY(!m_panel->revealButton()->isEnabled());

    m_panel->controls()->setSource(Source::Random);
    m_panel->controls()->setSentence(QStringLiteral("I love AI"));
    QVERIFY(m_panel->hasResult());
    QVERIFY(m_panel->inputMessage().isEmpty());
}

void TestSelfAttentionPanel::trainedEmbeddingsUseUnknownRow()
{
    // Trained embeddings as another lab shares them: a table of words, <UNK> among them.
    EmbeddingTable table;
    table.words = {"<PAD>", "<UNK>", "cat", "dog", "sun", "moon"};
    table.dimensions = 12;
    std::mt19937 random(5);
    std::normal_distribution<float> normal;
    for (std::size_t i = 0; i < table.words.size() * 12; ++i)
        table.values.push_back(normal(random));
    SharedEmbeddings shared;
    shared.source = &table;
    shared.table = [&table] { return table; };
    shared.description = QStringLiteral("the test embeddings");
    m_panel->setEmbeddings(shared);
    m_panel->controls()->setSource(Source::Trained);
    m_panel->controls()->setDModel(5);
    m_panel->controls()->setSentence(QStringLiteral("cat zebra cat"));
    QVERIFY2(m_panel->hasResult(), qPrintable(m_panel->inputMessage()));
    QCOMPARE(m_panel->tokens(), (QStringList{"cat", "zebra*", "cat"}));

    const EmbeddingTable projected = SelfAttentionInputs::projectEmbeddings(table, 5);
    const auto rowOf = [&](const std::string &word) {
        const auto it = std::find(projected.words.begin(), projected.words.end(), word);
        return int(it - projected.words.begin());
    };
    const Matrix &x = m_panel->result().x;
    QCOMPARE(x.columns, 5);
    for (int c = 0; c < 5; ++c) {
        QCOMPARE(x.at(0, c), double(projected.values[std::size_t(rowOf("cat") * 5 + c)]));
        QCOMPARE(x.at(1, c), double(projected.values[std::size_t(rowOf("<UNK>") * 5 + c)]));
    }
    QCOMPARE(m_panel->result().wq.rows, 5);
    QCOMPARE(m_panel->result().wq.columns, m_panel->controls()->dK());
}

void TestSelfAttentionPanel::exportWritesPngOfRequestedSize_data()
{
    QTest::addColumn<bool>("heatmap");
    QTest::addColumn<QSize>("size");
    QTest::newRow("heatmap 640x480") << true << QSize(640, 480);
    QTest::newRow("heatmap 1200x900") << true << QSize(1200, 900);
    QTest::newRow("arrows 640x480") << false << QSize(640, 480);
    QTest::newRow("arrows 1000x1400") << false << QSize(1000, 1400);
}

void TestSelfAttentionPanel::exportWritesPngOfRequestedSize()
{
    QFETCH(bool, heatmap);
    QFETCH(QSize, size);
    const QString path = m_dir.filePath(QStringLiteral("%1-%2x%3.png").arg(heatmap).arg(size.width()).arg(size.height()));
    const auto write = [&](QString *error) {
        return heatmap ? m_panel->exportHeatmap(path, size.width(), size.height(), error)
                       : m_panel->exportArrows(path, size.width(), size.height(), error);
    };
    QString error;
    QVERIFY(!write(&error));  // hidden weights are not exported
    QVERIFY(error.contains(QStringLiteral("Reveal")));
    QVERIFY(!QFile::exists(path));

    m_panel->revealWithoutPrediction();
    QVERIFY2(write(&error), qPrintable(error));
    QImageReader reader(path);
    QCOMPARE(reader.format(), QByteArray("png"));
    const QImage image = reader.read();
    QCOMPARE(image.size(), size);
    // Not a blank page: the drawing uses more than a handful of colours.
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7)
            colours.insert(image.pixel(x, y));
    QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));

    QVERIFY(!(heatmap ? m_panel->exportHeatmap(m_dir.filePath("a.gif"), 100, 100, &error)
                      : m_panel->exportArrows(m_dir.filePath("a.gif"), 100, 100, &error)));
    QVERIFY(error.contains(QStringLiteral(".gif")));
}

void TestSelfAttentionPanel::exportWritesVectorDrawings_data()
{
    QTest::addColumn<bool>("heatmap");
    QTest::addColumn<QString>("suffix");
    QTest::newRow("heatmap svg") << true << QStringLiteral("svg");
    QTest::newRow("heatmap pdf") << true << QStringLiteral("pdf");
    QTest::newRow("arrows svg") << false << QStringLiteral("svg");
    QTest::newRow("arrows pdf") << false << QStringLiteral("pdf");
}

void TestSelfAttentionPanel::exportWritesVectorDrawings()
{
    QFETCH(bool, heatmap);
    QFETCH(QString, suffix);
    m_panel->revealWithoutPrediction();
    const QString path = m_dir.filePath(QStringLiteral("drawing.") + suffix);
    QString error;
    QVERIFY2(heatmap ? m_panel->exportHeatmap(path, 640, 480, &error) : m_panel->exportArrows(path, 640, 480, &error),
             qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    if (suffix == QLatin1String("pdf")) {
        QVERIFY(bytes.startsWith("%PDF"));
        return;
    }
    // A drawing people can edit: the input words stay text.
    QVERIFY(bytes.contains("<svg"));
    QVERIFY(bytes.contains("viewBox=\"0 0 640 480\""));
    for (const QString &word : m_panel->tokens())
        QVERIFY2(bytes.contains(word.toUtf8()), qPrintable(word));
}

void TestSelfAttentionPanel::clickingWordSelectsItsArrows()
{
    m_panel->revealWithoutPrediction();
    AttentionArrows *arrows = m_panel->arrows();
    QSignalSpy spy(arrows, &AttentionArrows::querySelected);
    QTest::mouseClick(arrows, Qt::LeftButton, {}, arrows->wordCentre(1).toPoint());
    QCOMPARE(arrows->selectedQuery(), 1);
    QCOMPARE(spy.count(), 1);
    QTest::mouseClick(arrows, Qt::LeftButton, {}, arrows->wordCentre(1).toPoint());
    QCOMPARE(arrows->selectedQuery(), -1);
    QVERIFY(AttentionArrows::strokeWidth(0.8) > AttentionArrows::strokeWidth(0.2));
    QVERIFY(AttentionArrows::strokeWidth(0) > 0);
}

void TestSelfAttentionPanel::arrowsFollowADarkPalette()
{
    m_panel->revealWithoutPrediction();
    AttentionArrows *arrows = m_panel->arrows();
    const auto corner = [arrows] { return arrows->grab().toImage().pixelColor(2, 2); };
    QVERIFY(corner().lightness() > 200);
    QPalette dark = arrows->palette();
    dark.setColor(QPalette::Base, QColor(30, 30, 32));
    dark.setColor(QPalette::Text, QColor(235, 235, 235));
    arrows->setPalette(dark);
    QCOMPARE(corner(), QColor(30, 30, 32));
}

void TestSelfAttentionPanel::settingsRoundTrip()
{
    QSettings settings(m_dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
    m_panel->controls()->setSentence(QStringLiteral("the cat sat"));
    m_panel->controls()->setDModel(6);
    m_panel->controls()->setDK(5);
    m_panel->controls()->setSeed(77);
    m_panel->controls()->setPredictFirst(false);
    m_panel->controls()->setSource(Source::Trained);
    m_panel->controls()->setPositions(true);
    m_panel->saveSettings(settings);

    SelfAttentionPanel restored;
    restored.restoreSettings(settings);
    QCOMPARE(restored.controls()->sentence(), QStringLiteral("the cat sat"));
    QCOMPARE(restored.controls()->dModel(), 6);
    QCOMPARE(restored.controls()->dK(), 5);
    QCOMPARE(restored.controls()->seed(), 77);
    QCOMPARE(restored.controls()->predictFirst(), false);
    QCOMPARE(restored.controls()->source(), Source::Trained);
    QCOMPARE(restored.controls()->positions(), true);
}

// The answers are hidden with the weights, and name for each word the key its row weights most.
void TestSelfAttentionPanel::reflectionAnswersFromTheShownWeights()
{
    ReflectionBox *box = m_panel->reflection();
    QVERIFY(!box->isVisible());
    m_panel->revealWithoutPrediction();
    QVERIFY(box->isVisible());
    const Matrix &w = m_panel->result().weights;
    const QStringList words = {"I", "love", "AI"};
    for (int i = 0; i < 3; ++i) {
        int strongest = 0;
        for (int j = 1; j < 3; ++j)
            if (w.at(i, j) > w.at(i, strongest))
                strongest = j;
        const QString answer = QStringLiteral("“%1” → “%2” (%3)")
                                   .arg(words[i], words[strongest], QLocale().toString(w.at(i, strongest), 'f', 2));
        QVERIFY2(box->answersText().contains(answer), qPrintable(answer + "\n" + box->answersText()));
    }
    QVERIFY(box->answersText().contains("Symmetric?"));

    // The course sentence's words come tagged; a click moves a word to the next part.
    QCOMPARE(box->tag(0), PartOfSpeech::Pronoun);
    QCOMPARE(box->tag(1), PartOfSpeech::Verb);
    QCOMPARE(box->tag(2), PartOfSpeech::Noun);
    QVERIFY(box->partsText().contains("pronoun"));
    QVERIFY(box->partsText().contains("Verbs"));
    QTest::mouseClick(box->findChild<QToolButton *>(QStringLiteral("tag0")), Qt::LeftButton);
    QCOMPARE(box->tag(0), PartOfSpeech::Verb);
    QVERIFY(!box->partsText().contains("pronoun"));

    // A new seed keeps the tags; new words take the course's tags again.
    m_panel->controls()->setSeed(m_panel->controls()->seed() + 1);
    m_panel->revealWithoutPrediction();
    QCOMPARE(box->tag(0), PartOfSpeech::Verb);
    m_panel->controls()->setSentence(QStringLiteral("Birds can fly"));
    QVERIFY(!box->isVisible());
    m_panel->revealWithoutPrediction();
    QCOMPARE(box->tag(0), PartOfSpeech::Noun);
}

void TestSelfAttentionPanel::reflectionComparesAnotherSentence()
{
    m_panel->revealWithoutPrediction();
    ReflectionBox *box = m_panel->reflection();
    QLineEdit *other = box->comparisonEdit();
    other->setText(QStringLiteral("AI love I"));
    QVERIFY2(box->comparisonText().contains("permuted"), qPrintable(box->comparisonText()));

    other->setText(QStringLiteral("I love AI deeply"));
    QVERIFY2(box->comparisonText().contains("New words: “deeply”"), qPrintable(box->comparisonText()));
    QVERIFY(box->comparisonText().contains("the scores do not change"));

    other->setText(QStringLiteral("one two three four five six seven eight nine"));
    QVERIFY2(box->comparisonText().contains("at most 8 words"), qPrintable(box->comparisonText()));

    // With positions the reordered sentence no longer gives the permuted matrix.
    m_panel->controls()->setPositions(true);
    m_panel->revealWithoutPrediction();
    other->setText(QStringLiteral("AI love I"));
    QVERIFY2(box->comparisonText().contains("with positions the weights change"), qPrintable(box->comparisonText()));
}

ATTNSCOPE_TEST(selfattentionpanel, TestSelfAttentionPanel)
#include "tst_selfattentionpanel.moc"
