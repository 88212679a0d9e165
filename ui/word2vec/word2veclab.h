#pragma once

#include "engine/core/embeddingprojection.h"
#include "engine/word2vec/word2vecconfig.h"
#include "engine/word2vec/word2vectrainer.h"
#include "ui/workbench/document.h"
#include "ui/workbench/lab.h"

#include <memory>
#include <vector>

class CorpusPanel;
class ExportActions;
class LossPlot;
class NoiseChart;
class QDockWidget;
class QLabel;
class QLineEdit;
class QSpinBox;
class WordExplorer;
class WordMapPlot;
struct BatchProgress;
struct Word2VecEpochDone;
struct Word2VecFinished;
struct Word2VecSnapshot;
struct WordCorpus;
struct WordVectors;

// The word-embedding lab: skip-gram or CBOW trained live on a corpus, its words on a map that
// keeps still while they move, their neighbours, analogies and the noise distribution. Its document
// is the vectors: saved, and opened from elsewhere, in word2vec's text or binary format.
class Word2VecLab : public Lab, public DocumentContent
{
    Q_OBJECT
public:
    explicit Word2VecLab(Workbench *workbench);

    QList<LabPage> pages() const override;
    QList<LabDock> docks() const override;
    QList<QAction *> exportActions() const override;
    DocumentContent *documentContent() override { return this; }
    void saveSettings(QSettings &settings) const override;
    void restoreSettings(QSettings &settings) override;
    bool trains() const override { return true; }
    QString trainProblem() const override;
    void train() override;
    void jobStarted(const QString &description) override;
    void jobBatch(const BatchProgress &progress) override;
    void jobFailed(const QString &message) override;

    // The vectors: word2vec text (.txt, .vec) or binary (.bin), told by the file type's suffix.
    QString documentName() const override { return tr("Vectors"); }
    bool hasContent() const override { return m_vectors != nullptr; }
    bool open(const QString &path, const FileType &type, QString *error) override;
    bool save(const QString &path, const FileType &type, QString *error) override;

    CorpusPanel *corpusPanel() const { return m_corpus; }
    WordMapPlot *map() const { return m_map; }
    WordExplorer *explorer() const { return m_explorer; }
    LossPlot *lossPlot() const { return m_loss; }
    NoiseChart *noiseChart() const { return m_noise; }
    const WordVectors *vectors() const { return m_vectors.get(); }
    const std::vector<Word2VecEpoch> &history() const { return m_history; }  // the run's epochs so far
    bool exportMapCsv(const QString &path, QString *error) const;
    bool exportNeighboursCsv(const QString &path, QString *error) const;
    void findWord(const QString &text);

private:
    QWidget *createPage();
    void createActions();
    void showSnapshot(const Word2VecSnapshot &snapshot);
    void showEpoch(const Word2VecEpochDone &epoch);
    void finishTraining(const Word2VecFinished &finished);
    void showVectors(std::shared_ptr<const WordVectors> vectors, const EmbeddingProjection &map, const QString &title);
    void selectWord(int index);
    void updateNoiseChart();
    void updateExportActions();
    void followRunState();

    CorpusPanel *m_corpus;
    QDockWidget *m_setupDock;
    WordMapPlot *m_map;
    LossPlot *m_loss;
    WordExplorer *m_explorer;
    NoiseChart *m_noise;
    QLineEdit *m_find;
    QSpinBox *m_labels;
    QLabel *m_status;
    QWidget *m_page;
    ExportActions *m_exports;
    std::shared_ptr<const WordVectors> m_vectors;
    EmbeddingProjection m_projection;
    QString m_title;
    int m_epochs = 0;
    std::vector<Word2VecEpoch> m_history;
};
