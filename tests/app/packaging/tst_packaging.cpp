#include "tests/common/testregistry.h"
#include <QDir>
#include <QMimeDatabase>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

// The install rules and the .deb built from them, checked the way Debian's tools check them:
// the desktop entry and the AppStream description validate, the package holds what a desktop
// install needs and depends on what the program loads, and the program unpacked from it runs.
class TestPackaging : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void desktopEntryValidates();
    void metainfoValidates();
    void mimeTypesTellTheFilesApart();
    void packageHoldsTheInstall();
    void packageDependsOnWhatTheProgramLoads();
    void unpackedProgramRunsWithItsBundledModel();

private:
    struct Run {
        int exitCode;
        QString out;
    };
    static Run run(const QString &program, const QStringList &arguments, const QString &directory = {});

    QTemporaryDir m_dir;
    QString m_deb;
};

TestPackaging::Run TestPackaging::run(const QString &program, const QStringList &arguments, const QString &directory)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    if (!directory.isEmpty())
        p.setWorkingDirectory(directory);
    p.start(program, arguments);
    if (!p.waitForFinished(300000))
        return {-1, QStringLiteral("timed out")};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAll())};
}

// One package for the suite, built by CPack from this build tree into a folder of its own.
void TestPackaging::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const Run cpack = run(QStringLiteral("cpack"), {QStringLiteral("-G"), QStringLiteral("DEB"), QStringLiteral("-B"), m_dir.path()},
                          QStringLiteral(ATTNSCOPE_BUILD_DIR));
    QVERIFY2(cpack.exitCode == 0, qPrintable(cpack.out));
    const QStringList debs = QDir(m_dir.path()).entryList({QStringLiteral("attnscope_*_amd64.deb")});
    QCOMPARE(debs.size(), 1);
    QCOMPARE(debs.front(), QStringLiteral("attnscope_" ATTNSCOPE_VERSION "_amd64.deb"));
    m_deb = m_dir.filePath(debs.front());
}

void TestPackaging::desktopEntryValidates()
{
    const Run check = run(QStringLiteral("desktop-file-validate"),
                          {QStringLiteral(ATTNSCOPE_SOURCE_DIR "/resources/org.attnscope.AttnScope.desktop")});
    QVERIFY2(check.exitCode == 0 && check.out.trimmed().isEmpty(), qPrintable(check.out));
}

void TestPackaging::metainfoValidates()
{
    const Run check = run(QStringLiteral("appstreamcli"),
                          {QStringLiteral("validate"), QStringLiteral("--no-net"),
                           QStringLiteral(ATTNSCOPE_SOURCE_DIR "/resources/org.attnscope.AttnScope.metainfo.xml")});
    QVERIFY2(check.exitCode == 0, qPrintable(check.out));
}

// The MIME types as a desktop installs them (update-mime-database), then asked of files as a file
// manager asks: by content where the suffix (.ckpt) is shared or missing. In its own process
// (ctest runs each unit alone), so the MIME database is read from here on.
void TestPackaging::mimeTypesTellTheFilesApart()
{
    const QString data = m_dir.filePath(QStringLiteral("share"));
    QVERIFY(QDir().mkpath(data + QStringLiteral("/mime/packages")));
    QVERIFY(QFile::copy(QStringLiteral(ATTNSCOPE_SOURCE_DIR "/resources/org.attnscope.AttnScope.mime.xml"),
                        data + QStringLiteral("/mime/packages/org.attnscope.AttnScope.xml")));
    const Run update = run(QStringLiteral("update-mime-database"), {QStringLiteral("-V"), data + QStringLiteral("/mime")});
    QVERIFY2(update.exitCode == 0 && !update.out.contains(QLatin1String("Error"))
                 && !update.out.contains(QLatin1String("Warning")),
             qPrintable(update.out));
    qputenv("XDG_DATA_DIRS", (data + QStringLiteral(":/usr/share")).toLocal8Bit());
    struct File {
        QByteArray signature;
        QString name;
        QString type;
    };
    const QString project = QStringLiteral("application/x-attnscope-project");
    const QString model = QStringLiteral("application/x-attnscope-model");
    const QString character = QStringLiteral("application/x-attnscope-charmodel");
    const QString transformer = QStringLiteral("application/x-attnscope-transformer");
    // Every kind of model ends in .ckpt; a file without a suffix is told by its content alone.
    const QList<File> files = {{"ATNSPROJ", QStringLiteral("project.attnscope"), project},
                               {"ATNSPROJ", QStringLiteral("project"), project},
                               {"ATNSCKPT", QStringLiteral("model.ckpt"), model},
                               {"ATNSCHAR", QStringLiteral("character.ckpt"), character},
                               {"ATNSCHAR", QStringLiteral("character"), character},
                               {"ATNSTFMR", QStringLiteral("transformer.ckpt"), transformer}};
    const QMimeDatabase database;
    for (const File &file : files) {
        const QString path = m_dir.filePath(file.name);
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write(file.signature + QByteArray(64, '\0'));
        out.close();
        QCOMPARE(database.mimeTypeForFile(path).name(), file.type);
    }
    // The menu entry opens each of them.
    QFile desktop(QStringLiteral(ATTNSCOPE_SOURCE_DIR "/resources/org.attnscope.AttnScope.desktop"));
    QVERIFY(desktop.open(QIODevice::ReadOnly));
    const QString entry = QString::fromUtf8(desktop.readAll());
    QVERIFY(entry.contains(QStringLiteral("Exec=attnscope %f")));
    for (const QString &type : {project, model, character, transformer})
        QVERIFY2(entry.contains(type + QLatin1Char(';')), qPrintable(type));
}

