#include "ui/word2vec/word2veclab.h"

#include "engine/core/epochstats.h"
#include "engine/word2vec/wordmap.h"
#include "ui/core/exportdialog.h"
#include "ui/core/guidepane.h"
#include "ui/core/lossplot.h"
#include "ui/core/plotexport.h"
#include "ui/word2vec/corpuspanel.h"
#include "ui/word2vec/noisechart.h"
#include "ui/word2vec/word2vecresults.h"
#include "ui/word2vec/wordexplorer.h"
#include "ui/word2vec/wordmapplot.h"
#include "ui/workbench/mainwindow.h"
#include "ui/workbench/runstate.h"

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

#include <functional>

namespace {

constexpr int kCsvWords = 50;

QString mapTitle(int epoch, int epochs)
{
    return epoch > 0 ? QObject::tr("Word vectors after epoch %1 of %2").arg(epoch).arg(epochs)
                     : QObject::tr("Word vectors");
}

}

Word2VecLab::Word2VecLab(MainWindow *window)
    : Lab(window), m_run(window->runState()), m_corpus(new CorpusPanel),
      m_setupDock(new QDockWidget(tr("Word2Vec Setup"), window)),
      m_map(new WordMapPlot), m_loss(new LossPlot), m_explorer(new WordExplorer), m_noise(new NoiseChart),
      m_find(new QLineEdit), m_labels(new QSpinBox), m_status(new QLabel)
{
    m_setupDock->setObjectName(QStringLiteral("word2vecSetupDock"));
    auto *setup = new QScrollArea;
    setup->setWidget(m_corpus);
    setup->setWidgetResizable(true);
    m_setupDock->setWidget(setup);
    m_page = createPage();
    createActions();
    connect(m_corpus, &CorpusPanel::changed, this, [this] {
        updateNoiseChart();
        emit actionsChanged();
    });
    connect(m_map, &EmbeddingPlot::wordClicked, this, &Word2VecLab::selectWord);
    connect(m_run, &RunState::changed, this, &Word2VecLab::followRunState);
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
    auto add = [this](const QString &text, auto slot) {
        auto *action = new QAction(text, this);
        connect(action, &QAction::triggered, this, slot);
        m_exports << action;
        return action;
    };
    auto *dialogParent = m_page;
    using ImageWriter = std::function<bool(const QString &, int, int, QString *)>;
    const struct {
        QString text, title, name;
        QWidget *plot;
        ImageWriter write;
    } images[] = {
        {tr("Export &Word Map…"), tr("Export Word Map"), QStringLiteral("word_map.png"), m_map,
         [this](const QString &path, int width, int height, QString *error) {
             return m_map->exportImage(path, width, height, error);
         }},
        {tr("Export Word2Vec &Loss Curve…"), tr("Export Loss Curve"), QStringLiteral("word2vec_loss.png"), m_loss,
         [this](const QString &path, int width, int height, QString *error) {
             return m_loss->exportImage(path, width, height, error);
         }},
        {tr("Export N&oise Chart…"), tr("Export Noise Chart"), QStringLiteral("noise_distribution.png"), m_noise,
         [this](const QString &path, int width, int height, QString *error) {
             return m_noise->exportImage(path, width, height, error);
         }},
    };
    for (const auto &image : images)
        add(image.text, [dialogParent, image] {
            const QString path = askExportPath(dialogParent, image.title, image.name, plotImageFilters());
            QString error;
            if (!path.isEmpty()) {
                const QSize size = exportSize(image.plot);
                reportExport(dialogParent, image.write(path, size.width(), size.height(), &error), path, error);
            }
        });
    const struct {
        QString text, title, name, filter;
        bool (Word2VecLab::*write)(const QString &, QString *) const;
    } files[] = {
        {tr("Export Word &Vectors (word2vec text)…"), tr("Export Word Vectors"), QStringLiteral("vectors.txt"),
         tr("word2vec text (*.txt)"), &Word2VecLab::exportVectors},
        {tr("Export Word &Map Coordinates (CSV)…"), tr("Export Map Coordinates"), QStringLiteral("word_map.csv"),
         tr("CSV (*.csv)"), &Word2VecLab::exportMapCsv},
        {tr("Export &Neighbour Lists (CSV)…"), tr("Export Neighbour Lists"), QStringLiteral("neighbours.csv"),
         tr("CSV (*.csv)"), &Word2VecLab::exportNeighboursCsv},
    };
    for (const auto &file : files)
        add(file.text, [this, dialogParent, file] {
            const QString path = askExportPath(dialogParent, file.title, file.name, file.filter);
            QString error;
            if (!path.isEmpty())
                reportExport(dialogParent, (this->*file.write)(path, &error), path, error);
        });
    add(tr("Open &Vectors (word2vec text)…"), [this, dialogParent] {
        const QString path = QFileDialog::getOpenFileName(dialogParent, tr("Open Vectors"), QString(),
                                                          tr("word2vec text (*.txt *.vec);;All files (*)"));
        QString error;
        if (!path.isEmpty() && !openVectors(path, &error))
            QMessageBox::warning(dialogParent, tr("Open Vectors"), error);
    });
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
    return m_exports;
}

