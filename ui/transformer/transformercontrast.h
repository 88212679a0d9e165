#pragma once

#include "engine/core/contrastiveattribution.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <string>
#include <vector>

class ContrastBox;
class TransformerAttributionRunner;
class TransformerMethodView;
struct TransformerSnapshot;

// The Transformer panel's contrastive box: for the output word clicked in the cross-attention, why
// that word and not another, by every method of the method view's explanation
// (attributeTransformerContrast). The contrast runs on a runner of its own, so that asking for one
// never supersedes the explanation under way; one asked while the clicked word is still being
// explained is computed once that explanation arrives.
class TransformerContrast : public QObject
{
    Q_OBJECT
public:
    explicit TransformerContrast(TransformerMethodView *methods, QObject *parent = nullptr);

    ContrastBox *box() const { return m_box; }
    bool hasContrast() const { return m_has; }
    const ContrastiveAttribution &contrast() const { return m_contrast; }
    bool waiting() const { return !m_waiting.isEmpty(); }  // asked while the word was being explained
    // Words the model can write at a step: its vocabulary without <PAD>, <SOS> and <UNK>.
    QStringList writableWords() const;

signals:
    void contrastChanged();  // one shown, or none any more

private:
    bool ready() const;
    void followStep();
    void ask(const QString &alternative);
    // Whether a contrast of the asked step still fits the step shown: same weights, sentence, row.
    bool fitsShown(const ContrastiveAttribution &contrast) const;

    TransformerMethodView *m_methods;
    ContrastBox *m_box;
    TransformerAttributionRunner *m_runner;
    QString m_waiting;
    int m_waitingRow = -1;
    bool m_ready = false;   // as ready() was when the box last followed the step
    bool m_asking = false;  // a contrast is being computed
    bool m_has = false;
    ContrastiveAttribution m_contrast;
    // The step the contrast under way was asked for.
    std::shared_ptr<const TransformerSnapshot> m_askedOf;
    std::vector<std::string> m_askedSource;
    std::vector<std::string> m_askedOutput;
};
