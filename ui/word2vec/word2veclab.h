#pragma once

#include "engine/core/embeddingprojection.h"
#include "engine/word2vec/word2vecconfig.h"
#include "ui/workbench/lab.h"

#include <memory>

class CorpusPanel;
class LossPlot;
class MainWindow;
class NoiseChart;
class QDockWidget;
class QLabel;
class QLineEdit;
class QSpinBox;
class RunState;
class WordExplorer;
class WordMapPlot;
struct BatchProgress;
struct WordCorpus;
struct WordVectors;

// The word-embedding lab: skip-gram or CBOW trained live on a corpus, its words on a map that
// keeps still while they move, their neighbours, analogies and the noise distribution. Vectors
// trained elsewhere (a word2vec text file) can be opened into the same views.
class Word2VecLab : public Lab
{
    Q_OBJECT
public:
    static constexpr int kFitWords = 500;  // the map's axes come from this many most frequent words

    explicit Word2VecLab(MainWindow *window);

    QList<LabPage> pages() const override;
    QList<LabDock> docks() const override;
    QList<QAction *> exportActions() const override;
    void saveSettings(QSettings &settings) const override;
    void restoreSettings(QSettings &settings) override;
    QString guide() const override;
    bool trains() const override { return true; }
    QString trainProblem() const override;
    void train() override;

    CorpusPanel *corpusPanel() const { return m_corpus; }
    WordMapPlot *map() const { return m_map; }
    WordExplorer *explorer() const { return m_explorer; }
    LossPlot *lossPlot() const { return m_loss; }
    NoiseChart *noiseChart() const { return m_noise; }
    const WordVectors *vectors() const { return m_vectors.get(); }
    // Shows vectors from a word2vec text file; false (and `error` says why) when it is malformed.
    bool openVectors(const QString &path, QString *error);
    bool exportVectors(const QString &path, QString *error) const;
    bool exportMapCsv(const QString &path, QString *error) const;
    bool exportNeighboursCsv(const QString &path, QString *error) const;
    void findWord(const QString &text);

signals:
    void trainRequested(std::shared_ptr<const WordCorpus> corpus, const CorpusConfig &corpusConfig,
                        const Word2VecConfig &config);

public slots:
    void trainingStarted(const QString &description);
    void showBatch(const BatchProgress &progress);
    void handleResult(const QVariant &result);
    void showFailure(const QString &message);

private:
    QWidget *createPage();
    void createActions();
    void showVectors(std::shared_ptr<const WordVectors> vectors, const EmbeddingProjection &map, const QString &title);
    void selectWord(int index);
    void updateNoiseChart();
    void updateExportActions();
    void followRunState();

    RunState *m_run;
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
    QList<QAction *> m_exports;
    std::shared_ptr<const WordVectors> m_vectors;
    EmbeddingProjection m_projection;
    QString m_title;
    int m_epochs = 0;
};