void Word2VecLab::updateExportActions()
{
    for (int i = 0; i + 1 < m_exports.size(); ++i)  // all but Open (the last) need vectors
        m_exports[i]->setEnabled(m_vectors != nullptr);
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

QString Word2VecLab::guide() const
{
    return GuidePane::read(QStringLiteral("word2vec"));
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
    m_loss->clear();
    m_map->clearTrails();
    m_status->setText(tr("Preparing the corpus…"));
    m_run->submitted(this, RunState::Phase::Training);
    emit trainRequested(m_corpus->corpus(), m_corpus->corpusConfig(), config);
}

void Word2VecLab::trainingStarted(const QString &description)
{
    if (m_run->owner() != this || !m_run->isTraining())
        return;
    m_status->setText(description);
    emit statusMessage(description);
}

void Word2VecLab::showBatch(const BatchProgress &progress)
{
    if (m_run->owner() != this || !m_run->isTraining())
        return;
    m_loss->addBatch(progress.epoch - 1 + double(progress.batch) / std::max(1, progress.batchesPerEpoch), progress.loss);
}

void Word2VecLab::handleResult(const QVariant &result)
{
    if (result.metaType() == QMetaType::fromType<Word2VecSnapshot>()) {
        const auto snapshot = result.value<Word2VecSnapshot>();
        showVectors(snapshot.vectors, snapshot.map, mapTitle(snapshot.epoch, m_epochs));
    } else if (result.metaType() == QMetaType::fromType<Word2VecEpochDone>()) {
        const Word2VecEpoch e = result.value<Word2VecEpochDone>().stats;
        m_status->setText(tr("Epoch %1 of %2: loss %3, %4 words/s.")
                              .arg(e.epoch).arg(m_epochs).arg(e.loss, 0, 'f', 4).arg(e.wordsPerSecond, 0, 'f', 0));
    } else if (result.metaType() == QMetaType::fromType<Word2VecFinished>()) {
        const auto finished = result.value<Word2VecFinished>();
        const QString text = finished.epochsDone < finished.epochs
                                 ? tr("Stopped after %1 of %2 epochs.").arg(finished.epochsDone).arg(finished.epochs)
                                 : tr("Trained %1 epochs at %2 words/s. Click a word for its neighbours.")
                                       .arg(finished.epochs)
                                       .arg(finished.wordsPerSecond, 0, 'f', 0);
        m_status->setText(text);
        emit statusMessage(text, 8000);
    }
}

void Word2VecLab::showFailure(const QString &message)
{
    if (m_run->owner() != this)
        return;
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
    m_corpus->setEnabled(m_run->phase() == RunState::Phase::Idle);
}

bool Word2VecLab::openVectors(const QString &path, QString *error)
{
    std::shared_ptr<const WordVectors> vectors;
    EmbeddingProjection map;
    try {
        vectors = std::make_shared<const WordVectors>(readWord2VecText(QFile::encodeName(path).toStdString()));
        map = projectWordMap(*vectors, kFitWords);
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

bool Word2VecLab::exportVectors(const QString &path, QString *error) const
{
    if (!m_vectors)
        return false;
    return writeFileAtomically(path, QByteArray::fromStdString(formatWord2VecText(*m_vectors)), error);
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
