#include "ui/attention/attentionexports.h"

#include "ui/attention/alignmentplot.h"
#include "engine/attention/epochreplay.h"
#include "ui/attention/embeddingpanel.h"
#include "ui/attention/historyscrubber.h"
#include "ui/attention/inferencepanel.h"
#include "ui/attention/wordremovalplot.h"
#include "ui/core/attentionheatmap.h"
#include "ui/core/embeddingplot.h"
#include "ui/core/exportactions.h"
#include "ui/core/exportdialog.h"
#include "ui/core/lengthaccuracyplot.h"
#include "ui/core/lossplot.h"
#include "ui/workbench/runcomparisonview.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QProgressDialog>
#include <QStyle>

#include <algorithm>

AttentionExports::AttentionExports(QWidget *dialogParent, InferencePanel *inference, LossPlot *loss,
                                   AlignmentPlot *alignment, EmbeddingPanel *embeddings, WordRemovalPlot *wordRemoval,
                                   HistoryScrubber *history, RunComparisonView *comparison, QObject *parent)
    : QObject(parent), m_dialogParent(dialogParent), m_inference(inference), m_embeddings(embeddings), m_history(history),
      m_exports(new ExportActions(dialogParent, this))
{
    const QString csv = tr("CSV file (*.csv)");
    AttentionHeatmap *heatmap = inference->heatmap();
    m_heatmap = m_exports->addImage(tr("&Export Heatmap…"), QStringLiteral("attention_heatmap.png"), heatmap);
    m_heatmap->setIcon(qApp->style()->standardIcon(QStyle::SP_DialogSaveButton));
    m_heatmap->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_heatmap->setStatusTip(tr("Save the attention heatmap as a PNG, PDF, SVG or JPEG image."));
    m_heatmap->setToolTip(tr("Export Heatmap (%1)").arg(m_heatmap->shortcut().toString(QKeySequence::NativeText)));
    m_heatmapCsv = m_exports->addFile(tr("Export Heatmap &Data (CSV)…"), QStringLiteral("attention_heatmap.csv"), csv,
                                      [heatmap](const QString &path, QString *error) {
                                          return heatmap->exportCsv(path, error);
                                      });
    m_lossPlot = m_exports->addImage(tr("Export &Loss Curve…"), QStringLiteral("loss.png"), loss);
    m_lossCsv = m_exports->addFile(tr("Export Loss &History (CSV)…"), QStringLiteral("loss.csv"), csv,
                                   [loss](const QString &path, QString *error) { return loss->exportCsv(path, error); });
    m_alignmentPlot = m_exports->addImage(tr("Export &Alignment Plot…"), QStringLiteral("alignment.png"), alignment);
    m_embeddingPlot = m_exports->addImage(tr("Export E&mbedding Plot…"), QStringLiteral("embeddings.png"),
                                          embeddings->plot());
    m_wordRemovalPlot =
        m_exports->addImage(tr("Export &Word Removal Plot…"), QStringLiteral("word_removal.png"), wordRemoval);
    // As the Transformer lab exports the same comparison.
    m_runsByLength = m_exports->addImage(tr("Export &Runs by Length…"), QStringLiteral("runs_by_length.png"),
                                         comparison->lengthPlot());
    m_runsByLength->setObjectName(QStringLiteral("exportRunsByLength"));
    m_runsByLength->setStatusTip(tr("Save the exact match by length of the runs side by side (Experiments page)."));
    m_runsCsv = m_exports->addFile(tr("Export Compared Runs (CSV)…"), QStringLiteral("runs.csv"), csv,
                                   [comparison](const QString &path, QString *error) {
                                       return comparison->exportCsv(path, error);
                                   });
    m_runsCsv->setObjectName(QStringLiteral("exportRunsCsv"));
    m_historyFrames = new QAction(tr("Export History &Frames…"), this);
    m_historyFrames->setStatusTip(tr("Save the heatmap and the embedding map of every kept epoch as numbered PNG "
                                     "images, for a slide show or a video of the run."));
    connect(m_historyFrames, &QAction::triggered, this, &AttentionExports::exportHistoryFrames);
}

QList<QAction *> AttentionExports::actions() const
{
    return m_exports->actions() + QList<QAction *>{m_historyFrames};
}

void AttentionExports::setAvailable(bool hasSentence, bool hasLoss, bool hasAlignment, bool hasModel,
                                    bool hasWordRemoval, bool hasHistory, bool hasComparedRuns)
{
    m_runsByLength->setEnabled(hasComparedRuns);
    m_runsCsv->setEnabled(hasComparedRuns);
    m_historyFrames->setEnabled(hasHistory && hasSentence);
    m_wordRemovalPlot->setEnabled(hasWordRemoval);
    m_alignmentPlot->setEnabled(hasAlignment);
    m_heatmap->setEnabled(hasSentence);
    m_heatmapCsv->setEnabled(hasSentence);
    m_lossPlot->setEnabled(hasLoss);
    m_lossCsv->setEnabled(hasLoss);
    m_embeddingPlot->setEnabled(hasModel);
}

void AttentionExports::exportHistoryFrames()
{
    if (!m_history->replay() || !m_inference->hasSentence())
        return;
    const QString folder = askExportFolder(m_dialogParent, tr("Export History Frames"));
    if (folder.isEmpty())
        return;
    QProgressDialog progress(tr("Writing the frames of the run's history…"), tr("Cancel"), 0,
                             int(m_history->replay()->epochs().size()), m_dialogParent);
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(0);
    QString error;
    const bool ok = writeHistoryFrames(folder, &error, [&progress](int done, int total) {
        progress.setMaximum(total);
        progress.setValue(done);
        return !progress.wasCanceled();
    });
    if (ok && progress.wasCanceled())
        return;  // the frames written so far stay, as the user saw them go
    progress.reset();
    reportExport(m_dialogParent, ok, folder, error);
}

bool AttentionExports::writeHistoryFrames(const QString &folder, QString *error,
                                          const std::function<bool(int, int)> &progress)
{
    const std::shared_ptr<EpochReplay> replay = m_history->replay();
    const QDir dir(folder);
    if (!replay || !dir.exists()) {
        if (error)
            *error = replay ? tr("The folder %1 does not exist.").arg(QDir::toNativeSeparators(folder))
                            : tr("There is no history to export: train a model first.");
        return false;
    }
    const std::vector<int> epochs = replay->epochs();
    const int total = int(epochs.size());
    const int digits = std::max(3, int(QString::number(total).size()));
    const int shownBefore = m_history->shownEpoch();
    m_history->setPlaying(false);
    const QSize heatmapSize = exportSize(m_inference->heatmap());
    const QSize embeddingSize = exportSize(m_embeddings->plot());
    bool ok = true;
    for (int frame = 0; frame < total && ok; ++frame) {
        if (progress && !progress(frame, total))
            break;
        m_history->showEpoch(epochs[std::size_t(frame)]);
        const QString number = QStringLiteral("%1").arg(frame + 1, digits, 10, QLatin1Char('0'));
        ok = m_inference->heatmap()->exportImage(dir.filePath(QStringLiteral("heatmap_%1.png").arg(number)),
                                                 heatmapSize.width(), heatmapSize.height(), error)
             && m_embeddings->plot()->exportImage(dir.filePath(QStringLiteral("embeddings_%1.png").arg(number)),
                                                  embeddingSize.width(), embeddingSize.height(), error);
    }
    if (shownBefore == 0)
        m_history->showLatest();
    else
        m_history->showEpoch(shownBefore);
    return ok;
}
