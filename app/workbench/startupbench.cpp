#include "app/workbench/startupbench.h"

#include "app/core/jsonreport.h"
#include "engine/core/median.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTimer>
#include <QWidget>

#include <cstdio>
#include <iostream>
#include <vector>

namespace {

const char kProbeVariable[] = "ATTNSCOPE_REPORT_FIRST_FRAME";
const char kFirstFrame[] = "first frame";
constexpr int kLaunchTimeoutMs = 60000;

// Waits for the window's first paint event, then lets it finish and reach the screen.
class FirstFrameProbe : public QObject
{
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Paint && !m_seen) {
            m_seen = true;
            QTimer::singleShot(0, this, [] {
                std::printf("%s\n", kFirstFrame);
                std::fflush(stdout);
                QCoreApplication::quit();
            });
        }
        return QObject::eventFilter(watched, event);
    }

private:
    bool m_seen = false;
};

// Milliseconds from start to the line "first frame", or a negative number when the launch failed.
double launchOnce(QString *error)
{
    QProcess app;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QString::fromLatin1(kProbeVariable), QStringLiteral("1"));
    // Commands run offscreen (main() sets it); the app opens on the display when there is one.
    if (environment.contains(QStringLiteral("DISPLAY")) || environment.contains(QStringLiteral("WAYLAND_DISPLAY")))
        environment.remove(QStringLiteral("QT_QPA_PLATFORM"));
    app.setProcessEnvironment(environment);
    app.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    QElapsedTimer clock;
    clock.start();
    app.start(QCoreApplication::applicationFilePath(), {});
    double ms = -1;
    while (ms < 0 && app.waitForReadyRead(kLaunchTimeoutMs)) {
        while (app.canReadLine())
            if (app.readLine().trimmed() == kFirstFrame)
                ms = double(clock.nsecsElapsed()) / 1e6;
    }
    if (ms < 0)
        *error = QStringLiteral("the app did not paint a frame within %1 s (%2)")
                     .arg(kLaunchTimeoutMs / 1000)
                     .arg(app.errorString());
    if (!app.waitForFinished(kLaunchTimeoutMs))
        app.kill();
    return ms;
}

}

void reportFirstFrameIfAsked(QWidget *window)
{
    if (qEnvironmentVariableIsSet(kProbeVariable))
        window->installEventFilter(new FirstFrameProbe(window));
}

int runStartupBench(int launches, const std::string &jsonPath)
{
    const bool display = qEnvironmentVariableIsSet("DISPLAY") || qEnvironmentVariableIsSet("WAYLAND_DISPLAY");
    std::printf("bench --startup: %d launches of the app, exec to the first painted frame, %s\n", launches,
                display ? "on the display" : "offscreen (no display)");
    std::vector<double> ms;
    for (int i = 1; i <= launches; ++i) {
        QString error;
        const double one = launchOnce(&error);
        if (one < 0) {
            std::cerr << "error: " << error.toStdString() << "\n";
            return 1;
        }
        ms.push_back(one);
        std::printf("  launch %d: %.0f ms\n", i, one);
        std::fflush(stdout);
    }
    std::printf("  start-up, exec to the first frame: %.0f ms median\n", median(ms));
    QJsonArray each;
    for (double v : ms)
        each.append(v);
    const QJsonObject root{{"launches", launches}, {"first_frame_ms_median", median(ms)}, {"first_frame_ms", each}};
    return writeJsonReport(jsonPath, root);
}