void TestPackaging::packageHoldsTheInstall()
{
    const Run contents = run(QStringLiteral("dpkg-deb"), {QStringLiteral("--contents"), m_deb});
    QCOMPARE(contents.exitCode, 0);
    QStringList expected = {QStringLiteral("./usr/bin/attnscope"),
                            QStringLiteral("./usr/share/applications/org.attnscope.AttnScope.desktop"),
                            QStringLiteral("./usr/share/metainfo/org.attnscope.AttnScope.metainfo.xml"),
                            QStringLiteral("./usr/share/mime/packages/org.attnscope.AttnScope.xml"),
                            QStringLiteral("./usr/share/man/man1/attnscope.1.gz")};
    for (int size : {16, 24, 32, 48, 64, 128, 256})
        expected << QStringLiteral("./usr/share/icons/hicolor/%1x%1/apps/attnscope.png").arg(size);
    for (const QString &path : expected)
        QVERIFY2(contents.out.contains(QRegularExpression(QStringLiteral(" %1$").arg(QRegularExpression::escape(path)),
                                                          QRegularExpression::MultilineOption)),
                 qPrintable(path + QStringLiteral(" is not in the package:\n") + contents.out));
}

void TestPackaging::packageDependsOnWhatTheProgramLoads()
{
    const Run depends = run(QStringLiteral("dpkg-deb"), {QStringLiteral("--field"), m_deb, QStringLiteral("Depends")});
    QCOMPARE(depends.exitCode, 0);
    // Found by dpkg-shlibdeps from the libraries the program links...
    for (const char *package : {"libtorch1.13", "libqt6widgets6", "libqt6svg6", "libqcustomplot2.1-qt6"})
        QVERIFY2(depends.out.contains(QLatin1String(package)), qPrintable(QLatin1String(package) + QStringLiteral(" missing: ") + depends.out));
    // ...and what it loads at run time: OpenBLAS (14 times faster training) and the window's plugins.
    QVERIFY2(depends.out.contains(QLatin1String("libopenblas0-openmp")), qPrintable(depends.out));
    QVERIFY2(depends.out.contains(QLatin1String("qt6-qpa-plugins")), qPrintable(depends.out));
}

// Unpacked into a root of its own (not installed), the program answers --version and reverses a
// sentence with the model bundled into it: it needs nothing from the build tree.
void TestPackaging::unpackedProgramRunsWithItsBundledModel()
{
    const QString root = m_dir.filePath(QStringLiteral("root"));
    QCOMPARE(run(QStringLiteral("dpkg-deb"), {QStringLiteral("--extract"), m_deb, root}).exitCode, 0);
    const QString program = root + QStringLiteral("/usr/bin/attnscope");
    const Run version = run(program, {QStringLiteral("--version")});
    QCOMPARE(version.exitCode, 0);
    QCOMPARE(version.out.trimmed(), QStringLiteral("attnscope " ATTNSCOPE_VERSION));
    QProcess reverse;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    reverse.setProcessEnvironment(env);
    reverse.setWorkingDirectory(root);
    reverse.start(program, {QStringLiteral("reverse"), QStringLiteral("the cat sat")});
    QVERIFY(reverse.waitForFinished(120000));
    QCOMPARE(reverse.exitCode(), 0);
    QCOMPARE(QString::fromUtf8(reverse.readAllStandardOutput()).trimmed(), QStringLiteral("sat cat the"));
    const Run man = run(QStringLiteral("sh"), {QStringLiteral("-c"), QStringLiteral("zcat '%1/usr/share/man/man1/attnscope.1.gz'").arg(root)});
    QVERIFY2(man.out.contains(QLatin1String(".TH ATTNSCOPE \"1\"")) && man.out.contains(QLatin1String("word2vec")),
             qPrintable(man.out.left(400)));
}

ATTNSCOPE_TEST(packaging, TestPackaging)
#include "tst_packaging.moc"
