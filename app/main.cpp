#include "app/core/helpformat.h"
#include "app/workbench/exercisecommand.h"
#include "app/workbench/gui.h"
#include "app/workbench/labmodule.h"
#include "engine/core/runtime.h"

#include <QApplication>
#include <QFileInfo>

#include <algorithm>
#include <iostream>

namespace {

// Every lab's commands, then the course's exercises, which span the labs.
const std::vector<Command> &commands()
{
    static const std::vector<Command> all = [] {
        std::vector<Command> list;
        for (const LabModule &module : labModules())
            list.insert(list.end(), module.commands.begin(), module.commands.end());
        list.push_back(exerciseCommand());
        return list;
    }();
    return all;
}

const Command *findCommand(const std::string &name)
{
    for (const Command &command : commands())
        if (command.name == name)
            return &command;
    return nullptr;
}

// `attnscope --help`: every command's usage, then each command's own help, so that the man page
// made from it (help2man) lists every option.
std::string overview()
{
    std::string text = "AttnScope: train neural sequence models and look inside them.\n\nUsage:\n"
                       "  attnscope                      open the desktop app (needs a display)\n"
                       "  attnscope FILE                 open a project, model or vectors file in its lab\n";
    for (const Command &command : commands()) {
        std::string usage = command.usage;
        for (std::size_t line = usage.find('\n'); line != std::string::npos; line = usage.find('\n', line + 3))
            usage.replace(line, 1, "\n  ");
        text += "  " + usage + "\n";
    }
    text += "  attnscope COMMAND --help\n  attnscope --version\n\n"
            "Each command's --help says what it does and writes, and lists its options:\n";
    for (const Command &command : commands())
        text += optionLine(command.name, command.summary);
    for (const Command &command : commands())
        text += "\n" + std::string(40, '-') + "\n" + command.help();
    return text;
}

bool asksForHelp(const std::vector<std::string> &arguments)
{
    return std::any_of(arguments.begin(), arguments.end(),
                       [](const std::string &a) { return a == "--help" || a == "-h"; });
}

}

int main(int argc, char **argv)
{
    runtime::startProcess(argv);
    if (argc < 2)
        return runGui(argc, argv);
    const std::string name = argv[1];
    if (name == "--help" || name == "-h" || name == "help") {
        std::cout << overview();
        return 0;
    }
    if (name == "--version" || name == "-v") {
        std::cout << "attnscope " ATTNSCOPE_VERSION "\n";
        return 0;
    }
    const Command *command = findCommand(name);
    if (!command) {
        if (argc == 2 && QFileInfo(QString::fromLocal8Bit(argv[1])).isFile())
            return runGui(argc - 1, argv, QString::fromLocal8Bit(argv[1]));
        std::cerr << "attnscope: unknown command '" << name << "'. Run 'attnscope --help'.\n";
        return 2;
    }
    const std::vector<std::string> arguments(argv + 2, argv + argc);
    if (asksForHelp(arguments)) {
        std::cout << command->help();
        return 0;
    }
    // The commands draw (the heatmap PNG) but never show a window: no display is needed.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    return command->run(arguments);
}
