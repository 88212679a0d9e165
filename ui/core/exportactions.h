#pragma once

#include "ui/core/exportdialog.h"

#include <QList>
#include <QObject>

class QAction;
class QWidget;

// A lab's File ▸ Export entries, each an action that asks where, writes and tells how it went
// (exportImageWithDialog, exportFileWithDialog). The dialog's title is the entry's text.
class ExportActions : public QObject
{
    Q_OBJECT
public:
    ExportActions(QWidget *dialogParent, QObject *parent);

    // The view as an image (PNG, PDF, SVG or JPEG) of at least the size it has on screen.
    QAction *addImage(const QString &text, const QString &defaultName, const QWidget *shownAs, ImageWriter write);
    template <typename View>
    QAction *addImage(const QString &text, const QString &defaultName, View *view)
    {
        return addImage(text, defaultName, view, [view](const QString &path, int width, int height, QString *error) {
            return view->exportImage(path, width, height, error);
        });
    }
    // A file of the lab's own: text, CSV.
    QAction *addFile(const QString &text, const QString &defaultName, const QString &filters, FileWriter write);

    const QList<QAction *> &actions() const { return m_actions; }

private:
    QAction *add(const QString &text, const std::function<void(const QString &title)> &run);

    QWidget *m_dialogParent;
    QList<QAction *> m_actions;
};
