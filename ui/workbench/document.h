#pragma once

#include <QObject>
#include <QString>

class QMainWindow;
class QMenu;

// What a lab whose results are saved as files gives the window's File menu.
class DocumentContent
{
public:
    virtual ~DocumentContent() = default;
    virtual QString fileFilter() const = 0;       // "AttnScope models (*.ckpt)"
    virtual QString defaultSuffix() const = 0;    // "ckpt"
    virtual QString openFilter() const { return fileFilter(); }  // what Open lists, when it reads more
    virtual bool hasContent() const = 0;          // something to save
    // Failures leave what is open untouched and say why in `error`; no dialogs.
    virtual bool open(const QString &path, QString *error) = 0;
    virtual bool save(const QString &path, QString *error) = 0;
};

// The open document: its file, whether it holds unsaved results, the recent files, the window
// title, and the Open/Save dialogs. What is in it belongs to the lab that set the content.
class Document : public QObject
{
    Q_OBJECT
public:
    explicit Document(QMainWindow *window);

    void setContent(DocumentContent *content) { m_content = content; }
    bool hasContent() const { return m_content && m_content->hasContent(); }
    QString currentFile() const { return m_currentFile; }
    bool isModified() const { return m_modified; }

    // New results that are not in any file yet, or content from elsewhere named `origin`.
    void setUnsaved();
    void setOrigin(const QString &origin);

    bool openFile(const QString &path, QString *error = nullptr);
    bool saveFile(const QString &path, QString *error = nullptr);

    // The same with dialogs, for the File menu.
    void openWithDialog();
    void openRecent(const QString &path);
    bool save();
    bool saveAs();
    // Save As with a filter and suffix of the content's other kind of file (a project).
    bool saveAsFormat(const QString &filter, const QString &suffix);
    // Asks whether to save unsaved results; false: the user cancelled. `running`: training goes on.
    bool maybeSave(bool running);

    QMenu *recentMenu() const { return m_recentMenu; }

signals:
    void changed();  // file, modified flag or content changed
    void opened(const QString &path);

private:
    void setCurrentFile(const QString &path);
    void addRecentFile(const QString &path);
    void updateRecentMenu();
    void updateTitle();

    QMainWindow *m_window;
    QMenu *m_recentMenu;
    DocumentContent *m_content = nullptr;
    QString m_currentFile;
    QString m_origin;
    bool m_modified = false;
};
