#include "tests/common/testregistry.h"
#include "app/workbench/trainingcontroller.h"
#include "engine/word2vec/wordcorpus.h"
#include "engine/word2vec/wordvectors.h"
#include "tests/common/workbenchfixture.h"
#include "ui/workbench/workbenchfiles.h"
#include "ui/workbench/document.h"
#include "ui/core/lossplot.h"
#include "ui/word2vec/corpuspanel.h"
#include "ui/word2vec/noisechart.h"
#include "ui/word2vec/word2veclab.h"
#include "ui/word2vec/wordexplorer.h"
#include "ui/word2vec/wordmapplot.h"
#include "ui/workbench/mainwindow.h"

#include <QAction>
#include <QDockWidget>
#include <QSettings>
#include <QSpinBox>
#include <QTabWidget>
#include <QTest>
#include <QTreeWidget>

// The word-embedding lab in the window, trained through the real worker: the map, the
// neighbours, analogies, Stop, the corpus preview, exports and settings.
class TestWord2VecLab : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void trainsAndExploresTheBuiltInCorpus();
    void stopEndsTrainingEarly();
    void previewFollowsPastedText();
    void binaryFileIsRefusedWithItsReason();
    void vectorsFilesOpenAndExport();
    void docksFollowTheTab();
    void settingsPersist();

private:
    void setField(const char *key, int value);
    void trainAndWait();

    QTemporaryDir m_dir;
    MainWindow *m_window = nullptr;
    TrainingController *m_controller = nullptr;
    Word2VecLab *m_lab = nullptr;
};

void TestWord2VecLab::initTestCase()
{
    useTestSettings(QStringLiteral("tst_word2veclab"));
    QVERIFY(m_dir.isValid());
}

void TestWord2VecLab::init()
{
    m_window = shownWorkbench(QStringLiteral("word2vec"));
    m_controller = new TrainingController(m_window);
    m_lab = m_window->lab<Word2VecLab>();
    QVERIFY(m_lab);
    QCOMPARE(m_window->shownLab(), m_lab);
}

void TestWord2VecLab::cleanup()
{
    delete m_controller;
    delete m_window;
}

void TestWord2VecLab::setField(const char *key, int value)
{
    auto *box = m_lab->corpusPanel()->findChild<QSpinBox *>(QString::fromLatin1(key));
    QVERIFY2(box, key);
    box->setValue(value);
}

void TestWord2VecLab::trainAndWait()
{
    QVERIFY(m_lab->trainProblem().isEmpty());
    m_window->train();
    QVERIFY(m_window->runState()->isTraining());
    QTRY_VERIFY_WITH_TIMEOUT(m_window->runState()->isQuiet(), 60000);
}

void TestWord2VecLab::trainsAndExploresTheBuiltInCorpus()
{
    setField("epochs", 30);
    trainAndWait();
    QVERIFY(m_lab->vectors());
    QCOMPARE(m_lab->map()->wordCount(), m_lab->vectors()->size());
    QCOMPARE(m_lab->vectors()->size(), m_lab->corpusPanel()->corpus()->vocabularySize());
    QVERIFY(m_lab->lossPlot()->batchPointCount() > 0);
    QVERIFY(m_lab->noiseChart()->noiseBars()->data()->size() > 0);

    // Finding a word selects it, lists its neighbours and rings them on the map.
    m_lab->findWord(QStringLiteral("Cat"));
    const int cat = m_lab->map()->selectedWord();
    QCOMPARE(m_lab->map()->word(cat), QStringLiteral("cat"));
    QTreeWidget *list = m_lab->explorer()->neighbourList();
    QCOMPARE(list->topLevelItemCount(), WordExplorer::kNeighbours);
    QCOMPARE(m_lab->map()->neighbours().size(), std::size_t(WordExplorer::kNeighbours));
    QCOMPARE(m_lab->map()->word(m_lab->map()->neighbours().front().index), list->topLevelItem(0)->text(0));
    QVERIFY(list->topLevelItem(0)->text(1).toDouble() >= list->topLevelItem(1)->text(1).toDouble());
    QCOMPARE(m_lab->map()->trailLength(QStringLiteral("cat")), 1);

    // Analogies answer, and name the words they do not know.
    m_lab->explorer()->setAnalogy(QStringLiteral("man"), QStringLiteral("king"), QStringLiteral("woman"));
    m_lab->explorer()->solveAnalogy();
    QCOMPARE(m_lab->explorer()->answerList()->topLevelItemCount(), WordExplorer::kAnswers);
    m_lab->explorer()->setAnalogy(QStringLiteral("man"), QStringLiteral("unicorn"), QStringLiteral("woman"));
    m_lab->explorer()->solveAnalogy();
    QCOMPARE(m_lab->explorer()->answerList()->topLevelItemCount(), 0);
    QVERIFY(m_lab->explorer()->analogyMessage().contains(QStringLiteral("\"unicorn\"")));

    // A second run extends the trail of the followed word with each refresh.
    m_lab->findWord(QStringLiteral("cat"));
    setField("epochs", 300);
    m_window->train();
    QTRY_VERIFY_WITH_TIMEOUT(m_window->runState()->isQuiet(), 60000);
    m_lab->findWord(QStringLiteral("cat"));
    QVERIFY(m_lab->map()->trailLength(QStringLiteral("cat")) >= 2);
}

