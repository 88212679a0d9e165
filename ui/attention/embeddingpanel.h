#pragma once

#include "engine/core/embeddingprojection.h"
#include "ui/attention/metatypes.h"

#include <QWidget>

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

    QComboBox *m_side;
    QLineEdit *m_find;
    EmbeddingPlot *m_plot;
    QLabel *m_neighbours;
    QSplitter *m_splitter;
    EmbeddingTable m_table;  // what the plot shows
    ModelSnapshot m_model;
    QString m_description;
};
