#include "app/gui.h"

#include "app/trainingcontroller.h"
#include "app/workbench.h"
#include "ui/attention/attentionlab.h"
#include "ui/workbench/mainwindow.h"

#include <QApplication>
#include <QIcon>

int runGui(int argc, char **argv)
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
    const Labs labs = addLabs(&window);
    TrainingController controller(&window, labs);
    labs.attention->loadBundledModel();
    window.show();
    return app.exec();
}
