#include "ui/charlm/charvaluetext.h"

#include "ui/core/colorgradients.h"
#include "ui/core/plotexport.h"

#include <QFontDatabase>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace {

constexpr int kStripMargin = 6;
constexpr int kStripHeight = 7;
constexpr int kStripRowGap = 3;

}

QColor divergingColour(double t)
{
    const QColor blue(33, 102, 172), white(247, 247, 247), red(178, 24, 43);
    const QColor &end = t < 0 ? blue : red;
    const double s = std::min(1.0, std::abs(t));
    return QColor::fromRgbF(float(white.redF() + (end.redF() - white.redF()) * s),
                            float(white.greenF() + (end.greenF() - white.greenF()) * s),
                            float(white.blueF() + (end.blueF() - white.blueF()) * s));
}

QString visibleCharacter(char32_t c)
{
    if (c == U'\n')
        return QStringLiteral("↵");
    if (c == U'\t')
        return QStringLiteral("→");
    if (c < 0x20 || c == 0x7f)
        return QStringLiteral("·");
    return QString::fromUcs4(&c, 1);
}

CharValueText::CharValueText(Style style, QWidget *parent)
    : QWidget(parent), m_style(style), m_gradient(viridisGradient())
{
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    font.setPointSize(12);
    setFont(font);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    QSizePolicy policy = sizePolicy();
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
    setMouseTracking(true);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);
}

void CharValueText::setCells(std::vector<Cell> cells, double low, double high)
{
    m_cells = std::move(cells);
    m_low = low;
    m_high = high > low ? high : low + 1;
    if (m_selected >= int(m_cells.size()))
        m_selected = -1;
    int rows = 0;
    m_placed = layoutFor(width(), &rows);
    updateGeometry();
    update();
}

void CharValueText::setPlaceholder(const QString &text)
{
    m_placeholder = text;
    update();
}

void CharValueText::setSelected(int index)
{
    m_selected = index >= 0 && index < int(m_cells.size()) ? index : -1;
    update();
}

QColor CharValueText::colourOf(double value) const
{
    if (m_style == Style::Background)
        return divergingColour(value / std::max(std::abs(m_low), std::abs(m_high)));
    return m_gradient.color(value, QCPRange(m_low, m_high));
}

int CharValueText::cellWidth() const
{
    return std::max(1, fontMetrics().horizontalAdvance(QLatin1Char('M')));
}

int CharValueText::lineHeight() const
{
    return fontMetrics().height() + (m_style == Style::Strip ? kStripHeight + 2 * kStripRowGap : kStripRowGap);
}

int CharValueText::columnsFor(int width) const
{
    return std::max(8, (width - 2 * kStripMargin) / cellWidth());
}

std::vector<CharValueText::Placed> CharValueText::layoutFor(int width, int *rows) const
{
    const int columns = columnsFor(width);
    std::vector<Placed> placed(m_cells.size());
    int row = 0, column = 0;
    for (size_t i = 0; i < m_cells.size(); ++i) {
        const char32_t c = m_cells[i].character;
        // A word that would cross the edge starts the next line, unless it fills a line on its own.
        const bool startsWord = c != U' ' && c != U'\n' && (i == 0 || m_cells[i - 1].character == U' ');
        if (startsWord && column > 0) {
            size_t end = i;
            while (end < m_cells.size() && m_cells[end].character != U' ' && m_cells[end].character != U'\n')
                ++end;
            if (column + int(end - i) > columns && int(end - i) <= columns) {
                ++row;
                column = 0;
            }
        }
        if (column >= columns) {
            ++row;
            column = 0;
        }
        placed[i] = {row, column};
        ++column;
        if (c == U'\n') {
            ++row;
            column = 0;
        }
    }
    if (rows)
        *rows = m_cells.empty() ? 1 : (column == 0 ? row : row + 1);
    return placed;
}

int CharValueText::heightForWidth(int width) const
{
    int rows = 0;
    layoutFor(width, &rows);
    return 2 * kStripMargin + std::max(1, rows) * lineHeight();
}

