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

// The commands called `name`: one, or one per architecture that answers it, the default first.
std::vector<const Command *> commandsNamed(const std::string &name)
{
    std::vector<const Command *> named;
    for (const Command &command : commands())
        if (command.name == name)
            named.push_back(&command);
    return named;
}

// "rnn|transformer": the architectures that answer a command.
std::string architectureChoices(const std::vector<const Command *> &named)
{
    std::string choices;
    for (const Command *command : named)
        choices += (choices.empty() ? "" : "|") + command->architecture;
    return choices;
}

// The line every --help of a command answered by several architectures ends with.
std::string architectureHelp(const std::vector<const Command *> &named)
{
    if (named.size() < 2)
        return {};
    return optionLine("--architecture " + architectureChoices(named),
                      "The kind of model the command works on: " + named.front()->architecture +
                          " (the default) or another lab's; each has its own --help: attnscope " +
                          named.front()->name + " --architecture NAME --help.");
}

// Takes `--architecture A` or `--architecture=A` out of `arguments` and returns A; empty when
// absent. `*missingValue` is set when the option ends the line.
std::string takeArchitecture(std::vector<std::string> &arguments, bool *missingValue)
{
    static const std::string option = "--architecture";
    for (auto it = arguments.begin(); it != arguments.end(); ++it) {
        if (*it == option) {
            if (it + 1 == arguments.end()) {
                *missingValue = true;
                arguments.erase(it);
                return {};
            }
            std::string value = *(it + 1);
            arguments.erase(it, it + 2);
            return value;
        }
        if (it->rfind(option + "=", 0) == 0) {
            std::string value = it->substr(option.size() + 1);
            arguments.erase(it);
            return value;
        }
    }
    return {};
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
        text += "\n" + std::string(40, '-') + "\n" + command.help() + architectureHelp(commandsNamed(command.name));
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
    std::vector<std::string> arguments(argv + 2, argv + argc);
    const std::vector<const Command *> named = commandsNamed(name);
    if (named.empty()) {
        if (argc == 2 && QFileInfo(QString::fromLocal8Bit(argv[1])).isFile())
            return runGui(argc - 1, argv, QString::fromLocal8Bit(argv[1]));
        std::cerr << "attnscope: unknown command '" << name << "'. Run 'attnscope --help'.\n";
        return 2;
    }
    const Command *command = named.front();
    if (!command->architecture.empty()) {
        bool missingValue = false;
        const std::string architecture = takeArchitecture(arguments, &missingValue);
        const auto chosen = std::find_if(named.begin(), named.end(),
                                         [&](const Command *c) { return c->architecture == architecture; });
        if (missingValue || (!architecture.empty() && chosen == named.end())) {
            std::cerr << "attnscope " << name << ": --architecture expects " << architectureChoices(named)
                      << (missingValue ? "" : " (got '" + architecture + "')") << ".\n";
            return 2;
        }
        if (!architecture.empty())
            command = *chosen;
    }
    if (asksForHelp(arguments)) {
        std::cout << command->help() << architectureHelp(named);
        return 0;
    }
    // The commands draw (the heatmap PNG) but never show a window: no display is needed.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    return command->run(arguments);
}