void TestWord2VecLab::stopEndsTrainingEarly()
{
    setField("epochs", 10000);
    m_window->train();
    QTRY_VERIFY_WITH_TIMEOUT(m_lab->vectors() != nullptr, 20000);
    m_window->stop();
    QTRY_VERIFY_WITH_TIMEOUT(m_window->runState()->isQuiet(), 20000);
    QVERIFY(m_lab->map()->wordCount() > 0);  // the last vectors stay to explore
}

void TestWord2VecLab::previewFollowsPastedText()
{
    CorpusPanel *panel = m_lab->corpusPanel();
    panel->setSource(CorpusPanel::Source::Pasted);
    const std::string text = "The cat sat on the mat.\nThe dog sat on the log!\n";
    panel->setPastedText(QString::fromStdString(text));
    QVERIFY(panel->corpus());
    const CorpusPreview expected = previewCorpus(buildWordCorpus(text, panel->corpusConfig()), panel->corpusConfig(), panel->config());
    QCOMPARE(expected.rawTokens, int64_t(12));
    QVERIFY2(panel->previewText().startsWith(QStringLiteral("12 words, 7 distinct; 7 in the vocabulary")),
             qPrintable(panel->previewText()));
    // Seven words cannot fill 50 dimensions: the preview warns, and Train says why it cannot start.
    QVERIFY2(panel->warningText().contains(QStringLiteral("fewer than the 50 dimensions")), qPrintable(panel->warningText()));
    QVERIFY(m_lab->trainProblem().contains(QStringLiteral("fewer distinct words")));
    setField("dim", 5);
    QVERIFY(m_lab->trainProblem().isEmpty());
}

void TestWord2VecLab::binaryFileIsRefusedWithItsReason()
{
    QFile file(m_dir.filePath("image.bin"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16).repeated(40));
    file.close();
    m_lab->corpusPanel()->setFile(file.fileName());
    QVERIFY(!m_lab->corpusPanel()->corpus());
    QVERIFY2(m_lab->trainProblem().contains(QStringLiteral("binary")), qPrintable(m_lab->trainProblem()));
    QVERIFY(m_lab->corpusPanel()->previewText().contains(QStringLiteral("binary")));
    m_window->train();
    QVERIFY(!m_window->runState()->isTraining());
    m_lab->corpusPanel()->setFile(m_dir.filePath("missing.txt"));
    QVERIFY(m_lab->trainProblem().contains(QStringLiteral("missing.txt")));
}