QSize CharValueText::sizeHint() const
{
    const int width = std::max(300, this->width());
    return {width, heightForWidth(width)};
}

QSize CharValueText::minimumSizeHint() const
{
    return {8 * cellWidth() + 2 * kStripMargin, lineHeight() + 2 * kStripMargin};
}

void CharValueText::resizeEvent(QResizeEvent *event)
{
    int rows = 0;
    m_placed = layoutFor(width(), &rows);
    QWidget::resizeEvent(event);
}

QRect CharValueText::cellRect(const Placed &p) const
{
    return {kStripMargin + p.column * cellWidth(), kStripMargin + p.row * lineHeight(), cellWidth(), lineHeight()};
}

int CharValueText::cellAt(const QPoint &point) const
{
    for (size_t i = 0; i < m_placed.size(); ++i)
        if (cellRect(m_placed[i]).contains(point))
            return int(i);
    return -1;
}

void CharValueText::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    if (m_cells.empty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect().adjusted(kStripMargin, kStripMargin, -kStripMargin, -kStripMargin), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
                         m_placeholder);
        return;
    }
    paintText(painter, m_placed);
}

void CharValueText::paintText(QPainter &painter, const std::vector<Placed> &placed) const
{
    painter.setFont(font());
    const QColor grey(140, 140, 140);
    const int textHeight = fontMetrics().height();
    for (size_t i = 0; i < m_cells.size(); ++i) {
        const Cell &cell = m_cells[i];
        const QRect box = cellRect(placed[i]);
        const QRect textBox(box.left(), box.top(), box.width(), textHeight);
        QColor ink = cell.hasValue ? palette().color(QPalette::Text) : grey;
        if (cell.hasValue && m_style == Style::Background) {
            const QColor fill = colourOf(cell.value);
            painter.fillRect(textBox, fill);
            ink = contrastingTextColor(fill);
        }
        if (cell.hasValue && m_style == Style::Strip)
            painter.fillRect(QRect(box.left(), box.top() + textHeight + kStripRowGap, box.width(), kStripHeight),
                             colourOf(cell.value));
        const bool special = cell.character == U'\n' || cell.character == U'\t' || cell.character < 0x20;
        painter.setPen(special ? grey : ink);
        painter.drawText(textBox, Qt::AlignCenter, visibleCharacter(cell.character));
        if (int(i) == m_selected) {
            painter.setPen(QPen(palette().color(QPalette::Highlight), 2));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(textBox.adjusted(0, 0, -1, -1));
        }
    }
}

bool CharValueText::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int index = cellAt(help->pos());
        if (index < 0) {
            QToolTip::hideText();
            event->ignore();
            return true;
        }
        const Cell &c = m_cells[size_t(index)];
        const QString text = m_toolTip ? m_toolTip(index)
                             : c.hasValue ? QStringLiteral("%1: %2").arg(visibleCharacter(c.character)).arg(c.value, 0, 'f', 3)
                                          : visibleCharacter(c.character);
        QToolTip::showText(help->globalPos(), text, this, cellRect(m_placed[size_t(index)]));
        return true;
    }
    return QWidget::event(event);
}

void CharValueText::mousePressEvent(QMouseEvent *event)
{
    const int index = cellAt(event->position().toPoint());
    if (index >= 0) {
        setSelected(index);
        emit cellClicked(index);
    }
    QWidget::mousePressEvent(event);
}

bool CharValueText::exportImage(const QString &path, QString *error) const
{
    // Twice the screen's pixels, so the text stays sharp in a document.
    constexpr double kScale = 2;
    const int width = std::max(this->width(), minimumSizeHint().width());
    int rows = 0;
    const std::vector<Placed> placed = layoutFor(width, &rows);
    return exportPaintedImage(path, QSize(width, heightForWidth(width)),
                              [&](QPainter &painter, const QRectF &) { paintText(painter, placed); }, error, kScale);
}

QString wholePercent(double probability)
{
    return probability < 0.005 ? QStringLiteral("<1%") : QStringLiteral("%1%").arg(std::lround(100 * probability));
}
