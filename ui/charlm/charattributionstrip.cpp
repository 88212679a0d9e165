#include "ui/charlm/charattributionstrip.h"

#include "ui/charlm/charvaluetext.h"
#include "ui/core/colorgradients.h"

#include <QFontDatabase>
#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace {

constexpr int kMargin = 6;
constexpr int kRowGap = 3;     // between a chunk's rows
constexpr int kChunkGap = 12;  // between the chunks a long context wraps into
constexpr int kCellPadding = 5;

QString methodTitle(CharAttributionMethod method)
{
    return QString::fromUtf8(charAttributionMethodTitle(method));
}

}

const std::vector<CharAttributionMethod> &charAttributionMethods()
{
    static const std::vector<CharAttributionMethod> methods = {CharAttributionMethod::Saliency,
                                                               CharAttributionMethod::IntegratedGradients};
    return methods;
}

CharAttributionStrip::CharAttributionStrip(QWidget *parent) : QWidget(parent), m_labelFont(font())
{
    // Every property set, so that the painter does not fill the unset ones from the cells' font.
    m_labelFont.setResolveMask(QFont::AllPropertiesResolved);
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    font.setPointSize(12);
    setFont(font);
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
    setMouseTracking(true);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);
}

void CharAttributionStrip::setAttribution(const CharAttribution &attribution)
{
    m_attribution = attribution;
    updateGeometry();
    update();
}

void CharAttributionStrip::clear(const QString &placeholder)
{
    m_attribution = {};
    m_placeholder = placeholder;
    updateGeometry();
    update();
}

double CharAttributionStrip::shareOfLargest(CharAttributionMethod method, int index) const
{
    const std::vector<double> &scores = m_attribution.scores(method);
    double largest = 0;
    for (double s : scores)
        largest = std::max(largest, std::abs(s));
    return largest > 0 ? scores.at(size_t(index)) / largest : 0;
}

QColor CharAttributionStrip::colourAt(CharAttributionMethod method, int index) const
{
    return divergingColour(shareOfLargest(method, index));
}

int CharAttributionStrip::labelWidth() const
{
    int widest = 0;
    for (CharAttributionMethod method : charAttributionMethods())
        widest = std::max(widest, QFontMetrics(m_labelFont).horizontalAdvance(methodTitle(method)));
    return widest + 12;
}

int CharAttributionStrip::cellWidth() const
{
    return fontMetrics().horizontalAdvance(QLatin1Char('M')) + kCellPadding;
}

int CharAttributionStrip::rowHeight() const
{
    return fontMetrics().height() + kCellPadding;
}

int CharAttributionStrip::columnsFor(int width) const
{
    // Room is kept after the last column for the character explained.
    return std::max(8, (width - 2 * kMargin - labelWidth()) / cellWidth() - 2);
}

// Cell `index` of row `method`; index == the explained count is the character explained.
QRect CharAttributionStrip::cellRect(int index, int method, int width) const
{
    const int columns = columnsFor(width);
    const int count = int(m_attribution.characters.size());
    int chunk = index / columns, column = index % columns;
    int gap = 0;
    if (index == count && count > 0) {
        chunk = (count - 1) / columns;
        column = (count - 1) % columns + 1;
        gap = cellWidth() / 2;
    }
    const int rows = int(charAttributionMethods().size());
    const int top = kMargin + chunk * (rows * (rowHeight() + kRowGap) + kChunkGap) + method * (rowHeight() + kRowGap);
    return {kMargin + labelWidth() + column * cellWidth() + gap, top, cellWidth(), rowHeight()};
}

int CharAttributionStrip::paintedHeight(int width) const
{
    const int count = std::max<int>(1, int(m_attribution.characters.size()));
    const int chunks = (count - 1) / columnsFor(width) + 1;
    const int rows = int(charAttributionMethods().size());
    return 2 * kMargin + chunks * rows * (rowHeight() + kRowGap) + (chunks - 1) * kChunkGap;
}

QSize CharAttributionStrip::sizeHint() const
{
    const int width = std::max(400, this->width());
    return {width, paintedHeight(width)};
}

QSize CharAttributionStrip::minimumSizeHint() const
{
    return {labelWidth() + 12 * cellWidth() + 2 * kMargin, paintedHeight(labelWidth() + 12 * cellWidth())};
}

int CharAttributionStrip::cellAt(const QPoint &point) const
{
    for (int i = 0; i < int(m_attribution.characters.size()); ++i)
        for (int method = 0; method < int(charAttributionMethods().size()); ++method)
            if (cellRect(i, method, width()).contains(point))
                return i;
    return -1;
}

void CharAttributionStrip::paint(QPainter &painter, int width) const
{
    painter.setFont(font());
    const int count = int(m_attribution.characters.size());
    const int columns = columnsFor(width);
    const QColor grey(140, 140, 140);
    const QColor ink = palette().color(QPalette::Text);
    for (int method = 0; method < int(charAttributionMethods().size()); ++method) {
        const CharAttributionMethod m = charAttributionMethods()[size_t(method)];
        for (int i = 0; i < count; ++i) {
            const QRect box = cellRect(i, method, width);
            if (i % columns == 0) {
                painter.setPen(ink);
                painter.setFont(m_labelFont);
                painter.drawText(QRect(kMargin, box.top(), labelWidth() - 8, box.height()),
                                 Qt::AlignRight | Qt::AlignVCenter, methodTitle(m));
                painter.setFont(font());
            }
            const QColor fill = colourAt(m, i);
            painter.fillRect(box, fill);
            const char32_t c = m_attribution.characters[size_t(i)];
            painter.setPen(c == U'\n' || c == U'\t' || c < 0x20 ? grey : contrastingTextColor(fill));
            painter.drawText(box, Qt::AlignCenter, visibleCharacter(c));
        }
        if (count == 0)
            continue;
        const QRect next = cellRect(count, method, width);
        painter.setPen(QPen(palette().color(QPalette::Highlight), 2));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(next.adjusted(1, 1, -1, -1));
        painter.setPen(ink);
        painter.drawText(next, Qt::AlignCenter, visibleCharacter(m_attribution.next));
    }
}

void CharAttributionStrip::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    if (!hasAttribution()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect().adjusted(kMargin, kMargin, -kMargin, -kMargin),
                         Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, m_placeholder);
        return;
    }
    paint(painter, width());
}

bool CharAttributionStrip::event(QEvent *event)
{
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    auto *help = static_cast<QHelpEvent *>(event);
    const int index = cellAt(help->pos());
    if (index < 0) {
        QToolTip::hideText();
        event->ignore();
        return true;
    }
    const int before = int(m_attribution.characters.size()) - index;
    QString text = tr("%1 at position −%2 (−1 is the last character read):")
                       .arg(visibleCharacter(m_attribution.characters[size_t(index)]))
                       .arg(before);
    for (CharAttributionMethod method : charAttributionMethods())
        text += tr("\n%1 %2 (%3% of the row's largest)")
                    .arg(methodTitle(method))
                    .arg(m_attribution.scores(method)[size_t(index)], 0, 'g', 3)
                    .arg(std::lround(100 * shareOfLargest(method, index)));
    QToolTip::showText(help->globalPos(), text, this);
    return true;
}
