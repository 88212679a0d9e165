#pragma once

#include "engine/transformer/attentionrollout.h"
#include "engine/transformer/transformermodel.h"
#include "ui/workbench/sharedattentionhead.h"

#include <QStringList>
#include <QWidget>

#include <memory>

class AttentionHeatmap;
class HeadGrid;
class HeatmapExplainer;
class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSplitter;
class QTabWidget;
class TransformerBeamBox;
class TransformerContrast;
class TransformerMethodView;
struct TransformerSnapshot;

// Type a sentence and see the Transformer's output, then every head of one of its three
// attentions (the encoder's self-attention, the decoder's, the decoder's over the encoder) as a
// grid, layers down and heads across; the head picked there is drawn full size beside it, with the
// heatmap's hover, click and keyboard, and Explain This Weight for the selected cell. A head of the
// encoder's self-attention can be opened in the self-attention explorer. A beam wider than 1
// lists its best hypotheses under the head; the one chosen there is the output shown.
class TransformerReversePanel : public QWidget
{
    Q_OBJECT
public:
    enum class Kind { Cross, EncoderSelf, DecoderSelf };

    explicit TransformerReversePanel(QWidget *parent = nullptr);

    // The weights to decode with; null: none yet.
    void setSnapshot(std::shared_ptr<const TransformerSnapshot> snapshot);
    const std::shared_ptr<const TransformerSnapshot> &snapshot() const { return m_snapshot; }
    // Below the grid of heads, beside the full-size head: the lab's loss curve. While the beam is
    // wider than 1 its hypotheses are a tab beside it, and `title` names its tab.
    void addUnderGrid(QWidget *widget, const QString &title);
    void setText(const QString &text);
    QString text() const;
    void setKind(Kind kind);
    // Whether the heatmap shows the rollout of the shown attention across layers instead of one head.
    void setRolledOut(bool on);
    bool rolledOut() const;
    Kind kind() const;
    TransformerAttentionKind attentionKind() const;  // the engine's name for kind()
    // The output shown: the greedy one, or the beam's hypothesis chosen (its winner at first).
    const TransformerOutput &output() const { return m_output; }
    QString outputText() const;  // as the panel shows it, without markup
    bool hasOutput() const { return !m_output.outputTokens.empty(); }
    AttentionHeatmap *heatmap() const { return m_heatmap; }
    HeadGrid *headGrid() const { return m_grid; }
    HeatmapExplainer *explainer() const { return m_explainer; }
    TransformerBeamBox *beamBox() const { return m_beam; }
    // Explain by: the cross-attention's head, or an attribution method's map, with the step scores.
    TransformerMethodView *methodView() const { return m_methods; }
    // Why the clicked output word and not another: a tab beside the methods'.
    TransformerContrast *contrast() const { return m_contrast; }
    // Offers the head shown to the self-attention explorer (headOffered); only a head of the
    // encoder's self-attention fits it.
    QAction *openInExplorerAction() const { return m_openInExplorer; }
    QString cellText() const;

signals:
    void decoded();
    // The encoder self-attention head shown, on the sentence shown, from the snapshot's weights.
    void headOffered(const SharedAttentionHead &head);

private:
    QWidget *createHeadView();
    void decode();
    void updateBeamTab();
    void showFailure(const QString &message, const QString &shortMessage);
    void showHypothesis(int index);
    void showOutput(int hypothesis);
    void showAttention();
    void showHead(int layer, int head);
    void showCell(int row, int column);
    void offerHead();
    const LayeredAttention &shownAttention() const;
    // What the shown attention's rows and columns stand for.
    QStringList rowTokens() const;
    QStringList columnTokens() const;
    RolloutMatrix rollout() const;

    std::shared_ptr<const TransformerSnapshot> m_snapshot;
    TransformerOutput m_output;
    QLineEdit *m_input;
    TransformerBeamBox *m_beam;
    QLabel *m_outputView;
    QLabel *m_modelInfo;
    QComboBox *m_kind;
    QCheckBox *m_rollout;
    HeadGrid *m_grid;
    AttentionHeatmap *m_heatmap;
    QLabel *m_cellInfo;
    HeatmapExplainer *m_explainer;
    QAction *m_openInExplorer;
    QTabWidget *m_underGrid;
    TransformerMethodView *m_methods;
    TransformerContrast *m_contrast;
    // The cell followed: kept while another head of the same attention is shown.
    int m_row = -1;
    int m_column = -1;
};
