#include "tests/common/testregistry.h"
#include "tests/common/clirunner.h"

#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

// `attnscope bench`'s options and its start-up measurement, as a user runs them. The benches
// themselves take minutes and are not run here.
class TestBenchCli : public QObject
{
    Q_OBJECT
private slots:
    void badOptionsExitWithTwo_data();
    void badOptionsExitWithTwo();
    void benchStartupTimesTheAppsFirstFrame();
};

void TestBenchCli::badOptionsExitWithTwo_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    QTest::newRow("bench corpus and load") << QStringList{"--load", "--corpus", "c.txt"}
                                           << "give one of --corpus FILE, --load and --startup";
    QTest::newRow("bench load and startup") << QStringList{"--load", "--startup"}
                                            << "give one of --corpus FILE, --load and --startup";
    QTest::newRow("bench startup with threads") << QStringList{"--startup", "--threads", "1"}
                                                << "--startup launches the app as it is: --threads does not apply";
    QTest::newRow("bench load with threads") << QStringList{"--load", "--threads", "2"}
                                             << "--load trains every lab on its own defaults: --threads does not apply";
    QTest::newRow("bench load json in a missing folder")
        << QStringList{"--load", "--json", "/nonexistent-folder/load.json"} << "--json: the folder of";
}

void TestBenchCli::badOptionsExitWithTwo()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const CliResult r = runAttnscope(QStringList{QStringLiteral("bench")} + arguments);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
}

// The app, launched by the bench, paints its window and quits by itself each time; its settings go
// to a folder of the test's own.
void TestBenchCli::benchStartupTimesTheAppsFirstFrame()
{
    QTemporaryDir home;
    QVERIFY(home.isValid());
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), home.path());
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
    const QString json = home.filePath(QStringLiteral("startup.json"));
    const CliResult r = runAttnscope({"bench", "--startup", "--quick", "--json", json}, env);
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains(QStringLiteral("start-up, exec to the first frame:")), qPrintable(r.out));
    QFile file(json);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
    QCOMPARE(root.value(QStringLiteral("launches")).toInt(), 3);
    const QJsonArray each = root.value(QStringLiteral("first_frame_ms")).toArray();
    QCOMPARE(each.size(), 3);
    for (const QJsonValue &ms : each)
        QVERIFY(ms.toDouble() > 0);
}

ATTNSCOPE_TEST(benchcli, TestBenchCli)
#include "tst_benchcli.moc"
