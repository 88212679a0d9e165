#pragma once

#include <QList>
#include <QObject>
#include <QString>

#include <functional>

class AlignmentPlot;
class EmbeddingPanel;
class ExportActions;
class HistoryScrubber;
class InferencePanel;
class LossPlot;
class QAction;
class QWidget;
class RunComparisonView;
class WordRemovalPlot;

// The attention lab's File ▸ Export entries: the heatmap (image and CSV), the loss curve (image and
// CSV), the alignment plot, the embedding plot, the word removal plot, the frames of the run's
// history and the runs side by side (exact match by length, CSV), each enabled while there is
// something to export.
class AttentionExports : public QObject
{
    Q_OBJECT
public:
    AttentionExports(QWidget *dialogParent, InferencePanel *inference, LossPlot *loss, AlignmentPlot *alignment,
                     EmbeddingPanel *embeddings, WordRemovalPlot *wordRemoval, HistoryScrubber *history,
                     RunComparisonView *comparison, QObject *parent = nullptr);

    QList<QAction *> actions() const;
    QAction *heatmapAction() const { return m_heatmap; }
    QAction *alignmentAction() const { return m_alignmentPlot; }
    QAction *wordRemovalAction() const { return m_wordRemovalPlot; }
    QAction *historyFramesAction() const { return m_historyFrames; }
    QAction *comparedRunsAction() const { return m_runsCsv; }
    void setAvailable(bool hasSentence, bool hasLoss, bool hasAlignment, bool hasModel, bool hasWordRemoval,
                      bool hasHistory, bool hasComparedRuns);

    // Shows each kept epoch in turn and writes heatmap_NNN.png and embeddings_NNN.png for it into
    // `folder`, NNN counting the frames from 001; the epoch shown before comes back after. `progress`
    // hears of each frame before it is written (done, total) and may answer false to stop. False with
    // `error` when a file cannot be written; the frames written until then stay.
    bool writeHistoryFrames(const QString &folder, QString *error,
                            const std::function<bool(int, int)> &progress = {});

private:
    void exportHistoryFrames();

    QWidget *m_dialogParent;
    InferencePanel *m_inference;
    EmbeddingPanel *m_embeddings;
    HistoryScrubber *m_history;
    ExportActions *m_exports;
    QAction *m_heatmap;
    QAction *m_heatmapCsv;
    QAction *m_lossPlot;
    QAction *m_lossCsv;
    QAction *m_alignmentPlot;
    QAction *m_embeddingPlot;
    QAction *m_wordRemovalPlot;
    QAction *m_historyFrames;
    QAction *m_runsByLength;
    QAction *m_runsCsv;
};
