#include "ui/workbench/workbenchfiles.h"

#include "ui/workbench/document.h"
#include "ui/workbench/lab.h"
#include "ui/workbench/labinfo.h"

#include <QDir>
#include <QFile>
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

void rememberDirectory(const QString &path)
{
    QSettings().setValue(QStringLiteral("lastDirectory"), QFileInfo(path).absolutePath());
}

void showStatus(QWidget *window, const QString &message)
{
    if (auto *main = qobject_cast<QMainWindow *>(window))
        main->statusBar()->showMessage(message, 5000);
}

}

WorkbenchFiles::WorkbenchFiles(QWidget *window)
    : QObject(window), m_window(window), m_recentMenu(new QMenu(tr("Open &Recent"), window))
{
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    updateRecentMenu();
}

void WorkbenchFiles::addLab(Lab *lab, const LabInfo &info)
{
    m_labs << lab;
    m_names.insert(lab, info.name);
    if (DocumentContent *content = lab->documentContent()) {
        auto *document = new Document(info.fileTypes, content, this);
        connect(document, &Document::changed, this, &WorkbenchFiles::changed);
        m_documents.insert(lab, document);
    }
}

Lab *WorkbenchFiles::labOf(const QString &path, const FileType **type, QString *error) const
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = file.errorString();
        return nullptr;
    }
    const QByteArray head = file.read(FileType::kHeadBytes);
    for (Lab *lab : m_labs) {
        const Document *document = m_documents.value(lab);
        if (!document)
            continue;
        for (const FileType &candidate : document->types())
            if (candidate.recognises(head)) {
                *type = &candidate;
                return lab;
            }
    }
    if (error)
        *error = head.isEmpty() ? tr("The file is empty.")
                                : tr("This is not a file any of AttnScope's labs reads: not a project, a model or "
                                     "word vectors.");
    return nullptr;
}

bool WorkbenchFiles::openFile(const QString &path, QString *error)
{
    const FileType *type = nullptr;
    Lab *lab = labOf(path, &type, error);
    return lab && openIn(lab, path, *type, error);
}

bool WorkbenchFiles::openIn(Lab *lab, const QString &path, const FileType &type, QString *error)
{
    emit openingLab(lab);
    if (!m_documents.value(lab)->openFile(path, type, error))
        return false;
    addRecentFile(path);
    return true;
}

void WorkbenchFiles::open(const QString &path)
{
    rememberDirectory(path);
    const FileType *type = nullptr;
    QString error;
    Lab *lab = labOf(path, &type, &error);
    if (lab && !maybeSave(lab))
        return;
    if (!lab || !openIn(lab, path, *type, &error)) {
        QMessageBox::warning(m_window, tr("Cannot Open"),
                             tr("%1 could not be opened:\n\n%2").arg(QDir::toNativeSeparators(path), error));
        return;
    }
    showStatus(m_window, tr("Opened %1.").arg(QDir::toNativeSeparators(path)));
}

