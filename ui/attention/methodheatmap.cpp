#include "ui/attention/methodheatmap.h"

#include "engine/attention/alignmentscore.h"
#include "ui/attention/attributionsource.h"
#include "ui/attention/decodedheatmap.h"
#include "ui/attention/inferencepanel.h"
#include "ui/core/attentionheatmap.h"
#include "ui/core/colorgradients.h"

#include <QComboBox>

#include <algorithm>

MethodHeatmap::MethodHeatmap(InferencePanel *inference, AttributionSource *source, QObject *parent)
    : QObject(parent), m_inference(inference), m_source(source), m_selector(new QComboBox)
{
    m_selector->setObjectName(QStringLiteral("attributionMethod"));
    for (const AttributionMethod method : allAttributionMethods())
        m_selector->addItem(QString::fromUtf8(attributionMethodTitle(method)), int(method));
    m_selector->setToolTip(tr("What the heatmap shows: where the decoder looked (attention), or how much each "
                              "input word contributes to log P of the output word by a method that never reads "
                              "the attention (gradients, integrated gradients, leaving the word out)."));
    connect(m_selector, &QComboBox::currentIndexChanged, this, [this] {
        update();
        emit methodChanged(method());
    });
    // The panel redraws its attention for every decode; a method's map goes back on top.
    connect(m_inference, &InferencePanel::sentenceDecoded, this, [this] {
        m_showingMap = false;
        update();
    });
    connect(m_source, &AttributionSource::attributionChanged, this, &MethodHeatmap::update);
}

AttributionMethod MethodHeatmap::method() const
{
    return AttributionMethod(m_selector->currentData().toInt());
}

void MethodHeatmap::setMethod(AttributionMethod method)
{
    m_selector->setCurrentIndex(m_selector->findData(int(method)));
}

void MethodHeatmap::update()
{
    AttentionHeatmap *heatmap = m_inference->heatmap();
    if (method() == AttributionMethod::Attention || !m_inference->hasSentence()) {
        showAttention();
        return;
    }
    const QString title = QString::fromUtf8(attributionMethodTitle(method()));
    if (m_source->explains(m_inference->sentence()) && m_source->attribution().explains(method())) {
        showMap(*m_source->attribution().map(method()));
        return;
    }
    m_showingMap = true;
    if (m_source->computing())
        heatmap->showMessage(tr("Computing %1…").arg(title.toLower()));
    else if (m_source->hasAttribution() && m_inference->beamOptions().width > 1)
        heatmap->showMessage(tr("%1 explains the greedy output: set Beam to 1 to see it").arg(title));
    else
        heatmap->showMessage(m_source->message().isEmpty() ? tr("No %1 for this sentence").arg(title.toLower())
                                                           : m_source->message());
}

void MethodHeatmap::showAttention()
{
    AttentionHeatmap *heatmap = m_inference->heatmap();
    if (m_methodColors) {
        heatmap->setColorScale(viridisGradient(), QCPRange(0, 1), tr("attention weight"));
        m_methodColors = false;
    }
    if (!m_showingMap)
        return;
    m_showingMap = false;
    // Back from a method's map: the panel's own drawing of the sentence, with the cell kept.
    const int row = m_inference->highlightedOutputToken();
    const int column = m_inference->highlightedSourceToken();
    if (m_inference->hasSentence()) {
        showDecodedSentence(*heatmap, m_inference->sentence());
        if (const ModelSnapshot model = m_source->model())
            heatmap->setRightCells(rightSourcePositions(model->datasetConfig.task, m_inference->sentence()));
        if (row >= 0 && column >= 0)
            heatmap->selectCell(row, column);
    }
}

void MethodHeatmap::showMap(const AttributionMap &map)
{
    AttentionHeatmap *heatmap = m_inference->heatmap();
    const DecodedSentence &sentence = m_inference->sentence();
    const SentenceAttribution &attribution = m_source->attribution();
    const int row = m_inference->highlightedOutputToken();
    const int column = m_inference->highlightedSourceToken();

    HeatmapMatrix matrix;
    for (const std::string &word : attribution.words)
        matrix.columns << QString::fromStdString(word);
    for (const std::string &token : sentence.outputTokens)
        matrix.rows << QString::fromStdString(token);
    for (const double score : map.scores)
        matrix.weights.push_back(float(score));
    matrix.columnKnown.assign(sentence.sourceKnown.begin(),
                              sentence.sourceKnown.begin() + std::min(sentence.sourceKnown.size(),
                                                                      attribution.words.size()));
    matrix.rowCopied = sentence.outputCopied;
    matrix.rowGate = sentence.copyGate;
    setMethodColorScale(*heatmap, map);
    m_methodColors = true;
    m_showingMap = true;
    heatmap->setMatrix(matrix);
    if (const ModelSnapshot model = m_source->model())
        heatmap->setRightCells(rightSourcePositions(model->datasetConfig.task, sentence));
    if (row >= 0 && row < matrix.rows.size() && column >= 0 && column < matrix.columns.size())
        heatmap->selectCell(row, column);
    else if (row >= 0 && row < matrix.rows.size())
        heatmap->selectCell(row, 0);
}
