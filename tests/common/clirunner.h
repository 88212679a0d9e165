#pragma once

#include <QProcess>
#include <QStringList>

// The attnscope binary (ATTNSCOPE_BINARY, set by the suite's CMake) run as a user runs it, without
// a display: every command must work without one.
struct CliResult {
    int exitCode;
    QString out;
    QString err;
};

// `timeoutMs` only catches a hang: a command training a course's full settings needs more on a
// loaded machine.
inline CliResult runAttnscope(const QStringList &arguments,
                              QProcessEnvironment env = QProcessEnvironment::systemEnvironment(), int timeoutMs = 120000)
{
    QProcess p;
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(ATTNSCOPE_BINARY), arguments);
    if (!p.waitForFinished(timeoutMs))
        return {-1, {}, QStringLiteral("timed out")};
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError())};
}
