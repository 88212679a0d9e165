#include "ui/core/exportactions.h"

#include <QAction>

ExportActions::ExportActions(QWidget *dialogParent, QObject *parent) : QObject(parent), m_dialogParent(dialogParent)
{
}

QAction *ExportActions::add(const QString &text, const std::function<void(const QString &title)> &run)
{
    auto *action = new QAction(text, this);
    const QString title = QString(text).remove(QLatin1Char('&')).remove(QStringLiteral("…"));
    connect(action, &QAction::triggered, this, [run, title] { run(title); });
    m_actions << action;
    return action;
}

QAction *ExportActions::addImage(const QString &text, const QString &defaultName, const QWidget *shownAs,
                                 ImageWriter write)
{
    return add(text, [this, defaultName, shownAs, write = std::move(write)](const QString &title) {
        exportImageWithDialog(m_dialogParent, title, defaultName, shownAs, write);
    });
}

QAction *ExportActions::addFile(const QString &text, const QString &defaultName, const QString &filters,
                                FileWriter write)
{
    return add(text, [this, defaultName, filters, write = std::move(write)](const QString &title) {
        exportFileWithDialog(m_dialogParent, title, defaultName, filters, write);
    });
}
