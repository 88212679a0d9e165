#include "ui/workbench/runsummary.h"

#include <QCoreApplication>
#include <QLocale>

QString runSummary(int epochsDone, int epochs, double ratePerSecond, const QString &unit)
{
    if (epochsDone < epochs)
        return QCoreApplication::translate("RunSummary", "Stopped after %1 of %2 epochs.").arg(epochsDone).arg(epochs);
    return QCoreApplication::translate("RunSummary", "Trained %1 epochs at %2 %3/s.")
        .arg(epochs)
        .arg(QLocale().toString(ratePerSecond, 'f', 0), unit);
}
