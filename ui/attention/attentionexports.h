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
class WordRemovalPlot;

// The attention lab's File ▸ Export entries: the heatmap (image and CSV), the loss curve (image and
// CSV), the alignment plot, the embedding plot and the word removal plot, each enabled while there
// is something to export.
class AttentionExports : public QObject
{
    Q_OBJECT
public:
    AttentionExports(QWidget *dialogParent, InferencePanel *inference, LossPlot *loss, AlignmentPlot *alignment,
                     EmbeddingPanel *embeddings, WordRemovalPlot *wordRemoval, QObject *parent = nullptr);

    QList<QAction *> actions() const;
    QAction *heatmapAction() const { return m_heatmap; }
    QAction *alignmentAction() const { return m_alignmentPlot; }
    QAction *wordRemovalAction() const { return m_wordRemovalPlot; }
    void setAvailable(bool hasSentence, bool hasLoss, bool hasAlignment, bool hasModel, bool hasWordRemoval);

private:
    void exportHeatmap();
    void exportHeatmapCsv();
    void exportLossPlot();
    void exportLossCsv();
    void exportAlignmentPlot();
    void exportEmbeddings();
    void exportWordRemoval();
    template <typename Plot>
    void exportImage(const QString &title, const QString &defaultName, Plot *plot);
    template <typename Plot>
    void exportCsv(const QString &title, const QString &defaultName, Plot *plot);

    QWidget *m_dialogParent;
    InferencePanel *m_inference;
    LossPlot *m_loss;
    AlignmentPlot *m_alignment;
    EmbeddingPanel *m_embeddings;
    WordRemovalPlot *m_wordRemoval;
    QAction *m_heatmap;
    QAction *m_heatmapCsv;
    QAction *m_lossPlot;
    QAction *m_lossCsv;
    QAction *m_alignmentPlot;
    QAction *m_embeddingPlot;
    QAction *m_wordRemovalPlot;
};
