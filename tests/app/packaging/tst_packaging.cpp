#include <QDir>
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

void TestPackaging::packageHoldsTheInstall()
{
    const Run contents = run(QStringLiteral("dpkg-deb"), {QStringLiteral("--contents"), m_deb});
    QCOMPARE(contents.exitCode, 0);
    QStringList expected = {QStringLiteral("./usr/bin/attnscope"),
                            QStringLiteral("./usr/share/applications/org.attnscope.AttnScope.desktop"),
                            QStringLiteral("./usr/share/metainfo/org.attnscope.AttnScope.metainfo.xml"),
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

QTEST_MAIN(TestPackaging)
#include "tst_packaging.moc"
