#pragma once

#include <QHash>
#include <QList>
#include <QObject>
#include <QString>

class Document;
class Lab;
class QMenu;
class QWidget;
struct FileType;
struct LabInfo;

// The labs' files: File ▸ Open, Open Recent, Save and Save As, files dropped on the window or named
// on the command line, and the question before quitting. A file opens in the lab whose file types
// recognise its first bytes, whatever its name; Save acts on the shown lab's document.
class WorkbenchFiles : public QObject
{
    Q_OBJECT
public:
    explicit WorkbenchFiles(QWidget *window);

    // A lab with a document (Lab::documentContent) gets one, with the file types of `info`.
    void addLab(Lab *lab, const LabInfo &info);
    Document *document(const Lab *lab) const { return m_documents.value(lab); }
    QMenu *recentMenu() const { return m_recentMenu; }

    // The lab and type that recognise the first bytes of `path`; null, with `error` saying why, when
    // none does or the file cannot be read.
    Lab *labOf(const QString &path, const FileType **type, QString *error) const;
    // Opens `path` in its lab (openingLab first, so the window shows it); false with `error`.
    bool openFile(const QString &path, QString *error = nullptr);
    // The same, telling the user how it went.
    void open(const QString &path);
    // Asks for a file, the shown lab's types listed first.
    void openWithDialog(const Lab *shown);
    bool save(Lab *lab);
    // Asks where to save `lab`'s document; `only`: offer just this type (Save Project…).
    bool saveAs(Lab *lab, const FileType *only = nullptr);
    // Asks whether to save each lab's unsaved work before the window closes; false: cancelled.
    // `running`: a run is still going and will be stopped.
    bool confirmClose(bool running);

signals:
    void openingLab(Lab *lab);
    void changed();  // a document's file, modified flag or content changed

private:
    bool openIn(Lab *lab, const QString &path, const FileType &type, QString *error);
    bool maybeSave(Lab *lab);  // asks about `lab`'s unsaved work before another file replaces it
    bool writeTo(Lab *lab, const QString &path, const FileType &type);
    void addRecentFile(const QString &path);
    void updateRecentMenu();

    QWidget *m_window;
    QMenu *m_recentMenu;
    QList<Lab *> m_labs;  // in the order they were added
    QHash<const Lab *, Document *> m_documents;
    QHash<const Lab *, QString> m_names;
};
