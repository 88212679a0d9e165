#include "tests/common/testregistry.h"
#include "tests/common/testregistry.h"
#include "app/workbench/trainingcontroller.h"
#include "engine/attention/projectfile.h"
#include "engine/attention/seq2seqmodel.h"
#include "engine/charlm/charcheckpoint.h"
#include "engine/word2vec/wordvectors.h"
#include "tests/common/filedialoganswerer.h"
#include "tests/common/messageboxanswerer.h"
#include "tests/common/randomcharweights.h"
#include "tests/common/workbenchfixture.h"
#include "ui/attention/attentionlab.h"
#include "ui/charlm/charlmlab.h"
#include "ui/core/guidepane.h"
#include "ui/selfattention/selfattentionlab.h"
#include "ui/word2vec/word2veclab.h"
#include "ui/workbench/document.h"
#include "ui/workbench/labswitcher.h"
#include "ui/workbench/startpage.h"
#include "ui/workbench/workbenchfiles.h"

#include <QDockWidget>
#include <QMenu>
#include <QMimeData>
#include <QPixmap>
#include <QPushButton>
#include <QSvgRenderer>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QToolBar>
#include <QtTest>

#include <stdexcept>

namespace {

// Generous: the opened model's evaluation and faithfulness run on the worker, slower under ctest -j2.
constexpr int kOpenedModelMeasuredMs = 60000;

struct Probe {
    int value = 0;
};

// A lab that only runs the jobs it is given and notes what reaches it.
class ProbeLab : public Lab
{
public:
    explicit ProbeLab(Workbench *workbench) : Lab(workbench), m_page(new QWidget) { onResult(&ProbeLab::take); }
    QList<LabPage> pages() const override { return {{QStringLiteral("&Probe"), m_page}}; }
    void saveSettings(QSettings &) const override {}
    void restoreSettings(QSettings &) override {}
    void jobStarted(const QString &description) override { started << description; }
    void jobBatch(const BatchProgress &progress) override { batches << progress.batch; }
    void jobFailed(const QString &message) override { failures << message; }
    void run(LabJob job) { submit(std::move(job), RunState::Phase::Training); }

    QStringList started;
    QList<int> batches;
    QList<int> values;
    QStringList failures;

private:
    void take(const Probe &probe) { values << probe.value; }
    QWidget *m_page;
};

QString sourceFile(const char *path)
{
    return QStringLiteral(ATTNSCOPE_SOURCE_DIR "/") + QLatin1String(path);
}

}

// The window as a workbench of labs: one lab at a time from the switcher or the start page, the
// File menu and Ctrl+S on the shown lab's document, files opened in the lab their first bytes name,
// the registry's labs complete, and a job's reports reaching only the lab that submitted it.
class TestWorkbench : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanup();

    void everyRegisteredLabIsComplete();
    void fileTypesTellEachOthersFilesApart();
    void firstLaunchShowsTheStartPageThenTheLastLab();
    void everyLabIsOneClickAwayWithItsOwnDocks();
    void menusAndToolbarFollowTheShownLab();
    void f1ShowsTheShownLabsGuide();
    void ctrlSSavesTheShownLabsDocument_data();
    void ctrlSSavesTheShownLabsDocument();
    void saveAsAsksWhereForNewResults();
    void aFileOpensInItsLab();
    void aDroppedProjectOpensInTheAttentionLab();
    void quittingListsEveryLabWithUnsavedWork();
    void reportsReachOnlyTheLabThatSubmitted();

private:
    MainWindow *shown(const QString &labId = QStringLiteral("attention"));
    QString attentionModel();
    QString characterModel();
    QString vectorsFile(const QString &name);
    QString project();

    QTemporaryDir m_dir;
    MainWindow *m_window = nullptr;
};

void TestWorkbench::initTestCase()
{
    useTestSettings(QStringLiteral("tst_workbench"));
    QVERIFY(m_dir.isValid());
}

void TestWorkbench::cleanup()
{
    delete m_window;
    m_window = nullptr;
}

MainWindow *TestWorkbench::shown(const QString &labId)
{
    m_window = shownWorkbench(labId);
    m_window->resize(1280, 720);
    return m_window;
}

QString TestWorkbench::attentionModel()
{
    const QString path = m_dir.filePath(QStringLiteral("attention.ckpt"));
    QFile::remove(path);
    return QFile::copy(sourceFile("resources/models/default.ckpt"), path) ? path : QString();
}

