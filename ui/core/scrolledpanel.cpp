#include "ui/core/scrolledpanel.h"

#include <QScrollArea>
#include <QScrollBar>

QScrollArea *scrolledPanel(QWidget *widget)
{
    auto *area = new QScrollArea;
    area->setWidget(widget);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    area->setMinimumWidth(widget->minimumSizeHint().width() + area->verticalScrollBar()->sizeHint().width());
    return area;
}
