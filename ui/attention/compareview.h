#pragma once

#include "engine/attention/attentioncomparison.h"
#include "ui/attention/metatypes.h"
#include "ui/workbench/shareddecoder.h"

#include <QVector>
#include <QWidget>

#include <map>

class AttentionHeatmap;
class QComboBox;
class QLabel;
class QLineEdit;
class QTimer;
class QToolButton;
class WeightHistory;

// Two models side by side on one sentence. Each side picks a model: the best or latest of the
// run, an epoch the run's weight history keeps, a finished Experiments run, a model file or a
// model another lab shares (the Transformer lab's, its attention one matrix it names). Both
// outputs stand above their attention heatmaps; a third heatmap below shows B - A in blue (less)
// to red (more), taken along A's output with B fed A's words, so each row compares the same step.
class CompareView : public QWidget
{
    Q_OBJECT
public:
    enum class Side { A, B };

    // `history` is the lab's, read when an epoch is picked.
    explicit CompareView(const WeightHistory &history, QWidget *parent = nullptr);

    // The run's models; `description` says where each came from (the picker's tooltip). These and
    // the calls below compare again after a short pause, once for a burst of them.
    void setBestModel(const ModelSnapshot &model, const QString &description);
    void setLatestModel(const ModelSnapshot &model, const QString &description);
    // The history changed; `restarted`: it was cleared (a new run, a model opened), so the epochs
    // read from it before are another run's.
    void historyChanged(bool restarted);
    void clearExperimentModels();
    void addExperimentModel(const QString &label, const ModelSnapshot &model);
    // Another lab's model, in place of the one of the same architecture it offered before.
    void setDecoder(const SharedDecoder &decoder);

    QString sentence() const;
    void setSentence(const QString &text);  // compares at once
    QLineEdit *sentenceField() const { return m_sentence; }

    // The picks by key: "best", "latest", "epoch:<k>", "run:<i>" (Experiments run i, 0 first),
    // "decoder:<i>" (the i-th other lab's model, 0 first) or "file" (the file loaded for that
    // side). False for a key not offered now.
    bool pick(Side side, const QString &key);
    QString pickedKey(Side side) const;
    // Reads a checkpoint for `side` and picks it; false with `error` for a bad file.
    bool loadFile(Side side, const QString &path, QString *error);
    QComboBox *picker(Side side) const;

    // Compared while the page is shown; what changes while it is hidden is compared when it shows.
    bool hasComparison() const { return m_hasComparison; }
    const AttentionComparison &comparison() const { return m_comparison; }
    AttentionHeatmap *heatmap(Side side) const;
    AttentionHeatmap *differenceMap() const { return m_difference; }
    QLabel *differenceNote() const { return m_differenceNote; }

signals:
    void sentenceEdited(const QString &text);

protected:
    void showEvent(QShowEvent *event) override;

private:
    struct Pane {
        QComboBox *picker = nullptr;
        QLabel *output = nullptr;
        AttentionHeatmap *heatmap = nullptr;
        QString key;  // what is picked; empty: nothing
        ModelSnapshot file;
        QString fileName;
    };
    Pane &pane(Side side) { return side == Side::A ? m_a : m_b; }
    const Pane &pane(Side side) const { return side == Side::A ? m_a : m_b; }
    QWidget *createPane(Side side);
    QWidget *createDifferencePane();
    void modelsChanged();
    void rebuildPickers();
    void pickerActivated(Side side);
    void openFile(Side side);
    ModelSnapshot modelFor(const Pane &pane);
    ComparedModel comparedFor(const Pane &pane);  // what is picked, of either architecture
    const SharedDecoder *decoderFor(const Pane &pane) const;  // null for a model of this lab
    void compare();
    void showMessage(const QString &message);
    void showOutputs();
    void showDifference();
    void exportHeatmap(AttentionHeatmap *heatmap, const QString &title, const QString &defaultName);

    const WeightHistory &m_history;
    QLineEdit *m_sentence;
    QTimer *m_debounce;
    QToolButton *m_export;
    Pane m_a, m_b;
    AttentionHeatmap *m_difference = nullptr;  // created after the panes, so Tab reaches it last
    QLabel *m_differenceNote = nullptr;

    ModelSnapshot m_best, m_latest;
    QString m_bestDescription, m_latestDescription;
    std::map<int, ModelSnapshot> m_epochModels;  // read from the history when first picked
    QVector<QPair<QString, ModelSnapshot>> m_runs;
    QVector<SharedDecoder> m_decoders;  // other labs' models, one per architecture
    AttentionComparison m_comparison;
    bool m_hasComparison = false;
    bool m_stale = false;  // something changed while the page was hidden
};
