#include "app/attention/bench.h"
#include "app/attention/commands.h"
#include "app/charlm/charlmcommands.h"
#include "app/gui.h"
#include "app/word2vec/word2veccommands.h"
#include "engine/core/runtime.h"

#include <QApplication>

#include <iostream>

int main(int argc, char **argv)
{
    runtime::startProcess(argv);
    if (argc < 2)
        return runGui(argc, argv);
    const std::string command = argv[1];
    if (command == "--help" || command == "-h" || command == "help") {
        std::cout << helpText();
        return 0;
    }
    if (command == "--version" || command == "-v") {
        std::cout << "attnscope " ATTNSCOPE_VERSION "\n";
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
    if (command == "explain")
        return runExplain(arguments);
    if (command == "reproduce")
        return runReproduce(arguments);
    if (command == "bench")
        return runBench(arguments);
    if (command == "word2vec")
        return runWord2Vec(arguments);
    if (command == "neighbours")
        return runNeighbours(arguments);
    if (command == "analogy")
        return runAnalogy(arguments);
    if (command == "charlm")
        return runCharLm(arguments);
    if (command == "generate")
        return runGenerate(arguments);
    std::cerr << "attnscope: unknown command '" << command << "'. Run 'attnscope --help'.\n";
    return 2;
}
