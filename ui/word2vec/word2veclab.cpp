#include "ui/word2vec/word2veclab.h"

#include "engine/core/epochstats.h"
#include "engine/word2vec/wordmap.h"
#include "ui/core/exportactions.h"
#include "ui/core/lossplot.h"
#include "ui/core/plotexport.h"
#include "ui/word2vec/corpuspanel.h"
#include "ui/word2vec/noisechart.h"
#include "ui/word2vec/word2vecresults.h"
#include "ui/word2vec/wordexplorer.h"
#include "ui/word2vec/word2vecjobs.h"
#include "ui/word2vec/wordmapplot.h"
#include "ui/workbench/runsummary.h"
#include "ui/workbench/workbench.h"

#include <QAction>
#include <QDockWidget>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>


namespace {

constexpr int kCsvWords = 50;

QString mapTitle(int epoch, int epochs)
{
    return epoch > 0 ? QObject::tr("Word vectors after epoch %1 of %2").arg(epoch).arg(epochs)
                     : QObject::tr("Word vectors");
}

}

Word2VecLab::Word2VecLab(Workbench *workbench)
    : Lab(workbench), m_corpus(new CorpusPanel), m_setupDock(new QDockWidget(tr("Word2Vec Setup"))),
      m_map(new WordMapPlot), m_loss(new LossPlot), m_explorer(new WordExplorer), m_noise(new NoiseChart),
      m_find(new QLineEdit), m_labels(new QSpinBox), m_status(new QLabel)
{
    m_setupDock->setObjectName(QStringLiteral("word2vecSetupDock"));
    auto *setup = new QScrollArea;
    setup->setWidget(m_corpus);
    setup->setWidgetResizable(true);
    m_setupDock->setWidget(setup);
    m_page = createPage();
    m_exports = new ExportActions(m_page, this);
    createActions();
    connect(m_corpus, &CorpusPanel::changed, this, [this] {
        updateNoiseChart();
        emit actionsChanged();
    });
    connect(m_map, &EmbeddingPlot::wordClicked, this, &Word2VecLab::selectWord);
    connect(runState(), &RunState::changed, this, &Word2VecLab::followRunState);
    onResult(&Word2VecLab::showSnapshot);
    onResult(&Word2VecLab::showEpoch);
    onResult(&Word2VecLab::finishTraining);
    updateNoiseChart();
    updateExportActions();
    followRunState();
}

QWidget *Word2VecLab::createPage()
{
    m_find->setObjectName(QStringLiteral("findWord"));
    m_find->setPlaceholderText(tr("Find a word…"));
    m_find->setClearButtonEnabled(true);
    m_find->setAccessibleName(tr("Find a word on the map"));
    connect(m_find, &QLineEdit::returnPressed, this, [this] { findWord(m_find->text()); });
    m_labels->setObjectName(QStringLiteral("labelCount"));
    m_labels->setRange(0, EmbeddingPlot::kMaxPlacedLabels);
    m_labels->setValue(60);
    m_labels->setToolTip(tr("How many of the most frequent words are labelled; rest the pointer on a point to name it."));
    m_labels->setAccessibleName(tr("Labelled words"));
    m_map->setAccessibleName(tr("Word map"));
    m_loss->setAccessibleName(tr("Word2vec loss plot"));
    m_loss->setAccessibleDescription(tr("Loss per pair for each batch, and its smoothed line."));
    m_noise->setAccessibleName(tr("Noise distribution chart"));
    m_noise->setAccessibleDescription(tr("The most frequent words' share of the corpus and of the negative samples."));
    connect(m_labels, qOverload<int>(&QSpinBox::valueChanged), this, [this](int count) {
        m_map->setLabelLimit(count);
        if (!m_projection.words.empty())
            m_map->showMap(m_projection, m_title);
    });
    m_map->setLabelLimit(m_labels->value());
    // Only the batch loss and its smoothed line mean something here: no validation, no accuracy.
    for (int i = 0; i < m_loss->plottableCount(); ++i) {
        QCPAbstractPlottable *curve = m_loss->plottable(i);
        if (curve != m_loss->batchGraph() && curve != m_loss->smoothedGraph()) {
            curve->setVisible(false);
            curve->removeFromLegend();
        }
    }
    m_loss->yAxis2->setVisible(false);
    m_loss->yAxis->setLabel(tr("loss per pair"));
    m_status->setWordWrap(true);
    m_status->setText(tr("Press Train (F5) to learn vectors from the corpus, or open a vectors file."));

    auto *tools = new QHBoxLayout;
    tools->addWidget(m_find, 1);
    tools->addWidget(new QLabel(tr("Labels:")));
    tools->addWidget(m_labels);
    auto *mapColumn = new QWidget;
    auto *mapLayout = new QVBoxLayout(mapColumn);
    mapLayout->setContentsMargins(0, 0, 0, 0);
    mapLayout->addLayout(tools);
    mapLayout->addWidget(m_status);
    auto *left = new QSplitter(Qt::Vertical);
    left->addWidget(m_map);
    left->addWidget(m_loss);
    left->setStretchFactor(0, 3);
    left->setStretchFactor(1, 1);
    mapLayout->addWidget(left, 1);

    auto *right = new QSplitter(Qt::Vertical);
    right->addWidget(m_explorer);
    right->addWidget(m_noise);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 1);
    m_noise->setMinimumHeight(180);
    m_loss->setMinimumHeight(160);
    m_map->setMinimumSize(300, 280);

    auto *page = new QSplitter(Qt::Horizontal);
    page->setObjectName(QStringLiteral("word2vecPage"));
    page->addWidget(mapColumn);
    page->addWidget(right);
    page->setStretchFactor(0, 3);
    page->setStretchFactor(1, 1);
    return page;
}

