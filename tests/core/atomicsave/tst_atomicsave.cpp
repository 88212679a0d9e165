#include "tests/common/testregistry.h"
#include "engine/attention/seq2seqmodel.h"
#include "engine/core/atomicfile.h"
#include "ui/core/plotexport.h"

#include <QtTest>

#include <csignal>
#include <fstream>
#include <random>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

constexpr int kRounds = 25;

std::string readFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

// Saves the two models over `path` in turn, forever, writing one byte to `ready` after each save.
// Runs in a forked child: encoding runs no parallel torch op, so the OpenMP workers that fork()
// does not copy are never needed.
[[noreturn]] void saveForever(const Seq2SeqModel &a, const Seq2SeqModel &b, const std::string &path, int ready)
{
    for (unsigned i = 0;; ++i) {
        (i % 2 ? b : a).save(path);
        if (::write(ready, "s", 1) != 1)
            ::_exit(3);
    }
}

}

// A save interrupted by SIGKILL at any moment leaves the previous checkpoint in place: a child
// process saves over one file again and again and is killed at a random point; every time, the file
// must be one of the two complete checkpoints, and load.
class TestAtomicSave : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void killedSaverLeavesALoadableCheckpoint();
    void replacedFileKeepsItsPermissions();
    void qtCallersLearnWhyAWriteFailed();

private:
    QTemporaryDir m_dir;
    std::string m_path;
    std::unique_ptr<Seq2SeqModel> m_a;
    std::unique_ptr<Seq2SeqModel> m_b;
    std::string m_bytesA;
    std::string m_bytesB;
};

void TestAtomicSave::initTestCase()
{
    ModelConfig config;
    config.embedSize = 32;
    config.hiddenSize = 64;
    config.layers = 2;
    std::vector<std::string> words;
    for (int i = 0; i < 300; ++i)
        words.push_back("w" + std::to_string(i));
    // Big enough (about 1 MB) that a save takes a while and a kill often lands inside one.
    m_a = std::make_unique<Seq2SeqModel>(config, Vocabulary(words), 1);
    m_b = std::make_unique<Seq2SeqModel>(config, Vocabulary(words), 2);
    m_path = m_dir.filePath("model.ckpt").toStdString();
    m_b->save(m_path);
    m_bytesB = readFile(m_path);
    m_a->save(m_path);
    m_bytesA = readFile(m_path);
    QVERIFY(m_bytesA != m_bytesB);
    QVERIFY(m_bytesA.size() > 500000);
}

void TestAtomicSave::killedSaverLeavesALoadableCheckpoint()
{
    std::mt19937 rng(20240607);
    int interrupted = 0;
    for (int round = 0; round < kRounds; ++round) {
        int ready[2];
        QCOMPARE(::pipe(ready), 0);
        const pid_t child = ::fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            ::close(ready[0]);
            saveForever(*m_a, *m_b, m_path, ready[1]);
        }
        ::close(ready[1]);
        // Let a few saves complete, then kill at a random point of the next one.
        const int saves = std::uniform_int_distribution<int>(1, 4)(rng);
        char byte;
        for (int i = 0; i < saves; ++i)
            QVERIFY2(::read(ready[0], &byte, 1) == 1, "the saving process ended by itself");
        ::usleep(std::uniform_int_distribution<unsigned>(0, 4000)(rng));
        QCOMPARE(::kill(child, SIGKILL), 0);
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
        ::close(ready[0]);

        const std::string bytes = readFile(m_path);
        QVERIFY2(bytes == m_bytesA || bytes == m_bytesB, qPrintable(QString("round %1: %2 bytes, neither checkpoint")
                                                                         .arg(round)
                                                                         .arg(bytes.size())));
        const Seq2SeqModel loaded = Seq2SeqModel::load(m_path);
        const Seq2SeqModel &expected = bytes == m_bytesA ? *m_a : *m_b;
        QCOMPARE(loaded.reverse("w1 w2 w3").attention, expected.reverse("w1 w2 w3").attention);

        // A kill inside a save leaves its temporary file behind; the checkpoint is unharmed.
        QDir dir(m_dir.path());
        const QStringList temporaries = dir.entryList({"model.ckpt.tmp-*"});
        interrupted += temporaries.isEmpty() ? 0 : 1;
        for (const QString &name : temporaries)
            dir.remove(name);
    }
    qInfo("%d of %d kills landed inside a save", interrupted, kRounds);
}

void TestAtomicSave::replacedFileKeepsItsPermissions()
{
    const std::string path = m_dir.filePath("notes.txt").toStdString();
    writeFileAtomically(path, "first");
    struct stat info {};
    QCOMPARE(::stat(path.c_str(), &info), 0);
    QCOMPARE(info.st_mode & 07777, mode_t(0644));
    QCOMPARE(::chmod(path.c_str(), 0600), 0);
    writeFileAtomically(path, "second");
    QCOMPARE(readFile(path), std::string("second"));
    QCOMPARE(::stat(path.c_str(), &info), 0);
    QCOMPARE(info.st_mode & 07777, mode_t(0600));
}

void TestAtomicSave::qtCallersLearnWhyAWriteFailed()
{
    const QString path = m_dir.filePath("report.json");
    QString error;
    QVERIFY2(writeFileAtomically(path, QByteArray("{}\n"), &error), qPrintable(error));
    QCOMPARE(readFile(path.toStdString()), std::string("{}\n"));

    QVERIFY(!writeFileAtomically(m_dir.filePath("missing/report.json"), "{}", &error));
    QVERIFY2(error.startsWith("Folder does not exist"), qPrintable(error));
    QVERIFY(!writeFileAtomically(m_dir.path(), "{}", &error));
    QVERIFY2(error.endsWith("is a folder, not a file."), qPrintable(error));
    // A folder no file can be created in, not even by root: the engine's reason comes through.
    QVERIFY(!writeFileAtomically("/proc/attnscope-report.json", "{}", &error));
    QVERIFY2(error.startsWith("cannot create a file in the folder of '/proc/attnscope-report.json'"),
             qPrintable(error));
}

ATTNSCOPE_TEST(atomicsave, TestAtomicSave)
#include "tst_atomicsave.moc"
