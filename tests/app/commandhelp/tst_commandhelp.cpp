#include "tests/common/testregistry.h"
#include "app/workbench/labmodule.h"
#include "tests/common/clirunner.h"

#include <QtTest>

// What main's dispatcher does for every lab's commands: --help, a bad option, and --architecture
// choosing among the labs that answer one command.
class TestCommandHelp : public QObject
{
    Q_OBJECT
private slots:
    void everyCommandAnswersHelp();
};

namespace {

// The command `attnscope NAME` runs without --architecture: the first registered of its name.
bool isDefault(const Command &command)
{
    for (const LabModule &module : labModules())
        for (const Command &candidate : module.commands)
            if (candidate.name == command.name)
                return &candidate == &command;
    return false;
}

}

// Every registered lab's every command: --help prints that command's own help and exits with 0, a
// bad option says where that help is, and `attnscope --help` lists the command and its help.
void TestCommandHelp::everyCommandAnswersHelp()
{
    const CliResult all = runAttnscope({"--help"});
    QCOMPARE(all.exitCode, 0);
    int commands = 0;
    for (const LabModule &module : labModules())
        for (const Command &command : module.commands) {
            const QString name = QString::fromStdString(command.name);
            const QString help = QString::fromStdString(command.help());
            // A command several labs answer is chosen with --architecture; its help then says so.
            QStringList chosen{name};
            if (!command.architecture.empty())
                chosen << QStringLiteral("--architecture") << QString::fromStdString(command.architecture);
            for (const QString &flag : {QStringLiteral("--help"), QStringLiteral("-h")}) {
                const CliResult r = runAttnscope(chosen + QStringList{flag});
                QCOMPARE(r.exitCode, 0);
                QVERIFY2(r.out.startsWith(help), qPrintable(name));
                QCOMPARE(r.out.contains(QStringLiteral("--architecture rnn|transformer")),
                         QStringList({"train", "reverse", "evaluate", "compare", "explain", "bench"}).contains(name));
            }
            QVERIFY2(help.startsWith(QStringLiteral("Usage: attnscope ") + name), qPrintable(name));
            QVERIFY2(all.out.contains(help), qPrintable(name));
            QVERIFY2(all.out.contains(QString::fromStdString(command.summary)), qPrintable(name));
            // The help named is the one of the command that answered: another than the default
            // architecture's is named with its --architecture.
            const CliResult bad = runAttnscope(chosen + QStringList{QStringLiteral("--no-such-option")});
            QCOMPARE(bad.exitCode, 2);
            const QString helpCommand = isDefault(command) ? name : chosen.join(' ');
            QVERIFY2(bad.err.contains(QStringLiteral("Run 'attnscope %1 --help'").arg(helpCommand)), qPrintable(bad.err));
            ++commands;
        }
    // An architecture nobody answers, or none at all after the option, is refused with the choices.
    for (const QStringList &arguments : {QStringList{"bench", "--architecture", "lstm"},
                                         QStringList{"bench", "--architecture"},
                                         QStringList{"train", "--architecture=lstm", "--out", QDir::temp().filePath("unused")}}) {
        const CliResult r = runAttnscope(arguments);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("--architecture expects rnn")), qPrintable(r.err));
    }
    QVERIFY(commands >= 12);
}

ATTNSCOPE_TEST(commandhelp, TestCommandHelp)
#include "tst_commandhelp.moc"
