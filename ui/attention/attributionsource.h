#pragma once

#include "engine/attention/attribution.h"
#include "ui/attention/metatypes.h"

#include <QObject>
#include <QString>

class AttributionRunner;
class QTimer;

// How long typing must pause before the sentence is explained.
constexpr int kTypingPauseMs = 250;

// The typed sentence explained by the attribution methods, for the views that show it: the
// heatmap's method switch, the step scores, the small multiples of the clicked row and the
// contrastive box. Follows the sentence and the model of the Reverse page; the computation runs off
// the GUI thread (AttributionRunner) and arrives as attributionChanged(). The clicked output row is
// kept here too, so every view shows the same step.
class AttributionSource : public QObject
{
    Q_OBJECT
public:
    explicit AttributionSource(QObject *parent = nullptr);

    // Explains `text` with `model`, unless it is what is shown or asked already.
    void setSentence(const ModelSnapshot &model, const QString &text);
    // What the views on screen need, so only that is computed: attention and the step scores
    // always, the heatmap's method on every row, and while the comparison of methods is shown,
    // every method on the clicked row. The sentence is explained again when something now needed
    // is missing.
    void setHeatmapMethod(AttributionMethod method);
    void setEveryMethodShown(bool shown);
    AttributionOptions neededOptions() const;
    // A result computed elsewhere (and the one the runner delivers).
    void setAttribution(const SentenceAttribution &attribution);

    bool hasAttribution() const { return m_has; }
    const SentenceAttribution &attribution() const { return m_attribution; }
    bool computing() const { return m_computing; }
    QString message() const { return m_message; }  // why there is no attribution; empty with one
    ModelSnapshot model() const { return m_model; }
    // Whether the attribution explains `sentence` (the same input and output tokens).
    bool explains(const DecodedSentence &sentence) const;

    int selectedRow() const { return m_row; }  // -1: none
    void selectRow(int row);                   // out of range clears

    // Why this word and not `alternative`, at the selected row; arrives as contrasted().
    void contrast(const std::string &alternative);
    bool hasContrast() const { return m_hasContrast; }
    // A contrast asked while the sentence was being explained, asked of the runner once it is.
    bool contrastWaiting() const { return !m_contrastWaiting.empty(); }
    const ContrastiveAttribution &contrastResult() const { return m_contrast; }
    // Words the model can write at a step, for the contrastive box: its vocabulary without the
    // markers (<PAD>, <SOS>, <UNK>), and with the pointer the source words it can copy.
    QStringList writableWords() const;

    AttributionRunner *runner() const { return m_runner; }

signals:
    void attributionChanged();
    void rowSelected(int row);
    void contrasted();
    void contrastFailed(const QString &message);

private:
    void showMessage(const QString &message);
    void explain(bool afterPause);
    void explainWhatIsMissing();
    bool hasOrIsComputing(AttributionMethod method, int gradientRow) const;

    AttributionRunner *m_runner;
    QTimer *m_pause;  // the explanation waits for typing to pause
    ModelSnapshot m_model;
    QString m_text;
    bool m_has = false;
    bool m_computing = false;
    QString m_message;
    SentenceAttribution m_attribution;
    int m_row = -1;
    bool m_hasContrast = false;
    bool m_contrastAsked = false;
    std::string m_contrastWaiting;  // asked while the sentence was being explained
    ContrastiveAttribution m_contrast;
    AttributionMethod m_heatmapMethod = AttributionMethod::Attention;
    bool m_everyMethodShown = false;
    AttributionOptions m_requested;  // of the computation under way
};
