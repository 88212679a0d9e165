#include "app/workbench/labmodule.h"

#include "ui/workbench/mainwindow.h"

void addRegisteredLabs(MainWindow *window)
{
    for (const LabModule &module : labModules())
        window->addLab(module.info, module.createLab(window));
    window->finishSetup();
}