void Word2VecLab::createActions()
{
    m_exports->addImage(tr("Export &Word Map…"), QStringLiteral("word_map.png"), m_map);
    m_exports->addImage(tr("Export Word2Vec &Loss Curve…"), QStringLiteral("word2vec_loss.png"), m_loss);
    m_exports->addImage(tr("Export N&oise Chart…"), QStringLiteral("noise_distribution.png"), m_noise);
    m_exports->addFile(tr("Export Word &Map Coordinates (CSV)…"), QStringLiteral("word_map.csv"), tr("CSV (*.csv)"),
                       [this](const QString &path, QString *error) { return exportMapCsv(path, error); });
    m_exports->addFile(tr("Export &Neighbour Lists (CSV)…"), QStringLiteral("neighbours.csv"), tr("CSV (*.csv)"),
                       [this](const QString &path, QString *error) { return exportNeighboursCsv(path, error); });
}

QList<LabPage> Word2VecLab::pages() const
{
    return {{tr("&Word Embeddings"), m_page}};
}

QList<LabDock> Word2VecLab::docks() const
{
    return {{m_setupDock, Qt::LeftDockWidgetArea, nullptr, true}};
}

QList<QAction *> Word2VecLab::exportActions() const
{
    return m_exports->actions();
}

void Word2VecLab::updateExportActions()
{
    for (QAction *action : m_exports->actions())
        action->setEnabled(m_vectors != nullptr);
}

void Word2VecLab::saveSettings(QSettings &settings) const
{
    m_corpus->saveSettings(settings);
    settings.setValue(QStringLiteral("word2vec/labels"), m_labels->value());
}

void Word2VecLab::restoreSettings(QSettings &settings)
{
    m_corpus->restoreSettings(settings);
    m_labels->setValue(settings.value(QStringLiteral("word2vec/labels"), m_labels->value()).toInt());
}

QString Word2VecLab::trainProblem() const
{
    if (!m_corpus->corpus())
        return m_corpus->problem();
    const std::string problem = validate(m_corpus->config());
    if (!problem.empty())
        return QString::fromStdString(problem);
    if (m_corpus->corpus()->vocabularySize() < m_corpus->config().dimensions)
        return tr("the corpus has fewer distinct words (%1) than dimensions (%2)")
            .arg(m_corpus->corpus()->vocabularySize())
            .arg(m_corpus->config().dimensions);
    return {};
}

void Word2VecLab::train()
{
    const Word2VecConfig config = m_corpus->config();
    m_epochs = config.epochs;
    m_history.clear();
    m_loss->clear();
    m_map->clearTrails();
    m_status->setText(tr("Preparing the corpus…"));
    submit(word2vecTrainingJob(m_corpus->corpus(), m_corpus->corpusConfig(), config), RunState::Phase::Training);
}

void Word2VecLab::jobStarted(const QString &description)
{
    m_status->setText(description);
    emit statusMessage(description);
}

void Word2VecLab::jobBatch(const BatchProgress &progress)
{
    m_loss->addBatch(progress);
}

void Word2VecLab::showSnapshot(const Word2VecSnapshot &snapshot)
{
    showVectors(snapshot.vectors, snapshot.map, mapTitle(snapshot.epoch, m_epochs));
}

void Word2VecLab::showEpoch(const Word2VecEpochDone &epoch)
{
    const Word2VecEpoch &e = epoch.stats;
    m_history.push_back(e);
    m_status->setText(tr("Epoch %1 of %2: loss %3, %4 words/s.")
                          .arg(e.epoch).arg(m_epochs).arg(e.loss, 0, 'f', 4).arg(e.wordsPerSecond, 0, 'f', 0));
}

