#pragma once

#include <QList>
#include <QObject>

class ExportActions;
class FaithfulnessPage;
class QAction;
class QWidget;
class RowAttributionView;
class StepScoresTable;

// File ▸ Export entries of the attribution views, each as an image (PNG, PDF, SVG, JPEG) and as
// CSV: the step scores, the small multiples of the clicked row, the contrast, and the Faithfulness
// page's curves and agreement table. Each is enabled while its view has something to export.
class AttributionExports : public QObject
{
    Q_OBJECT
public:
    AttributionExports(QWidget *dialogParent, StepScoresTable *steps, RowAttributionView *row,
                       FaithfulnessPage *faithfulness, QObject *parent = nullptr);

    QList<QAction *> actions() const;
    void setAvailable(bool hasSteps, bool hasRow, bool hasContrast, bool hasFaithfulness);

private:
    ExportActions *m_exports;
    QList<QAction *> m_steps;
    QList<QAction *> m_row;
    QList<QAction *> m_contrast;
    QList<QAction *> m_faithfulness;
};
