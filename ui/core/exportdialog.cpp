#include "ui/core/exportdialog.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>

#include <algorithm>

namespace {

const QString kDirectoryKey = QStringLiteral("exportDirectory");
constexpr int kMinExportWidth = 1200;
constexpr int kStatusMilliseconds = 5000;

QString lastExportDirectory()
{
    return QSettings().value(kDirectoryKey, QStandardPaths::writableLocation(QStandardPaths::PicturesLocation)).toString();
}

} // namespace

QString askExportPath(QWidget *parent, const QString &title, const QString &defaultName, const QString &filters)
{
    QSettings settings;
    const QString dir = lastExportDirectory();
    QString selectedFilter;
    const QString chosen = QFileDialog::getSaveFileName(parent, title, QDir(dir).filePath(defaultName), filters,
                                                        &selectedFilter);
    if (chosen.isEmpty())
        return {};
    const QString path = withFilterSuffix(chosen, selectedFilter, defaultName);
    settings.setValue(kDirectoryKey, QFileInfo(path).absolutePath());
    return path;
}

QString askExportFolder(QWidget *parent, const QString &title)
{
    const QString chosen = QFileDialog::getExistingDirectory(parent, title, lastExportDirectory());
    if (!chosen.isEmpty())
        QSettings().setValue(kDirectoryKey, chosen);
    return chosen;
}

QString withFilterSuffix(const QString &path, const QString &selectedFilter, const QString &defaultName)
{
    if (!QFileInfo(path).suffix().isEmpty())
        return path;
    const int star = selectedFilter.indexOf(QStringLiteral("*."));
    if (star < 0) {
        const QString suffix = QFileInfo(defaultName).suffix();
        return suffix.isEmpty() ? path : path + QLatin1Char('.') + suffix;
    }
    // "PNG image (*.png *.PNG)" -> ".png"
    return path + selectedFilter.mid(star + 1).section(QLatin1Char(')'), 0, 0).section(QLatin1Char(' '), 0, 0);
}

QSize exportSize(const QWidget *widget)
{
    const QSize size = widget->size().expandedTo(QSize(320, 240));
    const int width = std::max(size.width(), kMinExportWidth);
    const int height = std::clamp(width * size.height() / size.width(), width / 2, width * 2);
    return QSize(width, height);
}

void reportExport(QWidget *parent, bool ok, const QString &path, const QString &error)
{
    if (!ok) {
        QMessageBox::warning(parent, QObject::tr("Export Failed"), error);
        return;
    }
    if (auto *window = qobject_cast<QMainWindow *>(parent ? parent->window() : nullptr))
        window->statusBar()->showMessage(QObject::tr("Exported %1.").arg(QDir::toNativeSeparators(path)),
                                         kStatusMilliseconds);
}

QString plotImageFilters()
{
    return QObject::tr("PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg);;JPEG image (*.jpg)");
}

void exportImageWithDialog(QWidget *parent, const QString &title, const QString &defaultName, const QWidget *shownAs,
                           const ImageWriter &write)
{
    const QString path = askExportPath(parent, title, defaultName, plotImageFilters());
    if (path.isEmpty())
        return;
    const QSize size = exportSize(shownAs);
    QString error;
    reportExport(parent, write(path, size.width(), size.height(), &error), path, error);
}

void exportFileWithDialog(QWidget *parent, const QString &title, const QString &defaultName, const QString &filters,
                          const FileWriter &write)
{
    const QString path = askExportPath(parent, title, defaultName, filters);
    if (path.isEmpty())
        return;
    QString error;
    reportExport(parent, write(path, &error), path, error);
}