void Word2VecLab::finishTraining(const Word2VecFinished &finished)
{
    QString text = runSummary(finished.epochsDone, finished.epochs, finished.wordsPerSecond, tr("words"));
    if (finished.epochsDone == finished.epochs)
        text += QLatin1Char(' ') + tr("Click a word for its neighbours.");
    m_status->setText(text);
    emit statusMessage(text, 8000);
    if (finished.epochsDone > 0)
        document()->setUnsaved();
}

void Word2VecLab::jobFailed(const QString &message)
{
    m_status->setText(tr("Training failed: %1").arg(message));
}

void Word2VecLab::showVectors(std::shared_ptr<const WordVectors> vectors, const EmbeddingProjection &map,
                              const QString &title)
{
    m_vectors = std::move(vectors);
    m_projection = map;
    m_explorer->setVectors(m_vectors);
    m_title = title;
    m_map->showMap(map, title);
    updateNoiseChart();
    updateExportActions();
    emit actionsChanged();
}

void Word2VecLab::selectWord(int index)
{
    const std::vector<ScoredWord> near = m_explorer->showNeighbours(m_map->word(index));
    std::vector<WordNeighbour> neighbours;
    for (const ScoredWord &w : near)
        neighbours.push_back({w.index, w.score});  // the map and the vectors share their rows
    m_map->setSelection(index, neighbours);
}

void Word2VecLab::findWord(const QString &text)
{
    if (text.trimmed().isEmpty())
        return;
    if (m_map->findWord(text) < 0)
        emit statusMessage(tr("\"%1\" is not on the map.").arg(text.trimmed()), 5000);
}

void Word2VecLab::updateNoiseChart()
{
    const Word2VecConfig config = m_corpus->config();
    if (m_vectors && !m_vectors->counts.empty())
        m_noise->setDistribution(m_vectors->words, m_vectors->counts, config.noiseExponent);
    else if (m_corpus->corpus())
        m_noise->setDistribution(m_corpus->corpus()->words, m_corpus->corpus()->counts, config.noiseExponent);
}

void Word2VecLab::followRunState()
{
    m_corpus->setEnabled(runState()->phase() == RunState::Phase::Idle);
}

bool Word2VecLab::open(const QString &path, const FileType &, QString *error)
{
    std::shared_ptr<const WordVectors> vectors;
    EmbeddingProjection map;
    try {
        vectors = std::make_shared<const WordVectors>(readWord2Vec(QFile::encodeName(path).toStdString()));
        map = projectWordMap(*vectors, kWordMapFitWords);
    } catch (const std::exception &e) {
        if (error)
            *error = tr("%1: %2").arg(QFileInfo(path).fileName(), QString::fromLocal8Bit(e.what()));
        return false;
    }
    m_map->clearTrails();
    showVectors(vectors, map, tr("Vectors from %1").arg(QFileInfo(path).fileName()));
    m_status->setText(tr("%1 words of %2 dimensions from %3.").arg(vectors->size()).arg(vectors->dimensions).arg(path));
    return true;
}

bool Word2VecLab::save(const QString &path, const FileType &type, QString *error)
{
    if (!m_vectors)
        return false;
    const bool binary = type.suffixes.contains(QStringLiteral("bin"));
    return writeFileAtomically(path,
                               QByteArray::fromStdString(binary ? formatWord2VecBinary(*m_vectors)
                                                                : formatWord2VecText(*m_vectors)),
                               error);
}

bool Word2VecLab::exportMapCsv(const QString &path, QString *error) const
{
    QByteArray csv("word,count,pc1,pc2\n");
    for (std::size_t i = 0; i < m_projection.words.size(); ++i) {
        const ProjectedWord &w = m_projection.words[i];
        const QString count = m_vectors && i < m_vectors->counts.size() ? QString::number(m_vectors->counts[i]) : QString();
        csv += QStringLiteral("%1,%2,%3,%4\n")
                   .arg(csvField(QString::fromStdString(w.word)), count)
                   .arg(w.x, 0, 'g', 9)
                   .arg(w.y, 0, 'g', 9)
                   .toUtf8();
    }
    return writeFileAtomically(path, csv, error);
}

bool Word2VecLab::exportNeighboursCsv(const QString &path, QString *error) const
{
    const VectorIndex *index = m_explorer->index();
    if (!index)
        return false;
    QByteArray csv("word,rank,neighbour,cosine\n");
    for (int w = 0; w < std::min(kCsvWords, index->size()); ++w) {
        int rank = 0;
        for (const ScoredWord &n : index->nearest(w, WordExplorer::kNeighbours))
            csv += QStringLiteral("%1,%2,%3,%4\n")
                       .arg(csvField(QString::fromStdString(index->word(w))))
                       .arg(++rank)
                       .arg(csvField(QString::fromStdString(n.word)))
                       .arg(n.score, 0, 'f', 6)
                       .toUtf8();
    }
    return writeFileAtomically(path, csv, error);
}
