#include "app/attention/bench.h"
#include "app/attention/commands.h"
#include "app/gui.h"

#include <QApplication>

#include <cstdlib>
#include <iostream>
#include <unistd.h>

int main(int argc, char **argv)
{
    // libgomp spin-waits between parallel regions; with the GUI thread or another process on the
    // same cores that collapses training ~20x. Its wait policy is read once, when the library
    // loads, so it is set here and the process starts over with it.
    if (!std::getenv("OMP_WAIT_POLICY")) {
        setenv("OMP_WAIT_POLICY", "PASSIVE", 1);
        execv("/proc/self/exe", argv);
    }
    if (argc < 2)
        return runGui(argc, argv);
    const std::string command = argv[1];
    if (command == "--help" || command == "-h" || command == "help") {
        std::cout << helpText();
        return 0;
    }
    // The commands draw (the heatmap PNG) but never show a window: no display is needed.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const std::vector<std::string> arguments(argv + 2, argv + argc);
    if (command == "train")
        return runTrain(arguments);
    if (command == "reverse")
        return runReverse(arguments);
    if (command == "evaluate")
        return runEvaluate(arguments);
    if (command == "compare")
        return runCompare(arguments);
    if (command == "bench")
        return runBench(arguments);
    std::cerr << "attnscope: unknown command '" << command << "'. Run 'attnscope --help'.\n";
    return 2;
}