QString TestWorkbench::characterModel()
{
    const QString path = m_dir.filePath(QStringLiteral("character.ckpt"));
    CharModelConfig config;
    config.hidden = 8;
    saveCharCheckpoint(QFile::encodeName(path).toStdString(),
                       CharCheckpoint{randomCharWeights(config, U"\n abc", 3), CharTrainingConfig{}, {}});
    return path;
}

QString TestWorkbench::vectorsFile(const QString &name)
{
    WordVectors vectors;
    vectors.words = {"cat", "dog", "fish"};
    vectors.dimensions = 2;
    vectors.values = {0.5f, -1, 0.25f, 2, -0.75f, 1};
    const QString path = m_dir.filePath(name);
    const bool binary = name.endsWith(QLatin1String(".bin"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {};
    file.write(QByteArray::fromStdString(binary ? formatWord2VecBinary(vectors) : formatWord2VecText(vectors)));
    return path;
}

QString TestWorkbench::project()
{
    AttentionProject p;
    p.best = std::make_shared<const Seq2SeqModel>(
        Seq2SeqModel::load(QFile::encodeName(sourceFile("resources/models/default.ckpt")).toStdString()));
    p.dataset = p.best->datasetConfig;
    p.model = p.best->config();
    p.sentence = "the cat sat on the mat";
    const QString path = m_dir.filePath(QStringLiteral("run.attnscope"));
    projectfile::save(p, QFile::encodeName(path).toStdString());
    return path;
}

void TestWorkbench::everyRegisteredLabIsComplete()
{
    QSet<QString> ids, guides;
    QMultiHash<QString, QString> commands;  // name -> architecture
    MainWindow *window = shown();
    for (const LabModule &module : labModules()) {
        const LabInfo &info = module.info;
        QVERIFY2(!ids.contains(info.id), qPrintable(info.id));
        ids << info.id;
        QVERIFY(!info.name.isEmpty() && !info.switcherName.isEmpty() && info.summary.endsWith(QLatin1Char('.')));
        QVERIFY2(QSvgRenderer(info.resource(QStringLiteral("icon.svg"))).isValid(), qPrintable(info.id));
        QVERIFY2(!QPixmap(info.resource(QStringLiteral("picture.png"))).isNull(), qPrintable(info.id));
        const QString guide = GuidePane::read(info.resource(QStringLiteral("guide.md")));
        QVERIFY2(guide.startsWith(QStringLiteral("# ")), qPrintable(info.id));
        guides << guide;
        for (const FileType &type : info.fileTypes)
            QVERIFY(!type.description.isEmpty() && !type.suffixes.isEmpty() && type.recognises);
        for (const Command &command : module.commands) {
            // A name two labs share is told apart by --architecture: each has one, and they differ.
            const QString name = QString::fromStdString(command.name);
            const QString architecture = QString::fromStdString(command.architecture);
            QVERIFY2(!commands.contains(name) || (!architecture.isEmpty() && !commands.values(name).contains(architecture)
                                                  && !commands.values(name).contains(QString())),
                     command.name.c_str());
            commands.insert(name, architecture);
            QVERIFY2(command.usage.rfind("attnscope " + command.name, 0) == 0, command.name.c_str());
            QVERIFY2(command.help().find(command.usage.substr(0, command.usage.find(' ', 10))) != std::string::npos,
                     command.name.c_str());
            QVERIFY(command.run && !command.summary.empty());
        }
        Lab *lab = window->labs().at(int(ids.size()) - 1);
        QCOMPARE(window->infoOf(lab)->id, info.id);
        QVERIFY(!lab->pages().isEmpty());
        QCOMPARE(window->document(lab) != nullptr, !info.fileTypes.isEmpty());
    }
    QCOMPARE(guides.size(), ids.size());
    QCOMPARE(window->labs().size(), int(labModules().size()));
}

void TestWorkbench::fileTypesTellEachOthersFilesApart()
{
    const QList<QPair<QString, QString>> files = {{attentionModel(), QStringLiteral("attention/ckpt")},
                                                  {project(), QStringLiteral("attention/attnscope")},
                                                  {characterModel(), QStringLiteral("charlm/ckpt")},
                                                  {vectorsFile(QStringLiteral("v.txt")), QStringLiteral("word2vec/txt")},
                                                  {vectorsFile(QStringLiteral("v.bin")), QStringLiteral("word2vec/bin")}};
    MainWindow *window = shown();
    for (const auto &[path, expected] : files) {
        QVERIFY(!path.isEmpty());
        const FileType *type = nullptr;
        QString error;
        const Lab *lab = window->files()->labOf(path, &type, &error);
        QVERIFY2(lab, qPrintable(path + QStringLiteral(": ") + error));
        QCOMPARE(window->infoOf(lab)->id + QLatin1Char('/') + type->suffixes.first(), expected);
    }
    // Text that is none of them is refused with a reason, whatever its name.
    QFile notes(m_dir.filePath(QStringLiteral("notes.ckpt")));
    QVERIFY(notes.open(QIODevice::WriteOnly));
    notes.write("3 4\nthese are notes, not vectors\n");
    notes.close();
    const FileType *type = nullptr;
    QString error;
    QVERIFY(!window->files()->labOf(notes.fileName(), &type, &error));
    QVERIFY2(error.contains(QStringLiteral("not a file")), qPrintable(error));
}

void TestWorkbench::firstLaunchShowsTheStartPageThenTheLastLab()
{
    MainWindow *window = shown(QString());
    QVERIFY(window->isStartPageShown());
    QCOMPARE(window->windowTitle(), QStringLiteral("AttnScope"));
    QVERIFY(!window->trainAction()->isEnabled());
    auto *open = window->startPage()->findChild<QPushButton *>(QStringLiteral("startOpen_word2vec"));
    QVERIFY(open);
    open->click();
    QCOMPARE(window->shownLab(), window->lab<Word2VecLab>());
    QVERIFY(window->trainAction()->isEnabled());
    QVERIFY(window->close());

    MainWindow second;
    addRegisteredLabs(&second);
    QCOMPARE(second.shownLab(), second.lab<Word2VecLab>());
    second.findChild<QAction *>(QStringLiteral("startPageAction"))->trigger();
    QVERIFY(second.isStartPageShown());
}

void TestWorkbench::everyLabIsOneClickAwayWithItsOwnDocks()
{
    MainWindow *window = shown(QString());
    QVERIFY(QTest::qWaitForWindowExposed(window));
    const QList<Lab *> labs = window->labs();
    for (int i = 0; i < labs.size(); ++i) {
        QAction *entry = window->labSwitcher()->entry(i + 1);
        QVERIFY(entry && entry->isVisible());
        entry->trigger();
        QCOMPARE(window->shownLab(), labs[i]);
        QVERIFY(entry->isChecked());
        for (Lab *other : labs)
            for (const LabDock &placed : other->docks())
                QCOMPARE(!placed.dock->isHidden(), other == labs[i]);
        // The lab's pages fit their tab bar: nothing hides behind scroll arrows.
        if (auto *tabs = qobject_cast<QTabWidget *>(window->shownPage()->parentWidget()->parentWidget()))
            QVERIFY2(tabs->tabBar()->sizeHint().width() <= tabs->width(), qPrintable(window->infoOf(labs[i])->id));
        QCOMPARE(window->windowTitle().contains(window->infoOf(labs[i])->name), true);
    }
    // Ctrl+1, Ctrl+2, ... choose the labs from the keyboard.
    window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(window));
    QTest::keyClick(window, Qt::Key_2, Qt::ControlModifier);
    QCOMPARE(window->shownLab(), labs[1]);
    QTest::keyClick(window, Qt::Key_1, Qt::ControlModifier);
    QCOMPARE(window->shownLab(), labs[0]);
}

void TestWorkbench::menusAndToolbarFollowTheShownLab()
{
    MainWindow *window = shown();
    auto *labTools = window->findChild<QToolBar *>(QStringLiteral("labToolBar"));
    QVERIFY(labTools);
    for (Lab *lab : window->labs()) {
        window->showLab(lab);
        QCOMPARE(window->exportMenu()->actions(), lab->exportActions());
        QCOMPARE(labTools->actions(), lab->toolBarActions());
        const Document *document = window->document(lab);
        if (document)
            QVERIFY2(window->saveAction()->text().contains(document->documentName()), qPrintable(document->documentName()));
        else
            QVERIFY(!window->saveAction()->isEnabled());
        QVERIFY(window->openAction()->isEnabled());
        for (Lab *other : window->labs())
            for (QAction *action : other->exportActions())
                QCOMPARE(window->fileMenu()->actions().contains(action) || window->exportMenu()->actions().contains(action),
                         other == lab);
    }
}

void TestWorkbench::f1ShowsTheShownLabsGuide()
{
    MainWindow *window = shown();
    window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(window));
    GuidePane *pane = window->guidePane();
    QVERIFY(!pane->isVisible());
    QTest::keyClick(window, Qt::Key_F1);
    QVERIFY(pane->isVisible());
    for (Lab *lab : window->labs()) {
        window->showLab(lab);
        const QString guide = GuidePane::read(window->infoOf(lab)->resource(QStringLiteral("guide.md")));
        QCOMPARE(pane->guide(), guide);
        const QString title = guide.section(QLatin1Char('\n'), 0, 0).mid(2);
        QVERIFY2(pane->view()->toPlainText().startsWith(title), qPrintable(title));
    }
    QTest::keyClick(window, Qt::Key_F1);
    QVERIFY(!pane->isVisible());
}

