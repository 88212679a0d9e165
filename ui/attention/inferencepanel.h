#pragma once

#include "engine/core/beamsearch.h"
#include "engine/attention/decodedsentence.h"
#include "ui/attention/metatypes.h"

#include <QWidget>

class AttentionHeatmap;
class BeamView;
class ElidedLabel;
class HeatmapExplainer;
class QDoubleSpinBox;
class QSpinBox;
class QComboBox;
class QLabel;
class QAction;
class QHBoxLayout;
class QLineEdit;
class QVBoxLayout;
class QTimer;
class QToolButton;

// Type a sentence, see the model's output as you type and where it looked: the input and output
// tokens (unknown and copied words marked) above a clickable attention heatmap.
class InferencePanel : public QWidget
{
    Q_OBJECT
public:
    enum class Choice { Best, Latest };

    explicit InferencePanel(QWidget *parent = nullptr);

    // Snapshots to decode with; `description` says where each came from (shown beside the choice).
    void setBestModel(const ModelSnapshot &model, const QString &description);
    void setLatestModel(const ModelSnapshot &model, const QString &description);
    void setModel(const ModelSnapshot &model, const QString &description);  // both at once
    ModelSnapshot currentModel() const;
    // While set, decodes with `model` (an epoch of the run's history, see HistoryScrubber) whatever
    // the choice says; null goes back to the choice.
    void setReplayModel(const ModelSnapshot &model, const QString &description);
    // Shown instead of output while there is no model to decode with; the short form on the heatmap.
    void setNoModelMessage(const QString &message, const QString &shortMessage);
    Choice choice() const;
    void setChoice(Choice choice);

    QString text() const;
    void setText(const QString &text);  // decodes at once
    bool hasSentence() const { return m_hasSentence; }
    const DecodedSentence &sentence() const { return m_sentence; }
    QString outputText() const;  // the words the model produced, or empty

    int highlightedOutputToken() const { return m_row; }  // -1: none
    int highlightedSourceToken() const { return m_column; }
    AttentionHeatmap *heatmap() const { return m_heatmap; }
    HeatmapExplainer *explainer() const { return m_explainer; }
    QLineEdit *inputField() const { return m_input; }
    BeamView *beamView() const { return m_beamView; }

    // Outlines, on the heatmap, the source word each output word must come from (the task's known
    // alignment). A checkable action (Ctrl+L while the panel has focus).
    QAction *rightCellsAction() const { return m_rightCellsAction; }
    bool rightCellsShown() const;
    void setRightCellsShown(bool shown);

    // Another control in a row just above the heatmap, and a view under it.
    void addHeatmapControl(QWidget *control);
    void addUnderHeatmap(QWidget *view);

    // Width 1 decodes greedily; wider shows the n-best list and the beam's steps.
    BeamOptions beamOptions() const;
    void setBeamOptions(const BeamOptions &options);

signals:
    void sentenceDecoded();

private:
    void decode();
    void showEmpty(const QString &message, const QString &shortMessage);
    void selectCell(int row, int column, double weight);
    void renderTokens();
    void updateModelInfo();

    QLineEdit *m_input;
    QComboBox *m_choice;
    ElidedLabel *m_modelInfo;
    QLabel *m_sourceView;
    QLabel *m_outputView;
    QLabel *m_cellInfo;
    QLabel *m_notice;
    QHBoxLayout *m_heatmapControls;
    QToolButton *m_rightCellsButton;
    QWidget *m_lastBeforeControls;  // the lab's heatmap controls come next in the tab chain
    QVBoxLayout *m_heatmapColumn;
    AttentionHeatmap *m_heatmap;
    HeatmapExplainer *m_explainer;
    QAction *m_rightCellsAction;
    QSpinBox *m_beamWidth;
    QDoubleSpinBox *m_alpha;
    BeamView *m_beamView;
    QTimer *m_debounce;

    ModelSnapshot m_best;
    ModelSnapshot m_latest;
    ModelSnapshot m_replay;
    QString m_replayDescription;
    QString m_bestDescription;
    QString m_latestDescription;
    QString m_noModelMessage = tr("No model yet — press Train (F5)");
    QString m_noModelShortMessage = m_noModelMessage;
    DecodedSentence m_sentence;
    bool m_hasSentence = false;
    int m_row = -1;
    int m_column = -1;
};
