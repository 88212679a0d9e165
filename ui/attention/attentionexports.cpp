#include "ui/attention/attentionexports.h"

#include "ui/attention/alignmentplot.h"
#include "engine/attention/epochreplay.h"
#include "ui/attention/embeddingpanel.h"
#include "ui/attention/historyscrubber.h"
#include "ui/attention/inferencepanel.h"
#include "ui/attention/wordremovalplot.h"
#include "ui/core/attentionheatmap.h"
#include "ui/core/embeddingplot.h"
#include "ui/core/exportdialog.h"
#include "ui/core/lossplot.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QProgressDialog>
#include <QStyle>

#include <algorithm>

AttentionExports::AttentionExports(QWidget *dialogParent, InferencePanel *inference, LossPlot *loss,
                                   AlignmentPlot *alignment, EmbeddingPanel *embeddings, WordRemovalPlot *wordRemoval,
                                   HistoryScrubber *history, QObject *parent)
    : QObject(parent), m_dialogParent(dialogParent), m_inference(inference), m_loss(loss), m_alignment(alignment),
      m_embeddings(embeddings), m_wordRemoval(wordRemoval), m_history(history)
{
    m_heatmap = new QAction(qApp->style()->standardIcon(QStyle::SP_DialogSaveButton), tr("&Export Heatmap…"), this);
    m_heatmap->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_heatmap->setStatusTip(tr("Save the attention heatmap as a PNG, PDF, SVG or JPEG image."));
    m_heatmap->setToolTip(tr("Export Heatmap (%1)").arg(m_heatmap->shortcut().toString(QKeySequence::NativeText)));
    connect(m_heatmap, &QAction::triggered, this, &AttentionExports::exportHeatmap);
    m_heatmapCsv = new QAction(tr("Export Heatmap &Data (CSV)…"), this);
    connect(m_heatmapCsv, &QAction::triggered, this, &AttentionExports::exportHeatmapCsv);
    m_lossPlot = new QAction(tr("Export &Loss Curve…"), this);
    connect(m_lossPlot, &QAction::triggered, this, &AttentionExports::exportLossPlot);
    m_lossCsv = new QAction(tr("Export Loss &History (CSV)…"), this);
    connect(m_lossCsv, &QAction::triggered, this, &AttentionExports::exportLossCsv);
    m_alignmentPlot = new QAction(tr("Export &Alignment Plot…"), this);
    connect(m_alignmentPlot, &QAction::triggered, this, &AttentionExports::exportAlignmentPlot);
    m_embeddingPlot = new QAction(tr("Export E&mbedding Plot…"), this);
    connect(m_embeddingPlot, &QAction::triggered, this, &AttentionExports::exportEmbeddings);
    m_wordRemovalPlot = new QAction(tr("Export &Word Removal Plot…"), this);
    connect(m_wordRemovalPlot, &QAction::triggered, this, &AttentionExports::exportWordRemoval);
    m_historyFrames = new QAction(tr("Export History &Frames…"), this);
    m_historyFrames->setStatusTip(tr("Save the heatmap and the embedding map of every kept epoch as numbered PNG "
                                     "images, for a slide show or a video of the run."));
    connect(m_historyFrames, &QAction::triggered, this, &AttentionExports::exportHistoryFrames);
}

QList<QAction *> AttentionExports::actions() const
{
    return {m_heatmap, m_heatmapCsv, m_lossPlot, m_lossCsv, m_alignmentPlot, m_embeddingPlot, m_wordRemovalPlot,
            m_historyFrames};
}

void AttentionExports::setAvailable(bool hasSentence, bool hasLoss, bool hasAlignment, bool hasModel,
                                    bool hasWordRemoval, bool hasHistory)
{
    m_historyFrames->setEnabled(hasHistory && hasSentence);
    m_wordRemovalPlot->setEnabled(hasWordRemoval);
    m_alignmentPlot->setEnabled(hasAlignment);
    m_heatmap->setEnabled(hasSentence);
    m_heatmapCsv->setEnabled(hasSentence);
    m_lossPlot->setEnabled(hasLoss);
    m_lossCsv->setEnabled(hasLoss);
    m_embeddingPlot->setEnabled(hasModel);
}

// Asks for a path and writes `plot` there as an image of at least exportSize().
template <typename Plot>
void AttentionExports::exportImage(const QString &title, const QString &defaultName, Plot *plot)
{
    const QString path = askExportPath(m_dialogParent, title, defaultName, plotImageFilters());
    if (path.isEmpty())
        return;
    const QSize size = exportSize(plot);
    QString error;
    reportExport(m_dialogParent, plot->exportImage(path, size.width(), size.height(), &error), path, error);
}

template <typename Plot>
void AttentionExports::exportCsv(const QString &title, const QString &defaultName, Plot *plot)
{
    const QString path = askExportPath(m_dialogParent, title, defaultName, tr("CSV file (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    reportExport(m_dialogParent, plot->exportCsv(path, &error), path, error);
}

void AttentionExports::exportHeatmap()
{
    if (m_inference->hasSentence())
        exportImage(tr("Export Heatmap"), QStringLiteral("attention_heatmap.png"), m_inference->heatmap());
}

void AttentionExports::exportHeatmapCsv()
{
    if (m_inference->hasSentence())
        exportCsv(tr("Export Heatmap Data"), QStringLiteral("attention_heatmap.csv"), m_inference->heatmap());
}

void AttentionExports::exportLossPlot()
{
    exportImage(tr("Export Loss Curve"), QStringLiteral("loss.png"), m_loss);
}

void AttentionExports::exportLossCsv()
{
    exportCsv(tr("Export Loss History"), QStringLiteral("loss.csv"), m_loss);
}

void AttentionExports::exportAlignmentPlot()
{
    exportImage(tr("Export Alignment Plot"), QStringLiteral("alignment.png"), m_alignment);
}

void AttentionExports::exportEmbeddings()
{
    exportImage(tr("Export Embedding Plot"), QStringLiteral("embeddings.png"), m_embeddings->plot());
}

void AttentionExports::exportWordRemoval()
{
    exportImage(tr("Export Word Removal Plot"), QStringLiteral("word_removal.png"), m_wordRemoval);
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
