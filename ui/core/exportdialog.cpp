#include "ui/core/exportdialog.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>

namespace {

constexpr int kMinExportWidth = 1200;

}

QString askExportPath(QWidget *parent, const QString &title, const QString &defaultName, const QString &filters)
{
    QSettings settings;
    const QString dir = settings.value(QStringLiteral("exportDirectory"),
                                       QStandardPaths::writableLocation(QStandardPaths::PicturesLocation)).toString();
    QString selectedFilter;
    QString path = QFileDialog::getSaveFileName(parent, title, QDir(dir).filePath(defaultName), filters, &selectedFilter);
    if (path.isEmpty())
        return {};
    if (QFileInfo(path).suffix().isEmpty()) {
        // "PNG image (*.png)" -> ".png"
        const int star = selectedFilter.indexOf(QStringLiteral("*."));
        const QString suffix = star >= 0 ? selectedFilter.mid(star + 1).section(QLatin1Char(')'), 0, 0).section(QLatin1Char(' '), 0, 0)
                                         : QStringLiteral(".") + QFileInfo(defaultName).suffix();
        path += suffix;
    }
    settings.setValue(QStringLiteral("exportDirectory"), QFileInfo(path).absolutePath());
    return path;
}

QSize exportSize(const QWidget *widget)
{
    const QSize size = widget->size().expandedTo(QSize(320, 240));
    if (size.width() >= kMinExportWidth)
        return size;
    return QSize(kMinExportWidth, kMinExportWidth * size.height() / size.width());
}

void reportExport(QWidget *parent, bool ok, const QString &path, const QString &error)
{
    if (!ok) {
        QMessageBox::warning(parent, QObject::tr("Export Failed"), error);
        return;
    }
    if (auto *window = qobject_cast<QMainWindow *>(parent ? parent->window() : nullptr))
        window->statusBar()->showMessage(QObject::tr("Exported %1.").arg(QDir::toNativeSeparators(path)), 5000);
}
