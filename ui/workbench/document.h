#pragma once

#include "ui/workbench/labinfo.h"

#include <QObject>
#include <QString>

// What a lab whose results are saved as files gives File ▸ Open, Save and Save As.
class DocumentContent
{
public:
    virtual ~DocumentContent() = default;
    virtual QString documentName() const = 0;  // what Save saves: "Model", "Vectors"
    virtual bool hasContent() const = 0;      // something to save
    // `type` is one of the lab's file types: the one that recognised the file, or the one chosen in
    // Save As. Failures leave what is open untouched and say why in `error`; no dialogs.
    virtual bool open(const QString &path, const FileType &type, QString *error) = 0;
    virtual bool save(const QString &path, const FileType &type, QString *error) = 0;
};

// One lab's open document: its file and the type it has, whether it holds unsaved results, and
// the name the window's title shows. The dialogs are the window's (WorkbenchFiles).
class Document : public QObject
{
    Q_OBJECT
public:
    Document(const QList<FileType> &types, DocumentContent *content, QObject *parent = nullptr);

    const QList<FileType> &types() const { return m_types; }
    bool hasContent() const { return m_content->hasContent(); }
    QString documentName() const { return m_content->documentName(); }
    QString currentFile() const { return m_currentFile; }
    const FileType &currentType() const;  // of the current file; the first type when there is none
    bool isModified() const { return m_modified && hasContent(); }
    QString title() const;  // the file's name, "untitled", the content's origin, or empty

    // New results that are not in any file yet, or content from elsewhere named `origin`.
    void setUnsaved();
    void setOrigin(const QString &origin);

    bool openFile(const QString &path, const FileType &type, QString *error = nullptr);
    bool saveFile(const QString &path, const FileType &type, QString *error = nullptr);
    // Saved as the type whose suffix `path` has, or the current file's type.
    bool saveFile(const QString &path, QString *error = nullptr);

signals:
    void changed();  // file, modified flag or content changed

private:
    int indexOf(const FileType &type) const;  // 0 for a type not the lab's
    void setCurrentFile(const QString &path, int type);

    QList<FileType> m_types;
    DocumentContent *m_content;
    QString m_currentFile;
    int m_currentType = 0;
    QString m_origin;
    bool m_modified = false;
};
