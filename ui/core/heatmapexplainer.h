#pragma once

#include <QObject>
#include <QString>

#include <functional>

class AttentionHeatmap;
class QAction;
class QDialog;
class QTextBrowser;
class QWidget;

// "Explain this weight" for a heatmap: its action (Shift+F1, or a button that shows it) and a
// double-click on a cell open a non-modal window with the computation behind the selected cell's
// weight; while the window is open it follows the selection (click, arrow keys). A plain click
// only selects. The lab supplies the text: `explain(row, column)` returns HTML.
class HeatmapExplainer : public QObject
{
    Q_OBJECT
public:
    using Explain = std::function<QString(int row, int column)>;

    // The action's shortcut works while focus is inside `scope` (the lab's page).
    HeatmapExplainer(AttentionHeatmap *heatmap, QWidget *scope, Explain explain);

    QAction *action() const { return m_action; }
    QDialog *dialog() const { return m_dialog; }
    QTextBrowser *view() const { return m_view; }

    // Opens the window on the selected cell.
    void explainSelected();
    // The numbers behind the heatmap changed: an open window shows the selected cell again.
    void refresh();

private:
    void showSelected();

    AttentionHeatmap *m_heatmap;
    Explain m_explain;
    QAction *m_action;
    QDialog *m_dialog;
    QTextBrowser *m_view;
    bool m_placed = false;
};
