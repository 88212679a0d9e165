#include "app/workbench/loadbench.h"

#include "app/core/benchfigures.h"
#include "app/core/jsonreport.h"
#include "app/workbench/eventlooplateness.h"
#include "app/workbench/labmodule.h"
#include "app/workbench/trainingcontroller.h"
#include "app/workbench/trainingworker.h"
#include "engine/core/elapsed.h"
#include "engine/core/epochstats.h"
#include "engine/core/median.h"
#include "ui/workbench/lab.h"
#include "ui/workbench/mainwindow.h"

#include <QEventLoop>
#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTimer>

#ifdef __linux__
#include <csignal>
#include <sys/prctl.h>
#endif

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <map>
#include <memory>
#include <vector>

namespace {

constexpr int kMaxBusy = 2;

struct Run {
    double rate = 0;     // the lab's own unit per second: the median of its epochs' last reports
    double worstMs = 0;  // the GUI's worst stall from Train until the worker is quiet again
    double seconds = 0;
    double guiCpuSeconds = 0;  // the GUI thread's own work in that time
};

double threadCpuSeconds()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) / 1e9;
}

// Processes that keep a core busy at the user's normal priority, in this session, as a compile or
// a second program started from the same desktop does; killed when this goes, even by a signal.
class BusyProcesses
{
public:
    explicit BusyProcesses(int count)
    {
        for (int i = 0; i < count; ++i) {
            auto process = std::make_unique<QProcess>();
#ifdef __linux__
            process->setChildProcessModifier([] { prctl(PR_SET_PDEATHSIG, SIGKILL); });
#endif
            process->start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("while :; do :; done")});
            process->waitForStarted();
            m_processes.push_back(std::move(process));
        }
    }
    ~BusyProcesses()
    {
        for (auto &process : m_processes) {
            process->kill();
            process->waitForFinished();
        }
    }
    BusyProcesses(const BusyProcesses &) = delete;
    BusyProcesses &operator=(const BusyProcesses &) = delete;

private:
    std::vector<std::unique_ptr<QProcess>> m_processes;
};

void waitUntilQuiet(MainWindow &window)
{
    if (window.runState()->isQuiet())
        return;
    QEventLoop loop;
    QObject::connect(window.runState(), &RunState::changed, &loop, [&] {
        if (window.runState()->isQuiet())
            loop.quit();
    });
    loop.exec();
}

// Train as the button does, stopped after `seconds` if it has not ended by then; the stall is
// measured until the worker is quiet, the lab's scoring of the result included.
Run trainOnce(MainWindow &window, TrainingController &controller, Lab *lab, double seconds)
{
    window.showLab(lab);
    waitUntilQuiet(window);
    std::map<int, double> lastRateOfEpoch;
    QEventLoop loop;
    const QMetaObject::Connection progress = QObject::connect(
        controller.worker(), &TrainingWorker::batchProgress, &loop,
        [&](quint64, const BatchProgress &p) { lastRateOfEpoch[p.epoch] = p.samplesPerSecond; });
    QObject::connect(window.runState(), &RunState::changed, &loop, [&] {
        if (window.runState()->isQuiet())
            loop.quit();
    });
    QTimer cap;
    cap.setSingleShot(true);
    QObject::connect(&cap, &QTimer::timeout, &loop, [&] { controller.worker()->requestStop(); });
    EventLoopLateness lateness(benchfigures::kTickMs);
    const auto start = std::chrono::steady_clock::now();
    const double cpuAtStart = threadCpuSeconds();
    lateness.start();
    cap.start(int(seconds * 1000));
    lab->train();
    loop.exec();
    lateness.stop();
    QObject::disconnect(progress);
    Run run;
    run.seconds = secondsSince(start);
    run.guiCpuSeconds = threadCpuSeconds() - cpuAtStart;
    run.worstMs = lateness.worstMs();
    std::vector<double> rates;
    for (const auto &[epoch, rate] : lastRateOfEpoch)
        if (rate > 0)
            rates.push_back(rate);
    run.rate = rates.empty() ? 0 : median(rates);  // 0: not one batch reported
    return run;
}

QString shareText(double rate, double quiet)
{
    return quiet > 0 ? QString::number(100.0 * rate / quiet, 'f', 0) + QLatin1Char('%') : QStringLiteral("-");
}

}

