#pragma once

#include "engine/charlm/charlmconfig.h"
#include "engine/charlm/chartrainer.h"
#include "ui/charlm/charlmresults.h"
#include "ui/workbench/document.h"
#include "ui/workbench/lab.h"

#include <memory>
#include <vector>

class CharAttributionView;
class CharTextPanel;
class ExportActions;
class LossPlot;
class MemorisationPlot;
class QDockWidget;
class QLabel;
class ReadoutPanel;
class SampleBox;
class SampleHistory;
struct BatchProgress;
struct CharText;
struct NgramBaseline;

// The character language-model lab: an RNN, GRU or LSTM learns to write a text, and people watch
// the loss fall to and below counting's (the n-gram baseline), read samples getting better, see it
// learn the text by heart, sample at any temperature, and look inside: what it expects next as they
// type, what its units track and which past characters drive the next one. Its document is the trained model, saved and opened again.
class CharLmLab : public Lab, public DocumentContent
{
    Q_OBJECT
public:
    explicit CharLmLab(Workbench *workbench);

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

    // False (and `error` says why, in the engine's words) when the file is not a character model.
    QString documentName() const override { return tr("Character Model"); }
    bool hasContent() const override { return m_net != nullptr; }
    bool open(const QString &path, const FileType &type, QString *error) override;
    bool save(const QString &path, const FileType &type, QString *error) override;

    CharTextPanel *textPanel() const { return m_panel; }
    LossPlot *lossPlot() const { return m_loss; }
    MemorisationPlot *memorisationPlot() const { return m_memory; }
    SampleHistory *sampleHistory() const { return m_samples; }
    SampleBox *sampleBox() const { return m_sampler; }
    ReadoutPanel *readoutPanel() const { return m_readout; }
    CharAttributionView *attributionView() const { return m_attribution; }
    QString statusText() const;
    // The weights the views show: the latest snapshot of a run, or an opened model; null before.
    const CharInferenceNet *net() const { return m_net.get(); }
    const std::vector<CharEpoch> &history() const { return m_history; }

    bool exportSamples(const QString &path, QString *error) const;
    bool exportSample(const QString &path, QString *error) const;
    bool exportActivations(const QString &path, QString *error) const;

private:
    QWidget *createTrainingPage();
    QWidget *createInsidePage();
    void createActions();
    void setupLossPlot();
    void useNet(std::shared_ptr<const CharInferenceNet> net);
    void showBaseline(const CharBaselineReady &ready);
    void showProbe(const CharProbe &probe);
    void addEpoch(const CharEpochDone &done);
    void finishTraining(const CharTrainingFinished &finished);
    void showRanking(const CharUnitsRanked &ranked);
    void showAttribution(const CharAttributionReady &ready);
    void requestRanking();
    void setStatus(const QString &text);
    void updateActions();

    CharTextPanel *m_panel;
    QDockWidget *m_setupDock;
    LossPlot *m_loss;
    MemorisationPlot *m_memory;
    SampleHistory *m_samples;
    SampleBox *m_sampler;
    ReadoutPanel *m_readout;
    CharAttributionView *m_attribution;
    QLabel *m_status;
    QWidget *m_trainingPage;
    QWidget *m_insidePage;
    ExportActions *m_exports;
    std::shared_ptr<const CharInferenceNet> m_net;
    std::vector<CharEpoch> m_history;
    CharTrainingConfig m_trainedWith;  // the settings of the run or the opened model
    double m_bestValidation = 0;
    int m_epochs = 0;
};
