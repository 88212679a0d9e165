#include "ui/workbench/document.h"

#include <QFileInfo>

#include <algorithm>

Document::Document(const QList<FileType> &types, DocumentContent *content, QObject *parent)
    : QObject(parent), m_types(types), m_content(content)
{
    Q_ASSERT(!m_types.isEmpty() && m_content);
}

const FileType &Document::currentType() const
{
    return m_types.at(m_currentType);
}

QString Document::title() const
{
    if (!m_currentFile.isEmpty())
        return QFileInfo(m_currentFile).fileName();
    if (hasContent() && m_modified)
        return tr("untitled %1").arg(documentName().toLower());
    return hasContent() ? m_origin : QString();
}

void Document::setUnsaved()
{
    m_modified = true;
    m_currentFile.clear();
    emit changed();
}

void Document::setOrigin(const QString &origin)
{
    m_origin = origin;
    m_modified = false;
    m_currentFile.clear();
    emit changed();
}

bool Document::openFile(const QString &path, const FileType &type, QString *error)
{
    QString problem;
    if (!m_content->open(path, type, &problem)) {
        if (error)
            *error = problem;
        return false;
    }
    m_modified = false;
    setCurrentFile(path, indexOf(type));
    return true;
}

bool Document::saveFile(const QString &path, const FileType &type, QString *error)
{
    if (!hasContent()) {
        if (error)
            *error = tr("There is nothing to save yet.");
        return false;
    }
    if (!m_content->save(path, type, error))
        return false;
    m_modified = false;
    setCurrentFile(path, indexOf(type));
    return true;
}

int Document::indexOf(const FileType &type) const
{
    const auto found = std::find_if(m_types.cbegin(), m_types.cend(),
                                    [&](const FileType &t) { return t.suffixes == type.suffixes; });
    return found == m_types.cend() ? 0 : int(found - m_types.cbegin());
}

bool Document::saveFile(const QString &path, QString *error)
{
    const QString suffix = QFileInfo(path).suffix();
    for (const FileType &type : std::as_const(m_types))
        if (type.suffixes.contains(suffix, Qt::CaseInsensitive))
            return saveFile(path, type, error);
    return saveFile(path, currentType(), error);
}

void Document::setCurrentFile(const QString &path, int type)
{
    m_currentFile = path;
    m_currentType = type;
    if (!path.isEmpty())
        m_origin = QFileInfo(path).fileName();
    emit changed();
}