void TestWorkbench::ctrlSSavesTheShownLabsDocument_data()
{
    QTest::addColumn<QString>("lab");
    QTest::newRow("attention") << QStringLiteral("attention");
    QTest::newRow("word embeddings") << QStringLiteral("word2vec");
    QTest::newRow("character model") << QStringLiteral("charlm");
}

// Each lab's document is opened from a file, the file goes away, and Ctrl+S on that lab writes it
// again; the other labs' documents are left alone.
void TestWorkbench::ctrlSSavesTheShownLabsDocument()
{
    QFETCH(QString, lab);
    const QString path = lab == QLatin1String("attention") ? attentionModel()
                         : lab == QLatin1String("charlm")  ? characterModel()
                                                           : vectorsFile(QStringLiteral("saved.vec"));
    MainWindow *window = shown(QStringLiteral("selfattention"));
    TrainingController controller(window);
    QString error;
    QVERIFY2(window->files()->openFile(path, &error), qPrintable(error));
    Lab *opened = window->shownLab();
    QCOMPARE(window->infoOf(opened)->id, lab);
    // The attention lab scores an opened model and measures its faithfulness: seconds on a busy machine.
    QTRY_VERIFY_WITH_TIMEOUT(window->runState()->isQuiet(), kOpenedModelMeasuredMs);
    QVERIFY(QFile::remove(path));
    window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(window));
    QTest::keyClick(window, Qt::Key_S, Qt::ControlModifier);
    QVERIFY(QFile::exists(path));
    QCOMPARE(window->document(opened)->currentFile(), path);
    QVERIFY2(window->files()->openFile(path, &error), qPrintable(error));

    // On a lab without files Ctrl+S does nothing.
    window->showLab(window->lab<SelfAttentionLab>());
    QVERIFY(!window->saveAction()->isEnabled());
    QTest::keyClick(window, Qt::Key_S, Qt::ControlModifier);
    QVERIFY(window->isVisible());
}

