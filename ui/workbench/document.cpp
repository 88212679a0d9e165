#include "ui/workbench/document.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>

namespace {

constexpr int kMaxRecentFiles = 8;

QString lastDirectory()
{
    return QSettings()
        .value(QStringLiteral("lastDirectory"), QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
        .toString();
}

}

Document::Document(QMainWindow *window)
    : QObject(window), m_window(window), m_recentMenu(new QMenu(tr("Open &Recent"), window))
{
    updateRecentMenu();
}

void Document::setUnsaved()
{
    m_modified = true;
    m_currentFile.clear();
    updateTitle();
}

void Document::setOrigin(const QString &origin)
{
    m_origin = origin;
    m_modified = false;
    m_currentFile.clear();
    updateTitle();
}

bool Document::openFile(const QString &path, QString *error)
{
    if (!m_content)
        return false;
    QString problem;
    if (!m_content->open(path, &problem)) {
        if (error)
            *error = problem;
        return false;
    }
    m_modified = false;
    setCurrentFile(path);
    addRecentFile(path);
    emit opened(path);
    return true;
}

bool Document::saveFile(const QString &path, QString *error)
{
    if (!hasContent()) {
        if (error)
            *error = tr("There is nothing to save yet.");
        return false;
    }
    if (!m_content->save(path, error))
        return false;
    m_modified = false;
    setCurrentFile(path);
    addRecentFile(path);
    return true;
}

void Document::openWithDialog()
{
    if (!m_content || !maybeSave(false))
        return;
    const QString path = QFileDialog::getOpenFileName(m_window, tr("Open"), lastDirectory(),
                                                      m_content->openFilter() + tr(";;All files (*)"));
    if (!path.isEmpty())
        openRecent(path);
}

void Document::openRecent(const QString &path)
{
    QSettings().setValue(QStringLiteral("lastDirectory"), QFileInfo(path).absolutePath());
    QString error;
    if (!openFile(path, &error)) {
        QMessageBox::warning(m_window, tr("Cannot Open"),
                             tr("%1 could not be opened:\n\n%2").arg(QDir::toNativeSeparators(path), error));
        return;
    }
    m_window->statusBar()->showMessage(tr("Opened %1.").arg(QDir::toNativeSeparators(path)), 5000);
}

bool Document::save()
{
    if (m_currentFile.isEmpty())
        return saveAs();
    QString error;
    if (!saveFile(m_currentFile, &error)) {
        QMessageBox::warning(m_window, tr("Cannot Save"), error);
        return false;
    }
    m_window->statusBar()->showMessage(tr("Saved %1.").arg(QDir::toNativeSeparators(m_currentFile)), 5000);
    return true;
}

bool Document::saveAs()
{
    return hasContent() && saveAsFormat(m_content->fileFilter(), m_content->defaultSuffix());
}

bool Document::saveAsFormat(const QString &filter, const QString &suffix)
{
    if (!hasContent())
        return false;
    const QFileInfo current(m_currentFile);
    const QString suggested = m_currentFile.isEmpty()
                                  ? QDir(lastDirectory()).filePath(QStringLiteral("model.") + suffix)
                                  : current.dir().filePath(current.completeBaseName() + QLatin1Char('.') + suffix);
    QString path = QFileDialog::getSaveFileName(m_window, tr("Save As"), suggested, filter + tr(";;All files (*)"));
    if (path.isEmpty())
        return false;
    if (QFileInfo(path).suffix().isEmpty())
        path += QLatin1Char('.') + suffix;
    QSettings().setValue(QStringLiteral("lastDirectory"), QFileInfo(path).absolutePath());
    QString error;
    if (!saveFile(path, &error)) {
        QMessageBox::warning(m_window, tr("Cannot Save"), error);
        return false;
    }
    m_window->statusBar()->showMessage(tr("Saved %1.").arg(QDir::toNativeSeparators(path)), 5000);
    return true;
}

bool Document::maybeSave(bool running)
{
    if (!m_modified || !hasContent())
        return true;
    const QString text = running ? tr("Training is still running. Save the best model so far before it is stopped?")
                                 : tr("The trained model has not been saved. Save it now?");
    const auto answer = QMessageBox::warning(m_window, tr("Unsaved Model"), text,
                                             QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel,
                                             QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

void Document::setCurrentFile(const QString &path)
{
    m_currentFile = path;
    if (!path.isEmpty())
        m_origin = QFileInfo(path).fileName();
    updateTitle();
}

void Document::updateTitle()
{
    QString name;
    if (!m_currentFile.isEmpty())
        name = QFileInfo(m_currentFile).fileName();
    else if (hasContent() && m_modified)
        name = tr("untitled model");
    else if (hasContent())
        name = m_origin;
    m_window->setWindowTitle(name.isEmpty() ? tr("AttnScope") : tr("AttnScope — %1[*]").arg(name));
    if (!name.isEmpty())
        m_window->setWindowModified(m_modified);
    emit changed();
}

void Document::addRecentFile(const QString &path)
{
    QSettings settings;
    QStringList files = settings.value(QStringLiteral("recentFiles")).toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    settings.setValue(QStringLiteral("recentFiles"), files);
    updateRecentMenu();
}

void Document::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    int number = 0;
    for (const QString &file : files) {
        ++number;
        QAction *action = m_recentMenu->addAction(QStringLiteral("&%1 %2").arg(number).arg(QFileInfo(file).fileName()),
                                                  this, [this, file] {
                                                      if (maybeSave(false))
                                                          openRecent(file);
                                                  });
        action->setStatusTip(QDir::toNativeSeparators(file));
    }
    if (files.isEmpty()) {
        m_recentMenu->addAction(tr("No recent files"))->setEnabled(false);
        return;
    }
    m_recentMenu->addSeparator();
    m_recentMenu->addAction(tr("&Clear Menu"), this, [this] {
        QSettings().remove(QStringLiteral("recentFiles"));
        updateRecentMenu();
    });
}
