#pragma once

#include "ui/workbench/labinfo.h"

#include <QString>

#include <functional>
#include <string>
#include <vector>

class Lab;
class MainWindow;
class QWidget;
class Workbench;

// One `attnscope <name>` subcommand. It takes the arguments after its name and returns the
// process's exit code: 0 success, 1 failure while running, 2 bad usage.
struct Command {
    std::string name;     // "train"
    std::string usage;    // "attnscope train --out DIR [options]", one or more lines
    std::string summary;  // one line for `attnscope --help`'s list
    std::function<std::string()> help;  // what `attnscope <name> --help` prints: what it does, every option
    std::function<int(const std::vector<std::string> &)> run;
    // Commands that several labs answer for their own kind of model ("rnn", "transformer"): the
    // user picks one with --architecture, the first registered being the default. Empty for the rest.
    std::string architecture;
};

// One task of the course the labs come from, run headless by `attnscope exercise NAME --out DIR`
// and opened in its lab from Course ▸ Exercises: the exercise's own settings, and its answers
// computed from the model it trains.
struct Exercise {
    std::string name;      // "skipgram", as the command line takes it
    std::string title;     // one line
    std::string settings;  // what the exercise sets, in a sentence or two
    // Runs the exercise into `outDir` (created if needed): its files, answers.json with the figures
    // it asks for, and its picture when it asks for one. Returns 0, or 1 with the reason on stderr.
    std::function<int(const std::string &outDir)> run;
    // Markdown for the guide pane when it opens in the app: the exercise's question, and what a run
    // of it measured on this build.
    std::string guide;
    // Sets the lab (this exercise's) to the exercise's settings and returns the page of the lab to
    // bring forward (null: the one in front); unset when it opens as the lab is.
    std::function<QWidget *(Lab *)> open;
    // Markdown answering the exercise from what the lab has just trained or compared, shown under the
    // guide when such work of the lab ends; unset for an exercise the lab answers on screen.
    std::function<QString(Lab *)> answer;
};

// Everything of a lab outside its folders' own code: what the window shows of it, how to make its
// Lab, and its commands. Each lab's folder app/<id>/ defines `LabModule <id>Module()`; the build
// lists them in the order of ATTNSCOPE_LABS (CMakeLists.txt), the one line a new lab adds.
struct LabModule {
    LabInfo info;
    std::function<Lab *(Workbench *)> createLab;
    std::function<void(Lab *)> startInApp;  // what the lab does when the app opens (optional)
    std::vector<Command> commands;
    std::vector<Exercise> exercises;  // the course's tasks that open in this lab
};

// The registered labs, in the lab switcher's order.
const std::vector<LabModule> &labModules();

// Adds every registered lab to `window`, in order, finishes the window's setup, and lists the
// labs' exercises under Course ▸ Exercises.
void addRegisteredLabs(MainWindow *window);