void TestWorkbench::saveAsAsksWhereForNewResults()
{
    MainWindow *window = shown(QStringLiteral("charlm"));
    QString error;
    QVERIFY2(window->files()->openFile(characterModel(), &error), qPrintable(error));
    Document *document = window->document(window->shownLab());
    document->setUnsaved();  // as a run's results are
    QVERIFY(document->currentFile().isEmpty() && document->isModified());
    QVERIFY(window->isWindowModified());
    const QString target = m_dir.filePath(QStringLiteral("chosen"));
    FileDialogAnswerer answerer(target);
    window->saveAction()->trigger();
    QVERIFY(answerer.answered());
    QCOMPARE(document->currentFile(), target + QStringLiteral(".ckpt"));  // the type's suffix added
    QVERIFY(QFile::exists(target + QStringLiteral(".ckpt")));
    QVERIFY(!document->isModified());
    QVERIFY(window->windowTitle().startsWith(QStringLiteral("chosen.ckpt")));
}

void TestWorkbench::aFileOpensInItsLab()
{
    MainWindow *window = shown(QStringLiteral("selfattention"));
    TrainingController controller(window);
    QString error;
    QVERIFY2(window->files()->openFile(vectorsFile(QStringLiteral("words.bin")), &error), qPrintable(error));
    QCOMPARE(window->shownLab(), window->lab<Word2VecLab>());
    QCOMPARE(window->lab<Word2VecLab>()->vectors()->size(), 3);
    QVERIFY2(window->files()->openFile(characterModel(), &error), qPrintable(error));
    QCOMPARE(window->shownLab(), window->lab<CharLmLab>());
    QVERIFY(window->lab<CharLmLab>()->net());
    QVERIFY2(window->files()->openFile(attentionModel(), &error), qPrintable(error));
    QCOMPARE(window->shownLab(), window->lab<AttentionLab>());
    QTRY_VERIFY_WITH_TIMEOUT(window->runState()->isQuiet(), kOpenedModelMeasuredMs);
    const QStringList recent = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    QCOMPARE(recent.size(), 3);
    QVERIFY(recent.first().endsWith(QLatin1String("attention.ckpt")));
}

