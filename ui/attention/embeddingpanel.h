#pragma once

#include "ui/attention/metatypes.h"

#include <QWidget>

class EmbeddingPlot;
class QComboBox;
class QLabel;
class QSplitter;

// The encoder's or the decoder's word embeddings projected to 2-D (PCA), with the nearest
// neighbours of the clicked word listed beside the plot.
class EmbeddingPanel : public QWidget
{
    Q_OBJECT
public:
    enum class Side { Encoder, Decoder };

    explicit EmbeddingPanel(QWidget *parent = nullptr);

    // `description` names the snapshot, e.g. "epoch 4".
    void setModel(const ModelSnapshot &model, const QString &description);
    Side side() const;
    void setSide(Side side);
    EmbeddingPlot *plot() const { return m_plot; }
    QByteArray saveState() const;  // where the plot/neighbours divider sits
    bool restoreState(const QByteArray &state);

private:
    void refresh();
    void showNeighbours(const QString &word, const QStringList &neighbours);

    QComboBox *m_side;
    EmbeddingPlot *m_plot;
    QLabel *m_neighbours;
    QSplitter *m_splitter;
    ModelSnapshot m_model;
    QString m_description;
};
