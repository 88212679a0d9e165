#include "app/workbench/gui.h"

#include "app/workbench/labmodule.h"
#include "app/workbench/startupbench.h"
#include "app/workbench/trainingcontroller.h"
#include "ui/workbench/mainwindow.h"
#include "ui/workbench/workbenchfiles.h"

#include <QApplication>
#include <QIcon>

int runGui(int argc, char **argv, const QString &file)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("AttnScope"));
    QApplication::setOrganizationName(QStringLiteral("AttnScope"));
    QApplication::setApplicationVersion(QStringLiteral(ATTNSCOPE_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("org.attnscope.AttnScope"));
    QIcon icon;
    for (int size : {16, 24, 32, 48, 64, 128, 256})
        icon.addFile(QStringLiteral(":/icons/attnscope-%1.png").arg(size), QSize(size, size));
    QApplication::setWindowIcon(icon);

    MainWindow window;
    TrainingController controller(&window);
    addRegisteredLabs(&window);
    const QList<Lab *> labs = window.labs();
    for (std::size_t i = 0; i < labModules().size(); ++i)
        if (labModules()[i].startInApp)
            labModules()[i].startInApp(labs.at(int(i)));
    reportFirstFrameIfAsked(&window);
    window.show();
    if (!file.isEmpty())
        window.files()->open(file);
    return app.exec();
}
