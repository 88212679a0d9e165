#pragma once

#include "ui/workbench/labinfo.h"

#include <functional>
#include <string>
#include <vector>

class Lab;
class MainWindow;
class Workbench;

// One `attnscope <name>` subcommand. It takes the arguments after its name and returns the
// process's exit code: 0 success, 1 failure while running, 2 bad usage.
struct Command {
    std::string name;     // "train"
    std::string usage;    // "attnscope train --out DIR [options]", one or more lines
    std::string summary;  // one line for `attnscope --help`'s list
    std::function<std::string()> help;  // what `attnscope <name> --help` prints: what it does, every option
    std::function<int(const std::vector<std::string> &)> run;
};

// Everything of a lab outside its folders' own code: what the window shows of it, how to make its
// Lab, and its commands. Each lab's folder app/<id>/ defines `LabModule <id>Module()`; the build
// lists them in the order of ATTNSCOPE_LABS (CMakeLists.txt), the one line a new lab adds.
struct LabModule {
    LabInfo info;
    std::function<Lab *(Workbench *)> createLab;
    std::function<void(Lab *)> startInApp;  // what the lab does when the app opens (optional)
    std::vector<Command> commands;
};

// The registered labs, in the lab switcher's order.
const std::vector<LabModule> &labModules();

// Adds every registered lab to `window`, in order, and finishes the window's setup.
void addRegisteredLabs(MainWindow *window);
