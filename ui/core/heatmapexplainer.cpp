#include "ui/core/heatmapexplainer.h"

#include "ui/core/attentionheatmap.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QMouseEvent>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

HeatmapExplainer::HeatmapExplainer(AttentionHeatmap *heatmap, QWidget *scope, Explain explain)
    : QObject(scope), m_heatmap(heatmap), m_explain(std::move(explain))
{
    m_action = new QAction(tr("E&xplain This Weight…"), this);
    m_action->setObjectName(QStringLiteral("explainWeightAction"));
    m_action->setShortcut(QKeySequence::WhatsThis);
    m_action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_action->setToolTip(tr("Show how the selected cell's weight is computed, with the model's own numbers "
                            "(%1, or double-click a cell)")
                             .arg(m_action->shortcut().toString(QKeySequence::NativeText)));
    scope->addAction(m_action);
    connect(m_action, &QAction::triggered, this, &HeatmapExplainer::explainSelected);

    // A window of its own, so it can sit beside the heatmap while cells are clicked.
    m_dialog = new QDialog(scope);
    m_dialog->setObjectName(QStringLiteral("explanationDialog"));
    m_dialog->setWindowTitle(tr("Explain This Weight"));
    m_dialog->setModal(false);
    // Focus stays on the heatmap, so the arrow keys go on moving the cell the window explains.
    m_dialog->setAttribute(Qt::WA_ShowWithoutActivating);
    m_view = new QTextBrowser;
    m_view->setObjectName(QStringLiteral("explanationView"));
    m_view->setOpenLinks(false);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, m_dialog, &QDialog::close);
    auto *layout = new QVBoxLayout(m_dialog);
    layout->addWidget(m_view, 1);
    layout->addWidget(buttons);
    m_dialog->resize(580, 640);

    connect(heatmap, &AttentionHeatmap::cellSelected, this, &HeatmapExplainer::refresh);
    connect(heatmap, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent *event) {
        // The cell under the pointer, found as a click finds it (a cell per unit of each axis).
        const QPointF at = event->position();
        const int row = int(std::floor(m_heatmap->yAxis->pixelToCoord(at.y()) + 0.5));
        const int column = int(std::floor(m_heatmap->xAxis->pixelToCoord(at.x()) + 0.5));
        if (!m_heatmap->axisRect()->rect().contains(at.toPoint()) || row < 0 || row >= m_heatmap->rows()
            || column < 0 || column >= m_heatmap->columns())
            return;
        if (row != m_heatmap->selectedRow() || column != m_heatmap->selectedColumn())
            m_heatmap->selectCell(row, column);
        explainSelected();
    });
}

void HeatmapExplainer::explainSelected()
{
    showSelected();
    if (!m_placed) {
        // First opened at the window's edge away from the heatmap, over the docks or the page beside
        // it, so the heatmap stays in view.
        const QRect window = m_heatmap->window()->geometry();
        const QPoint heatmapCentre = m_heatmap->mapToGlobal(m_heatmap->rect().center());
        const bool heatmapOnTheRight = heatmapCentre.x() > window.center().x();
        m_dialog->move(heatmapOnTheRight ? window.left() : std::max(window.left(), window.right() - m_dialog->width()),
                       window.top() + 40);
        m_placed = true;
    }
    m_dialog->show();
    m_dialog->raise();
}

void HeatmapExplainer::refresh()
{
    if (m_dialog->isVisible())
        showSelected();
}

void HeatmapExplainer::showSelected()
{
    const int row = m_heatmap->selectedRow();
    const int column = m_heatmap->selectedColumn();
    if (row < 0 || column < 0)
        m_view->setHtml(tr("<p>Select a cell of the heatmap (click it, or move to it with the arrow keys): "
                           "this window then shows how its weight was computed.</p>"));
    else
        m_view->setHtml(m_explain(row, column));
}
