#include "ui/core/widgetexport.h"

#include "ui/core/plotexport.h"

#include <QPainter>
#include <QWidget>

#include <algorithm>

bool exportWidgetImage(QWidget &widget, const QString &path, int width, int height, QString *error)
{
    const QSize shown = widget.size().expandedTo(QSize(1, 1));
    return exportPaintedImage(
        path, QSize(width, height),
        [&widget, shown](QPainter &painter, const QRectF &rect) {
            // One scale for both directions keeps the text's proportions; the image's spare side stays white.
            const double scale = std::min(rect.width() / shown.width(), rect.height() / shown.height());
            painter.save();
            painter.translate(rect.topLeft());
            painter.scale(scale, scale);
            widget.render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
            painter.restore();
        },
        error);
}
