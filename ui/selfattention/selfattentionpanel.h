#pragma once

#include "engine/core/embeddingtable.h"
#include "engine/selfattention/scaleddotproductattention.h"
#include "ui/workbench/sharedattentionhead.h"
#include "ui/workbench/sharedembeddings.h"

#include <QWidget>

#include <vector>

class AttentionArrows;
class AttentionHeatmap;
class AttentionSteps;
class HeatmapExplainer;
class PredictionTable;
class QBoxLayout;
class QLabel;
class QPushButton;
class QScrollArea;
class QSettings;
class ReflectionBox;
class SelfAttentionControls;
struct SelfAttentionInputs;

// The self-attention exercise: type a short sentence, predict how much each word attends to
// each other word, then reveal the computed scaled dot-product attention step by step
// (X, W_Q, W_K, W_V, Q, K, V, scores, weights, output), as a heatmap, as arrows, and as the
// difference from the prediction, then answer the reflection questions from the weights. X comes
// from a seed or from trained embeddings, with or without positions; or X and the projections come
// from a trained head.
class SelfAttentionPanel : public QWidget
{
    Q_OBJECT
public:
    // More words make the tables and arrows unreadable and the prediction a chore.
    static constexpr int kMaxWords = 8;

    explicit SelfAttentionPanel(QWidget *parent = nullptr);

    // The trained embeddings the Trained source uses (another lab's, Workbench::shareEmbeddings).
    void setEmbeddings(const SharedEmbeddings &embeddings);
    // A trained head (another lab's, Workbench::shareAttentionHead) becomes the source of X, W_Q, W_K
    // and W_V, its biases folded in; the source can be switched back to random numbers.
    void setAttentionHead(const SharedAttentionHead &head);

    // The sentence, the source of X, d_model, d_k, the seed and predict-first.
    SelfAttentionControls *controls() const { return m_controls; }
    void saveSettings(QSettings &settings) const;
    void restoreSettings(QSettings &settings);

    bool hasResult() const { return m_hasResult; }
    const ScaledDotProductAttention &result() const { return m_result; }
    QStringList tokens() const { return m_tokens; }
    bool isRevealed() const;  // the computed weights are on screen
    QString inputMessage() const;  // what is wrong with the input; empty when fine

    // Checks the prediction; when it is valid, shows the computed weights and the differences.
    bool checkAndReveal();
    void revealWithoutPrediction();

    bool exportHeatmap(const QString &path, int width, int height, QString *error = nullptr);
    bool exportArrows(const QString &path, int width, int height, QString *error = nullptr) const;

    PredictionTable *predictionTable() const { return m_prediction; }
    AttentionHeatmap *heatmap() const { return m_heatmap; }
    AttentionArrows *arrows() const { return m_arrows; }
    HeatmapExplainer *explainer() const { return m_explainer; }
    ReflectionBox *reflection() const { return m_reflection; }
    QPushButton *revealButton() const { return m_revealButton; }

protected:
    void showEvent(QShowEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void onInputChanged();
    void recompute();
    bool buildInputs(SelfAttentionInputs *inputs);
    // The words of `sentence` as the current source reads them, or false and a message.
    bool wordsOf(const QString &sentence, std::vector<std::string> *words, QString *error) const;
    // X (with positions when they are on), W_Q, W_K and W_V for `words`, or false and a message.
    bool inputsFor(const std::vector<std::string> &words, SelfAttentionInputs *inputs, QString *error);
    bool computeAttention(const QString &sentence, std::vector<std::string> *words,
                          ScaledDotProductAttention *attention, QString *error);
    void showResults();
    void updateSourceControls();
    void arrangeForWidth(int width);
    void setInputMessage(const QString &message);
    void exportWithDialog(bool heatmap);

    SelfAttentionControls *m_controls;
    QLabel *m_inputMessage;
    QLabel *m_explanation;
    PredictionTable *m_prediction;
    QPushButton *m_revealButton;
    QPushButton *m_showButton;
    QPushButton *m_exportHeatmapButton;
    QPushButton *m_exportArrowsButton;
    QLabel *m_status;
    AttentionHeatmap *m_heatmap;
    AttentionArrows *m_arrows;
    HeatmapExplainer *m_explainer;
    AttentionSteps *m_steps;
    ReflectionBox *m_reflection;
    QScrollArea *m_scroll;
    QWidget *m_left;  // prediction and step-by-step tables
    QBoxLayout *m_columns;
    QBoxLayout *m_plots;
    QBoxLayout *m_views;  // heatmap and arrows: side by side when there is room

    SharedEmbeddings m_embeddings;
    SharedAttentionHead m_head;
    EmbeddingTable m_projected;        // m_embeddings in m_projectedDimensions
    const void *m_projectedFrom = nullptr;
    int m_projectedDimensions = 0;
    bool m_stale = true;               // recompute when next shown

    QStringList m_tokens;
    std::vector<std::string> m_words;
    std::vector<bool> m_known;
    ScaledDotProductAttention m_result;
    bool m_hasResult = false;
    bool m_revealed = false;
    bool m_compared = false;
};
