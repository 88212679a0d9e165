#include "ui/attention/embeddingpanel.h"

#include "engine/attention/epochreplay.h"
#include "engine/core/projectionseries.h"
#include "ui/core/embeddingplot.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <exception>

EmbeddingPanel::EmbeddingPanel(QWidget *parent) : QWidget(parent), m_plot(new EmbeddingPlot), m_trails(m_plot)
{
    m_side = new QComboBox;
    m_side->addItem(tr("Encoder embeddings"), int(Side::Encoder));
    m_side->addItem(tr("Decoder embeddings"), int(Side::Decoder));
    m_side->setToolTip(tr("The vectors the encoder learned for input words, or the decoder for output words."));

    m_find = new QLineEdit;
    m_find->setObjectName(QStringLiteral("findEmbeddingWord"));
    m_find->setPlaceholderText(tr("Find a word…"));
    m_find->setClearButtonEnabled(true);
    m_find->setAccessibleName(tr("Find a word in the embedding map"));

    m_plot->setObjectName(QStringLiteral("embeddingPlot"));
    m_plot->setMinimumSize(200, 160);
    m_plot->setToolTip(tr("Each point is a word; nearby points have similar vectors. Click a word, "
                          "or find one and step to its neighbours with the arrow keys."));
    m_neighbours = new QLabel;
    m_neighbours->setObjectName(QStringLiteral("neighbours"));
    m_neighbours->setWordWrap(true);
    m_neighbours->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_neighbours->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_neighbours->setMinimumWidth(90);
    m_neighbours->setMargin(4);

    m_splitter = new QSplitter(Qt::Horizontal);
    m_splitter->setObjectName(QStringLiteral("embeddingSplitter"));
    m_splitter->addWidget(m_plot);
    m_splitter->addWidget(m_neighbours);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 0);
    m_splitter->setChildrenCollapsible(false);

    auto *top = new QHBoxLayout;
    top->addWidget(m_side);
    top->addWidget(m_find, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_splitter, 1);

    connect(m_side, &QComboBox::currentIndexChanged, this, &EmbeddingPanel::refresh);
    connect(m_find, &QLineEdit::returnPressed, this, &EmbeddingPanel::findWord);
    connect(m_plot, &EmbeddingPlot::wordClicked, this, &EmbeddingPanel::selectWord);
    refresh();
}

void EmbeddingPanel::findWord()
{
    const QString text = m_find->text().trimmed();
    if (!text.isEmpty() && m_plot->findWord(text) < 0)
        m_neighbours->setText(tr("<i>\"%1\" is not among these words.</i>").arg(text.toHtmlEscaped()));
}

void EmbeddingPanel::setModel(const ModelSnapshot &model, const QString &description)
{
    m_model = model;
    m_description = description;
    refresh();
}

void EmbeddingPanel::showReplay(const std::shared_ptr<EpochReplay> &replay, int epoch)
{
    m_replay = replay;
    m_replayEpoch = epoch;
    refresh();
}

QByteArray EmbeddingPanel::saveState() const
{
    return m_splitter->saveState();
}

bool EmbeddingPanel::restoreState(const QByteArray &state)
{
    return m_splitter->restoreState(state);
}

EmbeddingPanel::Side EmbeddingPanel::side() const
{
    return Side(m_side->currentData().toInt());
}

void EmbeddingPanel::setSide(Side side)
{
    m_side->setCurrentIndex(m_side->findData(int(side)));
}

void EmbeddingPanel::refresh()
{
    const int selected = m_plot->selectedWord();
    m_table = EmbeddingTable{};
    m_trails.clear();
    m_trails.draw();
    if (!m_model && !m_replay) {
        m_plot->showMessage(tr("No embeddings to show"), tr("No model yet"));
        m_neighbours->setText(tr("<i>Train or open a model to see its word vectors.</i>"));
        return;
    }
    const EmbeddingSide shownSide = side() == Side::Encoder ? EmbeddingSide::Encoder : EmbeddingSide::Decoder;
    // The combo box above already names the side; the title says which snapshot this is.
    const QString title = m_replay                  ? tr("Epoch %1 (history)").arg(m_replayEpoch)
                          : m_description.isEmpty() ? m_side->currentText()
                                                    : m_description;
    EmbeddingTable table;
    try {
        const ModelSnapshot model = m_replay ? m_replay->modelAt(m_replayEpoch) : m_model;
        table = shownSide == EmbeddingSide::Encoder ? model->encoderEmbeddings() : model->decoderEmbeddings();
        m_plot->setProjection(m_replay ? replayMaps().at(replayIndex()) : projectEmbeddings2d(table), title);
    } catch (const std::exception &error) {
        m_plot->showMessage(tr("Cannot show embeddings: %1").arg(QString::fromStdString(error.what())), title);
        m_neighbours->clear();
        return;
    }
    m_table = table;
    // Same vocabulary at the next epoch: keep following the word the user picked.
    if (selected >= 0 && selected < int(m_table.words.size()))
        selectWord(selected);
    else
        m_neighbours->setText(tr("<i>Click a word to list its nearest neighbours.</i>"));
}

const std::vector<EmbeddingProjection> &EmbeddingPanel::replayMaps() const
{
    return m_replay->maps(side() == Side::Encoder ? EmbeddingSide::Encoder : EmbeddingSide::Decoder);
}

std::size_t EmbeddingPanel::replayIndex() const
{
    const std::vector<int> &epochs = m_replay->epochs();
    return std::size_t(std::find(epochs.begin(), epochs.end(), m_replayEpoch) - epochs.begin());
}

void EmbeddingPanel::selectWord(int index)
{
    if (index < 0 || index >= int(m_table.words.size())) {
        m_plot->setSelection(-1, {});
        m_neighbours->setText(tr("<i>Click a word to list its nearest neighbours.</i>"));
    } else {
        const std::vector<WordNeighbour> neighbours = nearestWords(m_table, index, kNeighbours);
        m_plot->setSelection(index, neighbours);
        showNeighbours(index, neighbours);
    }
    updateTrails();
}

// In a replay the selected word and its neighbours trail through their places up to the shown epoch.
void EmbeddingPanel::updateTrails()
{
    m_trails.clear();
    const int selected = m_plot->selectedWord();
    if (m_replay && selected >= 0) {
        std::vector<int> followed{selected};
        for (const WordNeighbour &neighbour : m_plot->neighbours())
            followed.push_back(neighbour.index);
        for (int row : followed) {
            const std::string &word = m_table.words[std::size_t(row)];
            QVector<QPointF> points;
            for (const MapPoint &point : trailOf(replayMaps(), word, replayIndex() + 1))
                points << QPointF(point.x, point.y);
            m_trails.set(QString::fromStdString(word), points);
        }
    }
    m_trails.draw();
}

void EmbeddingPanel::showNeighbours(int index, const std::vector<WordNeighbour> &neighbours)
{
    const auto word = [this](int row) { return QString::fromStdString(m_table.words[std::size_t(row)]).toHtmlEscaped(); };
    QString html = tr("<b>%1</b><br><small>nearest, by cosine:</small><table cellspacing=\"0\" cellpadding=\"1\">")
                       .arg(word(index));
    for (const WordNeighbour &neighbour : neighbours)
        html += QStringLiteral("<tr><td>%1&nbsp;</td><td align=\"right\">%2</td></tr>")
                    .arg(word(neighbour.index))
                    .arg(neighbour.similarity, 0, 'f', 2);
    m_neighbours->setText(html + QStringLiteral("</table>"));
}
