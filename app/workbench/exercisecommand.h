#pragma once

#include "app/workbench/labmodule.h"

#include <QJsonObject>
#include <QString>

#include <vector>

// `attnscope exercise --list | NAME --out DIR`: the course's exercises of every registered lab.
Command exerciseCommand();

// Every `every`-th epoch of the DIR/metrics.json a lab's command wrote, as {"epoch": n, key: value}:
// the losses an exercise prints. Empty when there is no such file.
QJsonArray printedEpochs(const std::string &outDir, int every, const QString &key);

// The same figures in the app, from a run's history (anything with an `epoch`): a Markdown table
// of `value` at every `every`-th epoch and at the last, in the columns `epochName`, `valueName`.
template <typename Epoch, typename Value>
QString printedEpochsTable(const std::vector<Epoch> &history, int every, const QString &epochName,
                           const QString &valueName, Value value)
{
    QString text = QStringLiteral("| %1 | %2 |\n|---|---|\n").arg(epochName, valueName);
    for (const Epoch &e : history)
        if (e.epoch % every == 0 || &e == &history.back())
            text += QStringLiteral("| %1 | %2 |\n").arg(e.epoch).arg(value(e), 0, 'f', 3);
    return text;
}

// DIR/answers.json, indented, with the exercise's name; 0, or 1 with the reason on stderr.
int writeAnswers(const std::string &outDir, const std::string &exercise, QJsonObject answers);