bool WorkbenchFiles::maybeSave(Lab *lab)
{
    const Document *document = m_documents.value(lab);
    if (!document->isModified())
        return true;
    const auto answer = QMessageBox::warning(
        m_window, tr("Unsaved %1").arg(document->documentName()),
        tr("%1: %2 has not been saved. Save it before opening another file?")
            .arg(m_names.value(lab), document->title()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return save(lab);
    return answer == QMessageBox::Discard;
}

void WorkbenchFiles::openWithDialog(const Lab *shown)
{
    QStringList filters;
    QStringList patterns;
    QList<Lab *> ordered = m_labs;
    if (shown && ordered.removeOne(const_cast<Lab *>(shown)))
        ordered.prepend(const_cast<Lab *>(shown));
    for (Lab *lab : std::as_const(ordered))
        if (const Document *document = m_documents.value(lab))
            for (const FileType &type : document->types()) {
                filters << type.filter();
                for (const QString &suffix : type.suffixes)
                    if (!patterns.contains(QStringLiteral("*.") + suffix))
                        patterns << QStringLiteral("*.") + suffix;
            }
    filters.insert(shown && m_documents.contains(shown) ? int(m_documents.value(shown)->types().size()) : 0,
                   tr("All AttnScope files (%1)").arg(patterns.join(QLatin1Char(' '))));
    filters << tr("All files (*)");
    const QString path =
        QFileDialog::getOpenFileName(m_window, tr("Open"), lastDirectory(), filters.join(QStringLiteral(";;")));
    if (!path.isEmpty())
        open(path);
}

bool WorkbenchFiles::save(Lab *lab)
{
    Document *document = m_documents.value(lab);
    if (!document)
        return false;
    if (document->currentFile().isEmpty())
        return saveAs(lab);
    return writeTo(lab, document->currentFile(), document->currentType());
}

bool WorkbenchFiles::saveAs(Lab *lab, const FileType *only)
{
    Document *document = m_documents.value(lab);
    if (!document || !document->hasContent())
        return false;
    const QList<FileType> types = only ? QList<FileType>{*only} : document->types();
    QStringList filters;
    for (const FileType &type : types)
        filters << type.filter();
    QString selected = only ? filters.first() : document->currentType().filter();
    const QString suffix = (only ? *only : document->currentType()).suffixes.first();
    const QFileInfo current(document->currentFile());
    const QString untitled = document->documentName().toLower().replace(QLatin1Char(' '), QLatin1Char('_'));
    const QString base = document->currentFile().isEmpty() ? QDir(lastDirectory()).filePath(untitled)
                                                           : current.dir().filePath(current.completeBaseName());
    const QString suggested = base + QLatin1Char('.') + suffix;
    QString path = QFileDialog::getSaveFileName(m_window, tr("Save %1 As").arg(document->documentName()), suggested,
                                                filters.join(QStringLiteral(";;")), &selected);
    if (path.isEmpty())
        return false;
    const int chosen = std::max(0, int(filters.indexOf(selected)));
    if (QFileInfo(path).suffix().isEmpty())
        path += QLatin1Char('.') + types.at(chosen).suffixes.first();
    rememberDirectory(path);
    return writeTo(lab, path, types.at(chosen));
}

bool WorkbenchFiles::writeTo(Lab *lab, const QString &path, const FileType &type)
{
    QString error;
    if (!m_documents.value(lab)->saveFile(path, type, &error)) {
        QMessageBox::warning(m_window, tr("Cannot Save"), error);
        return false;
    }
    addRecentFile(path);
    showStatus(m_window, tr("Saved %1.").arg(QDir::toNativeSeparators(path)));
    return true;
}

bool WorkbenchFiles::confirmClose(bool running)
{
    QList<Lab *> unsaved;
    QStringList lines;
    for (Lab *lab : std::as_const(m_labs))
        if (const Document *document = m_documents.value(lab); document && document->isModified()) {
            unsaved << lab;
            lines << tr("• %1: %2").arg(m_names.value(lab), document->title());
        }
    if (unsaved.isEmpty())
        return true;
    const QString text = (running ? tr("Training is still running and will be stopped. These labs hold work that is "
                                       "not saved:")
                                  : tr("These labs hold work that is not saved:"))
                         + QStringLiteral("\n\n") + lines.join(QLatin1Char('\n')) + QStringLiteral("\n\n")
                         + tr("Save it before quitting?");
    const auto answer = QMessageBox::warning(m_window, tr("Unsaved Work"), text,
                                             QMessageBox::SaveAll | QMessageBox::Discard | QMessageBox::Cancel,
                                             QMessageBox::SaveAll);
    if (answer != QMessageBox::SaveAll)
        return answer == QMessageBox::Discard;
    for (Lab *lab : std::as_const(unsaved))
        if (!save(lab))
            return false;
    return true;
}

void WorkbenchFiles::addRecentFile(const QString &path)
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

void WorkbenchFiles::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    int number = 0;
    for (const QString &file : files) {
        ++number;
        QAction *action = m_recentMenu->addAction(QStringLiteral("&%1 %2").arg(number).arg(QFileInfo(file).fileName()),
                                                  this, [this, file] { open(file); });
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
