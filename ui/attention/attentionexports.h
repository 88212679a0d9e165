#pragma once

#include <QList>
#include <QObject>
#include <QString>

class AlignmentPlot;
class EmbeddingPanel;
class InferencePanel;
class LossPlot;
class QAction;
class QWidget;

// The attention lab's File ▸ Export entries: the heatmap (image and CSV), the loss curve (image and
// CSV), the alignment plot and the embedding plot, each enabled while there is something to export.
class AttentionExports : public QObject
{
    Q_OBJECT
public:
    AttentionExports(QWidget *dialogParent, InferencePanel *inference, LossPlot *loss, AlignmentPlot *alignment,
                     EmbeddingPanel *embeddings, QObject *parent = nullptr);

    QList<QAction *> actions() const;
    QAction *heatmapAction() const { return m_heatmap; }
    QAction *alignmentAction() const { return m_alignmentPlot; }
    void setAvailable(bool hasSentence, bool hasLoss, bool hasAlignment, bool hasModel);

private:
    void exportHeatmap();
    void exportHeatmapCsv();
    void exportLossPlot();
    void exportLossCsv();
    void exportAlignmentPlot();
    void exportEmbeddings();
    template <typename Plot>
    void exportImage(const QString &title, const QString &defaultName, Plot *plot);
    template <typename Plot>
    void exportCsv(const QString &title, const QString &defaultName, Plot *plot);

    QWidget *m_dialogParent;
    InferencePanel *m_inference;
    LossPlot *m_loss;
    AlignmentPlot *m_alignment;
    EmbeddingPanel *m_embeddings;
    QAction *m_heatmap;
    QAction *m_heatmapCsv;
    QAction *m_lossPlot;
    QAction *m_lossCsv;
    QAction *m_alignmentPlot;
    QAction *m_embeddingPlot;
};
