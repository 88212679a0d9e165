#include "ui/workbench/labswitcher.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QEvent>

LabSwitcher::LabSwitcher(QWidget *parent) : QToolBar(tr("Labs"), parent), m_group(new QActionGroup(this))
{
    setObjectName(QStringLiteral("labSwitcher"));
    setAccessibleName(tr("Lab switcher"));
    setOrientation(Qt::Vertical);
    setMovable(false);
    setFloatable(false);
    setAllowedAreas(Qt::LeftToolBarArea);
    setToolButtonStyle(Qt::ToolButtonTextUnderIcon);
    setIconSize(QSize(28, 28));
    followApplicationFont();
    m_group->setExclusive(true);
}

QAction *LabSwitcher::addEntry(const QIcon &icon, const QString &text, const QString &toolTip)
{
    const int index = int(m_entries.size());
    auto *action = new QAction(icon, text, m_group);
    action->setCheckable(true);
    action->setToolTip(toolTip);
    action->setObjectName(QStringLiteral("labSwitcherEntry%1").arg(index));
    connect(action, &QAction::triggered, this, [this, index] { emit chosen(index); });
    addAction(action);
    m_entries << action;
    m_toolTips << toolTip;
    return action;
}

void LabSwitcher::followApplicationFont()
{
    // Smaller than the window's text: the bar takes its width from the page beside it.
    QFont small = QApplication::font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    setFont(small);
}

bool LabSwitcher::event(QEvent *event)
{
    if (event->type() == QEvent::ApplicationFontChange)
        followApplicationFont();
    return QToolBar::event(event);
}

QAction *LabSwitcher::entry(int index) const
{
    return m_entries.value(index);
}

void LabSwitcher::setCurrent(int index)
{
    if (QAction *action = entry(index))
        action->setChecked(true);
}

void LabSwitcher::setBusy(int index, bool busy)
{
    QAction *action = entry(index);
    if (!action)
        return;
    QString text = action->text();
    const QString mark = QStringLiteral(" ●");
    if (text.endsWith(mark))
        text.chop(mark.size());
    action->setText(busy ? text + mark : text);
    action->setToolTip(busy ? tr("%1 — running").arg(m_toolTips.at(index)) : m_toolTips.at(index));
}