int runLoadBench(int rounds, double secondsPerRun, const std::string &jsonPath)
{
    QStandardPaths::setTestModeEnabled(true);  // every lab on its defaults, not the user's settings
    MainWindow window;
    TrainingController controller(&window);
    addRegisteredLabs(&window);
    window.show();
    std::vector<Lab *> labs;
    std::vector<QString> names;
    for (std::size_t i = 0; i < labModules().size(); ++i) {
        Lab *lab = window.labs().at(int(i));
        if (lab->trains() && lab->trainProblem().isEmpty()) {
            labs.push_back(lab);
            names.push_back(labModules()[i].info.name);
        }
    }
    // runs[lab][busy] over the rounds; busy counts alternate within each round
    std::vector<std::vector<std::vector<Run>>> runs(labs.size(), std::vector<std::vector<Run>>(kMaxBusy + 1));
    std::printf("bench --load: %d round(s), each lab's default training for at most %.0f s, with 0, 1 and 2 busy "
                "processes\n", rounds, secondsPerRun);
    for (int round = 1; round <= rounds; ++round)
        for (int busy = 0; busy <= kMaxBusy; ++busy) {
            const BusyProcesses load(busy);
            for (std::size_t l = 0; l < labs.size(); ++l) {
                const Run run = trainOnce(window, controller, labs[l], secondsPerRun);
                runs[l][std::size_t(busy)].push_back(run);
                std::printf("  round %d, %d busy, %s: %.0f/s, worst stall %.1f ms, %.1f s, GUI thread busy %.0f%%\n",
                            round, busy, qPrintable(names[l]), run.rate, run.worstMs, run.seconds,
                            100 * run.guiCpuSeconds / run.seconds);
                std::fflush(stdout);
            }
        }
    controller.shutdown();

    std::printf("\n  %-18s %14s %10s %10s %26s %18s\n", "lab", "quiet rate/s", "1 busy", "2 busy",
                "worst stall, 0/1/2 busy", "GUI thread, quiet");
    QJsonArray labsJson;
    for (std::size_t l = 0; l < labs.size(); ++l) {
        std::vector<double> rate(kMaxBusy + 1), worst(kMaxBusy + 1);
        double guiBusyQuiet = 0;
        QJsonArray byBusy;
        for (int busy = 0; busy <= kMaxBusy; ++busy) {
            std::vector<double> rates, stalls, guiBusy;
            for (const Run &run : runs[l][std::size_t(busy)]) {
                rates.push_back(run.rate);
                stalls.push_back(run.worstMs);
                guiBusy.push_back(run.guiCpuSeconds / run.seconds);
            }
            rate[std::size_t(busy)] = median(rates);
            if (busy == 0)
                guiBusyQuiet = median(guiBusy);
            worst[std::size_t(busy)] = *std::max_element(stalls.begin(), stalls.end());
            QJsonArray ratesJson, stallsJson;
            for (std::size_t r = 0; r < rates.size(); ++r) {
                ratesJson.append(rates[r]);
                stallsJson.append(stalls[r]);
            }
            byBusy.append(QJsonObject{{"busy_processes", busy},
                                      {"rate_median", rate[std::size_t(busy)]},
                                      {"share_of_quiet", rate[0] > 0 ? rate[std::size_t(busy)] / rate[0] : 0.0},
                                      {"rates", ratesJson},
                                      {"worst_stall_ms", worst[std::size_t(busy)]},
                                      {"worst_stall_ms_by_round", stallsJson},
                                      {"gui_thread_busy_share", median(guiBusy)}});
        }
        std::printf("  %-18s %14.0f %10s %10s %26s %17.1f%%\n", qPrintable(names[l]), rate[0],
                    qPrintable(shareText(rate[1], rate[0])), qPrintable(shareText(rate[2], rate[0])),
                    qPrintable(QStringLiteral("%1/%2/%3 ms").arg(worst[0], 0, 'f', 1).arg(worst[1], 0, 'f', 1).arg(worst[2], 0, 'f', 1)),
                    100 * guiBusyQuiet);
        labsJson.append(QJsonObject{{"lab", names[l]}, {"by_busy_processes", byBusy}});
    }
    const QJsonObject root{{"rounds", rounds}, {"seconds_per_run", secondsPerRun}, {"tick_ms", benchfigures::kTickMs}, {"labs", labsJson}};
    return writeJsonReport(jsonPath, root);
}
