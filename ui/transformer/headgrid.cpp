#include "ui/transformer/headgrid.h"

#include "ui/core/colorgradients.h"
#include "ui/core/plotexport.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>

namespace {

constexpr int kGap = 6;
constexpr int kLabelWidth = 56;   // "layer 6" before each row
constexpr int kLabelHeight = 18;  // "head 8" above each column

// The captions' font: a little smaller than the labels'.
QFont captionFont(const QFont &font)
{
    QFont small = font;
    small.setPointSizeF(small.pointSizeF() * 0.85);
    return small;
}

}  // namespace

HeadGrid::HeadGrid(QWidget *parent) : QWidget(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setAccessibleName(tr("Attention heads"));
}

void HeadGrid::setAttention(const LayeredAttention &attention)
{
    m_attention = attention;
    m_captions.clear();  // they describe the attention they came with
    if (m_layer >= layers() || m_head >= heads()) {
        m_layer = 0;
        m_head = 0;
    }
    update();
}

void HeadGrid::setCaptions(const std::vector<std::vector<QString>> &captions)
{
    m_captions = captions;
    update();
}

QString HeadGrid::caption(int layer, int head) const
{
    if (layer < 0 || layer >= int(m_captions.size()) || head < 0 || head >= int(m_captions[std::size_t(layer)].size()))
        return {};
    return m_captions[std::size_t(layer)][std::size_t(head)];
}

void HeadGrid::select(int layer, int head)
{
    if (layer < 0 || layer >= layers() || head < 0 || head >= heads())
        return;
    m_layer = layer;
    m_head = head;
    update();
    emit headSelected(layer, head);
}

void HeadGrid::setTokens(const QStringList &rows, const QStringList &columns)
{
    m_rowTokens = rows;
    m_columnTokens = columns;
}

int HeadGrid::squareSize(QSize area) const
{
    if (layers() == 0 || heads() == 0)
        return 0;
    const int across = (area.width() - kLabelWidth) / heads() - kGap;
    const int down = (area.height() - kLabelHeight) / layers() - kGap - captionHeight();
    return std::max(8, std::min(across, down));
}

int HeadGrid::captionWidth() const
{
    const QFontMetrics metrics(captionFont(font()));
    int widest = 0;
    for (const std::vector<QString> &layer : m_captions)
        for (const QString &caption : layer)
            for (const QString &line : caption.split(QLatin1Char('\n')))
                widest = std::max(widest, metrics.horizontalAdvance(line));
    return widest;
}

int HeadGrid::captionHeight() const
{
    int lines = 0;
    for (const std::vector<QString> &layer : m_captions)
        for (const QString &caption : layer)
            lines = std::max(lines, int(caption.count(QLatin1Char('\n'))) + 1);
    return lines == 0 ? 0 : lines * QFontMetrics(captionFont(font())).height() + 2;
}

QRect HeadGrid::squareRect(int layer, int head) const
{
    return squareRectIn(size(), layer, head);
}

QRect HeadGrid::squareRectIn(QSize area, int layer, int head) const
{
    const int size = squareSize(area);
    if (size == 0 || layer < 0 || layer >= layers() || head < 0 || head >= heads())
        return {};
    // A column is as wide as its caption where the width allows, so a caption wider than its square
    // is not cut by the next one; the square sits in its middle.
    const int across = (area.width() - kLabelWidth) / heads() - kGap;
    const int column = std::max(size, std::min(captionWidth(), across));
    return {kLabelWidth + head * (column + kGap) + (column - size) / 2,
            kLabelHeight + layer * (size + kGap + captionHeight()), size, size};
}

void HeadGrid::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    if (layers() == 0) {
        painter.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, tr("Type a sentence to see every head."));
        return;
    }
    paintGrid(painter, size(), true);
}

