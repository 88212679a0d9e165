#pragma once

#include "engine/core/embeddingprojection.h"
#include "ui/attention/metatypes.h"
#include "ui/core/wordtrails.h"

#include <QWidget>

#include <memory>

class EpochReplay;

class EmbeddingPlot;
class QComboBox;
class QLabel;
class QLineEdit;
class QSplitter;

// The encoder's or the decoder's word embeddings projected to 2-D (PCA), with the nearest
// neighbours of the clicked word listed beside the plot. The engine computes both; this panel
// hands them to the plot and the list.
class EmbeddingPanel : public QWidget
{
    Q_OBJECT
public:
    enum class Side { Encoder, Decoder };
    static constexpr int kNeighbours = 5;

    explicit EmbeddingPanel(QWidget *parent = nullptr);

    // `description` names the snapshot, e.g. "epoch 4".
    void setModel(const ModelSnapshot &model, const QString &description);
    // Shows `epoch` of a run's history in place of the model: its map turned onto the last kept
    // epoch's, and trails of the selected word and its neighbours through their places up to that
    // epoch. A null replay goes back to the model.
    void showReplay(const std::shared_ptr<EpochReplay> &replay, int epoch);
    int trailLength(const QString &word) const { return m_trails.length(word); }  // 0: no trail
    Side side() const;
    void setSide(Side side);
    EmbeddingPlot *plot() const { return m_plot; }
    QLineEdit *findField() const { return m_find; }
    // Highlights the word and its kNeighbours nearest words and lists them; out of range clears.
    void selectWord(int index);
    QByteArray saveState() const;  // where the plot/neighbours divider sits
    bool restoreState(const QByteArray &state);

private:
    void refresh();
    void showNeighbours(int index, const std::vector<WordNeighbour> &neighbours);
    void findWord();
    void updateTrails();
    const std::vector<EmbeddingProjection> &replayMaps() const;
    std::size_t replayIndex() const;  // of the shown epoch in replayMaps()

    QComboBox *m_side;
    QLineEdit *m_find;
    EmbeddingPlot *m_plot;
    QLabel *m_neighbours;
    QSplitter *m_splitter;
    EmbeddingTable m_table;  // what the plot shows
    ModelSnapshot m_model;
    QString m_description;
    std::shared_ptr<EpochReplay> m_replay;
    int m_replayEpoch = 0;
    WordTrails m_trails;
};
