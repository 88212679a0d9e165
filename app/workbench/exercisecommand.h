#pragma once

#include "app/workbench/labmodule.h"

#include <QJsonObject>

// `attnscope exercise --list | NAME --out DIR`: the course's exercises of every registered lab.
Command exerciseCommand();

// Every `every`-th epoch of the DIR/metrics.json a lab's command wrote, as {"epoch": n, key: value}:
// the losses an exercise prints. Empty when there is no such file.
QJsonArray printedEpochs(const std::string &outDir, int every, const QString &key);

// DIR/answers.json, indented, with the exercise's name; 0, or 1 with the reason on stderr.
int writeAnswers(const std::string &outDir, const std::string &exercise, QJsonObject answers);