void HeadGrid::paintGrid(QPainter &painter, QSize area, bool outlineSelection) const
{
    painter.setFont(font());
    painter.setPen(palette().text().color());
    QCPColorGradient gradient = viridisGradient();
    const int rows = m_attention.rows;
    const int columns = m_attention.columns;
    for (int head = 0; head < heads(); ++head) {
        const QRect top = squareRectIn(area, 0, head);
        const int width = std::max(top.width(), captionWidth()) + kGap;
        painter.drawText(QRect(top.center().x() - width / 2, 0, width, kLabelHeight), Qt::AlignCenter,
                         tr("head %1").arg(head + 1));
    }
    for (int layer = 0; layer < layers(); ++layer) {
        const QRect left = squareRectIn(area, layer, 0);
        painter.drawText(QRect(0, left.top(), kLabelWidth - 4, left.height()), Qt::AlignRight | Qt::AlignVCenter,
                         tr("layer %1").arg(layer + 1));
        for (int head = 0; head < heads(); ++head) {
            const QRect square = squareRectIn(area, layer, head);
            const std::vector<float> &weights = m_attention.weights[std::size_t(layer)][std::size_t(head)];
            for (int r = 0; r < rows; ++r)
                for (int c = 0; c < columns; ++c) {
                    // Whole pixels, each cell from its own edge to the next's: no seams between them.
                    const int left = square.left() + square.width() * c / columns;
                    const int top = square.top() + square.height() * r / rows;
                    const QRect cell(left, top, square.left() + square.width() * (c + 1) / columns - left,
                                     square.top() + square.height() * (r + 1) / rows - top);
                    painter.fillRect(cell, QColor::fromRgb(gradient.color(weights[std::size_t(r * columns + c)],
                                                                          QCPRange(0, 1))));
                }
            const QString text = caption(layer, head);
            if (!text.isEmpty()) {
                painter.setFont(captionFont(font()));
                const int width = std::max(square.width(), captionWidth()) + kGap;
                painter.drawText(QRect(square.center().x() - width / 2, square.bottom() + 2, width, captionHeight()),
                                 Qt::AlignHCenter | Qt::AlignTop, text);
                painter.setFont(font());
            }
            if (outlineSelection && layer == m_layer && head == m_head) {
                painter.setPen(QPen(palette().highlight(), hasFocus() ? 3 : 2));
                painter.drawRect(square.adjusted(-2, -2, 1, 1));
                painter.setPen(palette().text().color());
            }
        }
    }
}

bool HeadGrid::exportImage(const QString &path, int width, int height, QString *error) const
{
    if (layers() == 0) {
        if (error)
            *error = tr("No attention heads to export: type a sentence first.");
        return false;
    }
    return exportPaintedImage(
        path, QSize(width, height),
        [this](QPainter &painter, const QRectF &area) {
            painter.translate(area.topLeft());
            paintGrid(painter, area.size().toSize(), false);
        },
        error);
}

bool HeadGrid::exportCsv(const QString &path, QString *error) const
{
    if (layers() == 0) {
        if (error)
            *error = tr("No attention heads to export: type a sentence first.");
        return false;
    }
    const auto token = [](const QStringList &tokens, int index) {
        return index < tokens.size() ? csvField(tokens[index]) : QString();
    };
    QString csv = QStringLiteral("layer,head,query_position,query,key_position,key,weight,head_caption\n");
    for (int layer = 0; layer < layers(); ++layer)
        for (int head = 0; head < heads(); ++head) {
            const std::vector<float> &weights = m_attention.weights[std::size_t(layer)][std::size_t(head)];
            const QString text = csvField(caption(layer, head).replace(QLatin1Char('\n'), QLatin1Char(' ')));
            for (int r = 0; r < m_attention.rows; ++r)
                for (int c = 0; c < m_attention.columns; ++c)
                    // One arg() call: a token holding "%1" must not be read as a place for the next value.
                    csv += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8\n")
                               .arg(QString::number(layer + 1), QString::number(head + 1), QString::number(r + 1),
                                    token(m_rowTokens, r), QString::number(c + 1), token(m_columnTokens, c),
                                    QString::number(double(weights[std::size_t(r * m_attention.columns + c)]), 'f', 6),
                                    text);
        }
    return writeFileAtomically(path, csv.toUtf8(), error);
}

void HeadGrid::mousePressEvent(QMouseEvent *event)
{
    for (int layer = 0; layer < layers(); ++layer)
        for (int head = 0; head < heads(); ++head)
            if (squareRect(layer, head).contains(event->position().toPoint())) {
                select(layer, head);
                return;
            }
    QWidget::mousePressEvent(event);
}

void HeadGrid::keyPressEvent(QKeyEvent *event)
{
    switch (event->key()) {
    case Qt::Key_Left: select(m_layer, m_head - 1); break;
    case Qt::Key_Right: select(m_layer, m_head + 1); break;
    case Qt::Key_Up: select(m_layer - 1, m_head); break;
    case Qt::Key_Down: select(m_layer + 1, m_head); break;
    default: QWidget::keyPressEvent(event);
    }
}
