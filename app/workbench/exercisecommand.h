#pragma once

#include "app/workbench/labmodule.h"

#include <QJsonObject>

// `attnscope exercise --list | NAME --out DIR`: the course's exercises of every registered lab.
Command exerciseCommand();

// DIR/answers.json, indented, with the exercise's name; 0, or 1 with the reason on stderr.
int writeAnswers(const std::string &outDir, const std::string &exercise, QJsonObject answers);