void TestWord2VecLab::vectorsFilesOpenAndExport()
{
    QString error;
    const QString bad = m_dir.filePath("bad.vec");
    QFile badFile(bad);
    QVERIFY(badFile.open(QIODevice::WriteOnly));
    badFile.write("2 3\ncat 1 2 3\ndog 1 2\n");
    badFile.close();
    QVERIFY(!m_window->files()->openFile(bad, &error));
    QVERIFY2(error.contains(QStringLiteral("line 3")), qPrintable(error));
    QVERIFY(!m_lab->vectors());

    QAction *exportMap = m_lab->exportActions().front();
    QVERIFY(!exportMap->isEnabled());  // nothing to export before there are vectors
    setField("epochs", 10);
    trainAndWait();
    QVERIFY(exportMap->isEnabled());
    const QString path = m_dir.filePath("vectors.txt");
    QVERIFY(m_window->document(m_lab)->isModified());
    QVERIFY2(m_window->document(m_lab)->saveFile(path, &error), qPrintable(error));
    QVERIFY(!m_window->document(m_lab)->isModified());
    const WordVectors back = readWord2VecText(path.toStdString());
    QCOMPARE(back.words, m_lab->vectors()->words);
    QCOMPARE(back.values, m_lab->vectors()->values);
    // The binary format that word2vec and gensim also write holds the same numbers.
    const QString binary = m_dir.filePath("vectors.bin");
    QVERIFY2(m_window->document(m_lab)->saveFile(binary, &error), qPrintable(error));
    QCOMPARE(m_window->document(m_lab)->currentType().suffixes, QStringList{QStringLiteral("bin")});
    const WordVectors fromBinary = readWord2Vec(binary.toStdString());
    QCOMPARE(fromBinary.words, back.words);
    QCOMPARE(fromBinary.values, back.values);

    QVERIFY2(m_lab->exportMapCsv(m_dir.filePath("map.csv"), &error), qPrintable(error));
    QFile csv(m_dir.filePath("map.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QList<QByteArray> rows = csv.readAll().split('\n');
    QCOMPARE(rows.front(), QByteArray("word,count,pc1,pc2"));
    QVERIFY(rows.at(1).startsWith("the,"));
    QVERIFY2(m_lab->exportNeighboursCsv(m_dir.filePath("neighbours.csv"), &error), qPrintable(error));
    QVERIFY2(m_lab->map()->exportImage(m_dir.filePath("map.svg"), 800, 600, &error), qPrintable(error));
    QVERIFY2(m_lab->noiseChart()->exportImage(m_dir.filePath("noise.svg"), 600, 300, &error), qPrintable(error));
    QFile noise(m_dir.filePath("noise.svg"));
    QVERIFY(noise.open(QIODevice::ReadOnly));
    QVERIFY(noise.readAll().contains("Noise words"));

    // A file from elsewhere (here, the one just written) opens into the same views.
    QVERIFY2(m_window->files()->openFile(path, &error), qPrintable(error));
    QCOMPARE(m_lab->map()->wordCount(), back.size());
    m_lab->findWord(QStringLiteral("dog"));
    QCOMPARE(m_lab->explorer()->neighbourList()->topLevelItemCount(), WordExplorer::kNeighbours);
}

void TestWord2VecLab::docksFollowTheTab()
{
    auto *setup = m_window->findChild<QDockWidget *>(QStringLiteral("word2vecSetupDock"));
    QVERIFY(setup);
    QTRY_VERIFY(setup->isVisible());
    m_window->showLab(m_window->labs().front());  // the attention lab
    QTRY_VERIFY(!setup->isVisible());
    m_window->showLab(m_lab);
    QTRY_VERIFY(setup->isVisible());
}

void TestWord2VecLab::settingsPersist()
{
    m_lab->corpusPanel()->setSource(CorpusPanel::Source::Pasted);
    m_lab->corpusPanel()->setPastedText(QStringLiteral("alpha beta gamma\n"));
    setField("dim", 17);
    MainWindow *other = shownWorkbench();  // clears the settings first
    auto *lab = other->lab<Word2VecLab>();
    QSettings settings;
    m_lab->saveSettings(settings);
    lab->restoreSettings(settings);
    QCOMPARE(lab->corpusPanel()->config().dimensions, 17);
    QVERIFY(lab->corpusPanel()->previewText().startsWith(QStringLiteral("3 words")));
    delete other;
}

ATTNSCOPE_TEST(word2veclab, TestWord2VecLab)
#include "tst_word2veclab.moc"
