#pragma once

#include "engine/transformer/transformerattribution.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>

class AttentionHeatmap;
class AttributionStripsPlot;
class QComboBox;
class QLabel;
class QTimer;
class StepScoresTable;
class TransformerAttributionRunner;
struct TransformerSnapshot;

// The Transformer panel's "Explain by" switch and what it feeds: the cross-attention heatmap shows
// the selected head's weights, or one attribution method's map of the output steps over the source
// words (engine/transformer/transformerattribution.h); under it the step scores, and beside it every
// method's row for the clicked output word as small multiples under a line saying how far the
// methods agree on it (Spearman's ρ, as the RNN's views have). The sentence is explained off the GUI
// thread once typing pauses; the methods explain the greedy output, so a beam hypothesis that differs
// from it gets a note instead of a map.
class TransformerMethodView : public QObject
{
    Q_OBJECT
public:
    explicit TransformerMethodView(QObject *parent = nullptr);

    QComboBox *selector() const { return m_selector; }
    QLabel *caption() const { return m_caption; }
    StepScoresTable *stepScores() const { return m_steps; }
    AttributionStripsPlot *smallMultiples() const { return m_strips; }
    QLabel *agreementLine() const { return m_agreement; }
    QWidget *methodsTab() const { return m_methodsTab; }  // the agreement line over the small multiples

    // The method shown, or none for the head's own weights.
    bool showsMethod() const;
    AttributionMethod method() const;  // meaningful with showsMethod()
    void setMethod(const std::optional<AttributionMethod> &method);  // nullopt: head weights
    QString methodName() const;                       // for the settings: a method's CLI name, or "heads"
    void setMethodName(const QString &name);          // an unknown name leaves the choice as it is

    // Explains `words` with `snapshot` once typing pauses.
    void setSentence(const std::shared_ptr<const TransformerSnapshot> &snapshot, const std::vector<std::string> &words);
    // The output the panel shows, to tell whether the explanation (of the greedy output) fits it.
    void setShownOutput(const std::vector<std::string> &outputTokens);
    void selectRow(int row);  // the clicked output word, -1: none
    int selectedRow() const { return m_row; }

    const std::shared_ptr<const TransformerSnapshot> &snapshot() const { return m_snapshot; }
    bool hasAttribution() const { return m_has; }
    bool computing() const { return m_computing; }
    const TransformerAttribution &attribution() const { return m_attribution; }
    bool fitsShownOutput() const;  // the explanation (of the greedy output) is of the output shown

    // Draws the method's map on `heatmap` when a method is chosen and `cross` (the cross-attention
    // is shown), and returns true; otherwise restores attention's colour scale and returns false.
    bool paint(AttentionHeatmap &heatmap, bool cross);
    // What the method map's cell (row, column) says, as HTML.
    QString cellText(int row, int column) const;

signals:
    void changed();     // anything shown here: the step scores, the small multiples
    void mapChanged();  // what paint() draws: a new explanation, its state, or the method
    void attributionChanged();  // a new explanation, or one under way, or none
    void rowSelected(int row);

private:
    AttributionOptions neededOptions() const;
    bool covers(const std::vector<AttributionMethod> &methods, int gradientRow, const AttributionOptions &needed) const;
    void explain(bool afterPause);
    void explainWhatIsMissing();
    void setAttribution(const TransformerAttribution &attribution);
    void showMessage(const QString &message);
    QString greedyOnlyNote() const;
    void updateViews();

    QComboBox *m_selector;
    QLabel *m_caption;
    StepScoresTable *m_steps;
    AttributionStripsPlot *m_strips;
    QLabel *m_agreement;
    QWidget *m_methodsTab;
    TransformerAttributionRunner *m_runner;
    QTimer *m_pause;
    std::shared_ptr<const TransformerSnapshot> m_snapshot;
    std::vector<std::string> m_words;
    std::vector<std::string> m_shownOutput;
    TransformerAttribution m_attribution;
    bool m_has = false;
    bool m_computing = false;
    AttributionOptions m_requested;  // of the computation under way
    QString m_message;               // why there is no explanation
    int m_row = -1;
    bool m_methodColors = false;  // the heatmap holds a method's colour scale
};
