#pragma once

#include <QToolBar>

class QActionGroup;

// The bar at the window's left edge that chooses the room shown: the start page, then one entry
// per lab with its icon and name, as Qt Creator's mode bar does. One entry is checked at a time.
class LabSwitcher : public QToolBar
{
    Q_OBJECT
public:
    explicit LabSwitcher(QWidget *parent = nullptr);

    // Entries are numbered in the order they are added, from 0.
    QAction *addEntry(const QIcon &icon, const QString &text, const QString &toolTip);
    QAction *entry(int index) const;
    void setCurrent(int index);
    // Marks the entry whose lab is running a job, so a run goes on being seen from another lab.
    void setBusy(int index, bool busy);

signals:
    void chosen(int index);

protected:
    bool event(QEvent *event) override;

private:
    void followApplicationFont();

    QActionGroup *m_group;
    QList<QAction *> m_entries;
    QList<QString> m_toolTips;
};