void TestWorkbench::aDroppedProjectOpensInTheAttentionLab()
{
    const QString path = project();
    MainWindow *window = shown(QStringLiteral("word2vec"));
    TrainingController controller(window);
    QMimeData data;
    data.setUrls({QUrl::fromLocalFile(path)});
    QDragEnterEvent enter(QPoint(100, 100), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(window, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(100, 100), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(window, &drop);
    auto *lab = window->lab<AttentionLab>();
    QCOMPARE(window->shownLab(), lab);
    QCOMPARE(window->document(lab)->currentFile(), path);
    QCOMPARE(window->document(lab)->currentType().suffixes.first(), QStringLiteral("attnscope"));
    QVERIFY(lab->bestModel());
    QTRY_VERIFY_WITH_TIMEOUT(window->runState()->isQuiet(), kOpenedModelMeasuredMs);
}

void TestWorkbench::quittingListsEveryLabWithUnsavedWork()
{
    MainWindow *window = shown();
    TrainingController controller(window);
    QString error;
    QVERIFY2(window->files()->openFile(attentionModel(), &error), qPrintable(error));
    QVERIFY2(window->files()->openFile(characterModel(), &error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(window->runState()->isQuiet(), kOpenedModelMeasuredMs);
    window->document(window->lab<AttentionLab>())->setUnsaved();
    window->document(window->lab<CharLmLab>())->setUnsaved();

    QString asked;
    QTimer reader;
    connect(&reader, &QTimer::timeout, this, [&asked] {
        if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget()))
            asked = box->text();
    });
    reader.start(5);
    {
        MessageBoxAnswerer answerer(QMessageBox::Cancel);
        QVERIFY(!window->close());
        QVERIFY(answerer.answered());
    }
    QVERIFY(asked.contains(QStringLiteral("Attention")));
    QVERIFY(asked.contains(QStringLiteral("Character Model")));
    QVERIFY(!asked.contains(QStringLiteral("Word Embeddings")));
    QVERIFY(window->isVisible());
    MessageBoxAnswerer discard(QMessageBox::Discard);
    QVERIFY(window->close());
}

void TestWorkbench::reportsReachOnlyTheLabThatSubmitted()
{
    qRegisterMetaType<Probe>();
    m_window = new MainWindow;
    auto *first = new ProbeLab(m_window);
    auto *second = new ProbeLab(m_window);
    m_window->addLab(LabInfo{QStringLiteral("first"), QStringLiteral("First"), QStringLiteral("First"),
                             QStringLiteral("One."), {}},
                     first);
    m_window->addLab(LabInfo{QStringLiteral("second"), QStringLiteral("Second"), QStringLiteral("Second"),
                             QStringLiteral("Two."), {}},
                     second);
    m_window->finishSetup();
    TrainingController controller(m_window);

    first->run([](JobContext &context) {
        context.started(1, QStringLiteral("steps"), QStringLiteral("first run"));
        BatchProgress batch;
        batch.epoch = 1;
        batch.batch = batch.batchesPerEpoch = 1;
        context.batch(batch);
        context.report(Probe{7});
    });
    QTRY_VERIFY(m_window->runState()->isQuiet());
    second->run([](JobContext &) { throw std::runtime_error("second run failed"); });
    QTRY_VERIFY(m_window->runState()->isQuiet());

    QCOMPARE(first->started, QStringList{QStringLiteral("first run")});
    QCOMPARE(first->batches, QList<int>{1});
    QCOMPARE(first->values, QList<int>{7});
    QVERIFY(first->failures.isEmpty());
    QVERIFY(second->started.isEmpty() && second->batches.isEmpty() && second->values.isEmpty());
    QCOMPARE(second->failures, QStringList{QStringLiteral("second run failed")});
}

ATTNSCOPE_TEST(workbench, TestWorkbench)
#include "tst_workbench.moc"
