// AttentionHeatmap fitted to the size it is shown at: the title, the column labels' angle and how
// many of them are named, and whether the numbers fit in the cells.
#include "ui/core/attentionheatmap.h"

#include "ui/core/plotstyle.h"
#include "ui/core/plottheme.h"

#include <algorithm>
#include <cmath>

namespace {

// Free pixels wanted between neighbouring tick labels before they are rotated.
constexpr int kLabelGap = 6;

}  // namespace

// A long sentence pair breaks after its arrow; a line still too wide is elided in the middle.
void AttentionHeatmap::fitTitle()
{
    // The title stands over the plot's column, beside the colour scale's.
    const int available = viewport().width() - m_scale->outerRect().width() - 16;
    const QFontMetrics metrics(m_title->font());
    QStringList lines{m_fullTitle};
    const QString arrow = QStringLiteral("  →  ");
    if (metrics.horizontalAdvance(m_fullTitle) > available && m_fullTitle.contains(arrow)) {
        const int at = m_fullTitle.indexOf(arrow);
        lines = QStringList{m_fullTitle.left(at) + QStringLiteral("  →"), m_fullTitle.mid(at + arrow.size())};
    }
    for (QString &line : lines)
        line = metrics.elidedText(line, Qt::ElideMiddle, std::max(available, 40));
    m_title->setText(lines.join(QLatin1Char('\n')));
}

void AttentionHeatmap::adaptToViewport()
{
    fitTitle();
    updateFootnote();
    updateGeometry();
    if (columns() == 0 || rows() == 0) {
        // A message is wrapped to the width the plot had: again to this one.
        if (m_message->visible()) {
            updateLayout();
            showPlotMessage(*this, *m_message, m_message->text().replace(QLatin1Char('\n'), QLatin1Char(' ')));
        }
        return;
    }
    // A margin-group member reports max(current, own) margins, so a margin grown for rotated labels
    // would never shrink back; the axis rect alone should decide.
    m_scale->setMargins(QMargins());
    updateLayout();
    const QFontMetrics tickMetrics(xAxis->tickLabelFont());
    int widest = 0;
    for (const QString &label : std::as_const(m_columnLabels))
        widest = std::max(widest, tickMetrics.horizontalAdvance(label));
    const double cellWidth = double(axisRect()->width()) / columns();
    double rotation = 0;
    if (widest + kLabelGap > cellWidth)
        rotation = tickMetrics.height() * std::sqrt(2.0) + kLabelGap <= cellWidth ? -45 : -90;
    // Columns narrower than an upright label: every step-th column is named, hovering names any.
    const int step = rotation == -90 ? std::max(1, int(std::ceil((tickMetrics.height() + 1) / cellWidth))) : 1;
    if (rotation != xAxis->tickLabelRotation() || step != m_columnLabelStep) {
        xAxis->setTickLabelRotation(rotation);
        showColumnLabels(step);
        m_scale->setMargins(QMargins());
        updateLayout();
    }

    if (m_cellTexts.isEmpty())
        return;
    const double width = double(axisRect()->width()) / columns();
    const double height = double(axisRect()->height()) / rows();
    QFont font = xAxis->tickLabelFont();
    const QString widestNumber = m_map->dataRange().lower < 0 ? QStringLiteral("-0.00") : QStringLiteral("0.00");
    bool fits = false;
    // 10 down to 7 points at the design size, grown with the view scale (View ▸ Zoom).
    for (double size = 10 * viewScale(); size >= 7 * viewScale() - 1e-9 && !fits; size -= 0.5) {
        font.setPointSizeF(size);
        const QFontMetrics metrics(font);
        fits = metrics.horizontalAdvance(widestNumber) + 4 <= width && metrics.height() + 2 <= height;
    }
    for (QCPItemText *text : std::as_const(m_cellTexts)) {
        text->setFont(font);
        text->setVisible(fits);
    }
}

void AttentionHeatmap::showColumnLabels(int step)
{
    m_columnLabelStep = step;
    auto ticker = qSharedPointerCast<QCPAxisTickerText>(xAxis->ticker());
    ticker->clear();
    for (int column = 0; column < m_columnLabels.size(); column += step)
        ticker->addTick(column, m_columnLabels[column]);
}
