#include "app/workbench/exercisecommand.h"

#include "app/core/commandline.h"
#include "app/core/helpformat.h"
#include "ui/core/plotexport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <iostream>

namespace {

struct Listed {
    const LabModule *lab;
    const Exercise *exercise;
};

std::vector<Listed> everyExercise()
{
    std::vector<Listed> all;
    for (const LabModule &module : labModules())
        for (const Exercise &exercise : module.exercises)
            all.push_back({&module, &exercise});
    return all;
}

std::string exerciseHelp()
{
    std::string text = R"(Usage: attnscope exercise --list
       attnscope exercise NAME --out DIR

Runs one of the course's exercises headless, with the exercise's own settings, so that a teacher
can prepare material in a script. --list names every exercise, its lab and what it sets.
NAME --out DIR trains (or computes) as the exercise does, writes the lab's usual files into DIR,
and answers.json: the figures the exercise asks for, computed from the model it trained. Exit
codes: 0 done, 1 failed, 2 bad usage.

Exercises:
)";
    for (const Listed &e : everyExercise())
        text += optionLine(e.exercise->name, e.exercise->title);
    return text;
}

int list()
{
    for (const Listed &e : everyExercise())
        std::cout << e.exercise->name << "  [" << e.lab->info.name.toStdString() << "]  " << e.exercise->title
                  << "\n    " << e.exercise->settings << "\n";
    return 0;
}

int run(const std::vector<std::string> &arguments)
{
    CommandLine cl({"out"}, {"list"});
    cl.parse(arguments);
    if (!cl.ok())
        return usageError("exercise", cl.error());
    if (cl.flag("list")) {
        if (!cl.positional().empty() || cl.has("out"))
            return usageError("exercise", "--list takes no exercise and no --out");
        return list();
    }
    if (cl.positional().size() != 1)
        return usageError("exercise", "name one exercise (attnscope exercise --list names them)");
    if (!cl.has("out"))
        return usageError("exercise", "--out DIR is required: where the exercise writes its files and answers.json");
    const std::string &name = cl.positional().front();
    for (const Listed &e : everyExercise()) {
        if (e.exercise->name != name)
            continue;
        const std::string out = cl.text("out");
        if (!QDir().mkpath(QString::fromStdString(out)))
            return failure("cannot create the folder " + out);
        return e.exercise->run(out);
    }
    return usageError("exercise", "there is no exercise '" + name + "' (attnscope exercise --list names them)");
}

} // namespace

QJsonArray printedEpochs(const std::string &outDir, int every, const QString &key)
{
    QFile file(QDir(QString::fromStdString(outDir)).filePath(QStringLiteral("metrics.json")));
    QJsonArray printed;
    if (!file.open(QIODevice::ReadOnly))
        return printed;
    for (const QJsonValue &epoch : QJsonDocument::fromJson(file.readAll()).object()["epochs"].toArray())
        if (epoch["epoch"].toInt() % every == 0)
            printed.append(QJsonObject{{"epoch", epoch["epoch"]}, {key, epoch[key]}});
    return printed;
}

int writeAnswers(const std::string &outDir, const std::string &exercise, QJsonObject answers)
{
    answers.insert("exercise", QString::fromStdString(exercise));
    QString error;
    const QString path = QDir(QString::fromStdString(outDir)).filePath(QStringLiteral("answers.json"));
    if (!writeFileAtomically(path, QJsonDocument(answers).toJson(QJsonDocument::Indented), &error))
        return failure(error.toStdString());
    return 0;
}

Command exerciseCommand()
{
    return {"exercise", "attnscope exercise --list | NAME --out DIR",
            "run one of the course's exercises with its own settings", exerciseHelp, run};
}
