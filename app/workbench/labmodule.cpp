#include "app/workbench/labmodule.h"

#include "ui/workbench/mainwindow.h"

void addRegisteredLabs(MainWindow *window)
{
    for (const LabModule &module : labModules())
        window->addLab(module.info, module.createLab(window));
    window->finishSetup();
    const QList<Lab *> labs = window->labs();
    for (std::size_t i = 0; i < labModules().size(); ++i) {
        Lab *lab = labs.at(int(i));
        for (const Exercise &e : labModules()[i].exercises) {
            const QString guide = QStringLiteral("## %1\n\n**Settings:** %2\n\n%3\n\nHeadless, with its answers in "
                                                 "answers.json: `attnscope exercise %4 --out DIR`.")
                                      .arg(QString::fromStdString(e.title), QString::fromStdString(e.settings),
                                           QString::fromStdString(e.guide), QString::fromStdString(e.name));
            const auto open = e.open;
            const auto answer = e.answer;
            window->addExercise(QString::fromStdString(e.title), lab, guide,
                                open ? std::function<QWidget *()>([open, lab] { return open(lab); })
                                     : std::function<QWidget *()>(),
                                answer ? std::function<QString()>([answer, lab] { return answer(lab); })
                                       : std::function<QString()>());
        }
    }
}
