#pragma once

#include "engine/core/beamsearch.h"
#include "engine/transformer/transformermodel.h"

#include <QWidget>

#include <string>
#include <vector>

class BeamView;
class QDoubleSpinBox;
class QSpinBox;
struct TransformerSnapshot;

// The Transformer panel's beam search: its width and length penalty α as a row of controls, and
// the n-best list with what each step kept (view(), which the panel places and shows while the width
// is above 1). Width 1 decodes greedily, as the panel always did.
class TransformerBeamBox : public QWidget
{
    Q_OBJECT
public:
    explicit TransformerBeamBox(QWidget *parent = nullptr);

    BeamOptions options() const;  // up to 5 hypotheses listed
    void setOptions(const BeamOptions &options);
    BeamView *view() const { return m_view; }

    // `words` decoded with `snapshot`'s weights: greedily at width 1, else by beam search, its
    // hypotheses listed in view() and the winner returned. Throws as decodeWords() and
    // beamDecodeWords() do, and std::runtime_error when no hypothesis has a finite probability.
    TransformerOutput decode(const TransformerSnapshot &snapshot, const std::vector<std::string> &words);
    void clear();
    // The last beam search's hypotheses, best first; none after greedy decoding.
    const std::vector<ScoredTransformerOutput> &hypotheses() const { return m_hypotheses; }

signals:
    void optionsChanged();
    // Another hypothesis was chosen in view(): an index of hypotheses().
    void hypothesisSelected(int index);

private:
    QSpinBox *m_width;
    QDoubleSpinBox *m_alpha;
    BeamView *m_view;
    std::vector<ScoredTransformerOutput> m_hypotheses;
};
