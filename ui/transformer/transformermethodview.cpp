#include "ui/transformer/transformermethodview.h"

#include "ui/core/attentionheatmap.h"
#include "ui/core/attributionstripsplot.h"
#include "ui/core/colorgradients.h"
#include "ui/core/explainhint.h"
#include "ui/core/methodcolors.h"
#include "ui/core/rowagreementtext.h"
#include "ui/core/stepscorestable.h"
#include "ui/transformer/transformerattributionrunner.h"
#include "ui/transformer/transformerresults.h"

#include <QComboBox>
#include <QLabel>
#include <QLocale>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace {

constexpr int kExplainAfterTypingMs = 250;  // typing must pause this long before the sentence is explained
const QString kHeadWeights = QStringLiteral("heads");

QStringList methodViewWords(const std::vector<std::string> &words)
{
    QStringList list;
    for (const std::string &word : words)
        list << QString::fromStdString(word);
    return list;
}

bool hasMethod(const std::vector<AttributionMethod> &methods, AttributionMethod method)
{
    return std::find(methods.begin(), methods.end(), method) != methods.end();
}

}  // namespace

TransformerMethodView::TransformerMethodView(QObject *parent)
    : QObject(parent), m_selector(new QComboBox), m_caption(new QLabel), m_steps(new StepScoresTable),
      m_strips(new AttributionStripsPlot), m_agreement(new QLabel), m_methodsTab(new QWidget), m_runner(new TransformerAttributionRunner(this)), m_pause(new QTimer(this))
{
    m_selector->setObjectName(QStringLiteral("explainMethod"));
    m_selector->addItem(tr("Head weights"));
    // Attention (the last layer's heads averaged) is a strip of the small multiples, not a map here:
    // the heads are this heatmap's own. Rollout reads attention too, so it comes first.
    m_selector->addItem(QString::fromUtf8(attributionMethodTitle(AttributionMethod::Rollout)),
                        int(AttributionMethod::Rollout));
    for (const AttributionMethod method : allAttributionMethods())
        if (method != AttributionMethod::Attention)
            m_selector->addItem(QString::fromUtf8(attributionMethodTitle(method)), int(method));
    m_selector->setToolTip(tr("What the cross-attention heatmap shows: the selected head's weights, or how much each "
                              "input word contributes to log P of each output word: attention rolled out through "
                              "every layer, or methods that never read the attention (gradients, integrated "
                              "gradients, leaving the word out)."));
    m_caption->setObjectName(QStringLiteral("explainCaption"));
    m_caption->setWordWrap(true);
    m_caption->setTextFormat(Qt::RichText);
    m_steps->setObjectName(QStringLiteral("transformerStepScores"));
    m_strips->setObjectName(QStringLiteral("transformerSmallMultiples"));
    m_strips->setMinimumHeight(160);
    m_agreement->setObjectName(QStringLiteral("transformerRowAgreement"));
    m_agreement->setWordWrap(true);
    m_agreement->setTextFormat(Qt::RichText);
    m_agreement->setToolTip(tr("Spearman's rank correlation of each pair of methods over the source words, for "
                               "this output word; ρ beside a method's name is its agreement with attention."));
    auto *tabLayout = new QVBoxLayout(m_methodsTab);
    tabLayout->setContentsMargins(0, 0, 0, 0);
    tabLayout->addWidget(m_agreement);
    tabLayout->addWidget(m_strips, 1);
    m_pause->setSingleShot(true);
    m_pause->setInterval(kExplainAfterTypingMs);
    connect(m_pause, &QTimer::timeout, this, [this] { m_runner->attribute(m_snapshot, m_words, m_requested); });
    connect(m_runner, &TransformerAttributionRunner::attributed, this, &TransformerMethodView::setAttribution);
    connect(m_runner, &TransformerAttributionRunner::failed, this,
            [this](const QString &message) { showMessage(tr("Cannot explain this sentence: %1").arg(message)); });
    connect(m_selector, &QComboBox::currentIndexChanged, this, [this] {
        explainWhatIsMissing();
        emit mapChanged();
    });
    showMessage(tr("No model yet."));
}

bool TransformerMethodView::showsMethod() const
{
    return m_selector->currentData().isValid();
}

AttributionMethod TransformerMethodView::method() const
{
    return AttributionMethod(m_selector->currentData().toInt());
}

void TransformerMethodView::setMethod(const std::optional<AttributionMethod> &method)
{
    m_selector->setCurrentIndex(method ? std::max(0, m_selector->findData(int(*method))) : 0);
}

QString TransformerMethodView::methodName() const
{
    return showsMethod() ? QString::fromUtf8(attributionMethodName(method())) : kHeadWeights;
}

void TransformerMethodView::setMethodName(const QString &name)
{
    AttributionMethod method;
    if (name == kHeadWeights)
        setMethod(std::nullopt);
    else if (parseAttributionMethod(name.toStdString(), &method) && m_selector->findData(int(method)) >= 0)
        setMethod(method);
}

void TransformerMethodView::setSentence(const std::shared_ptr<const TransformerSnapshot> &snapshot,
                                        const std::vector<std::string> &words)
{
    if (snapshot == m_snapshot && words == m_words)
        return;
    if (words != m_words)
        m_row = -1;  // the row clicked in another sentence means nothing here
    m_snapshot = snapshot;
    m_words = words;
    m_has = false;  // another sentence or other weights: the explanation shown no longer holds
    m_attribution = TransformerAttribution{};
    explain(/*afterPause=*/true);
}

void TransformerMethodView::setShownOutput(const std::vector<std::string> &outputTokens)
{
    m_shownOutput = outputTokens;
    updateViews();
}

void TransformerMethodView::explain(bool afterPause)
{
    m_pause->stop();
    if (!m_snapshot) {
        showMessage(tr("No model yet."));
        return;
    }
    if (m_words.size() < 2) {
        showMessage(tooFewWordsToExplain(m_words.size()));
        return;
    }
    m_computing = true;
    m_requested = neededOptions();
    if (afterPause)
        m_pause->start();
    else
        m_runner->attribute(m_snapshot, m_words, m_requested);
    updateViews();
    emit mapChanged();
    emit attributionChanged();
}

AttributionOptions TransformerMethodView::neededOptions() const
{
    // Attention, rollout and occlusion cost a few decodes; the gradients cost a backward pass per
    // step, so they come for the whole sentence only when the heatmap shows one of them, and
    // otherwise for the clicked row alone.
    const bool gradientMap = showsMethod() && attributionReadsGradients(method());
    AttributionOptions options;
    options.methods.clear();
    for (const AttributionMethod method : transformerAttributionMethods())
        if (!attributionReadsGradients(method) || gradientMap || m_row >= 0)
            options.methods.push_back(method);
    options.gradientRow = gradientMap ? -1 : m_row;
    return options;
}

bool TransformerMethodView::covers(const std::vector<AttributionMethod> &methods, int gradientRow,
                                   const AttributionOptions &needed) const
{
    for (const AttributionMethod method : needed.methods)
        if (!hasMethod(methods, method) ||
            (attributionReadsGradients(method) && gradientRow >= 0 && gradientRow != needed.gradientRow))
            return false;
    return true;
}

void TransformerMethodView::explainWhatIsMissing()
{
    if (!m_snapshot || (!m_has && !m_computing))
        return;  // nothing to explain: the views say why
    const AttributionOptions needed = neededOptions();
    std::vector<AttributionMethod> computed;
    for (const AttributionMap &map : m_attribution.maps)
        computed.push_back(map.method);
    const bool held = m_computing ? covers(m_requested.methods, m_requested.gradientRow, needed)
                                  : covers(computed, m_attribution.gradientRow, needed);
    if (!held)
        explain(/*afterPause=*/false);  // supersedes a computation under way
}

void TransformerMethodView::setAttribution(const TransformerAttribution &attribution)
{
    m_attribution = attribution;
    m_has = true;
    m_computing = false;
    m_message.clear();
    if (m_row >= int(m_attribution.outputTokens.size()))
        m_row = -1;
    updateViews();
    emit mapChanged();
    emit attributionChanged();
}

void TransformerMethodView::showMessage(const QString &message)
{
    m_has = false;
    m_computing = false;
    m_attribution = TransformerAttribution{};
    m_message = message;
    updateViews();
    emit mapChanged();
    emit attributionChanged();
}

void TransformerMethodView::selectRow(int row)
{
    if (row == m_row)
        return;
    m_row = row;
    explainWhatIsMissing();
    updateViews();
    emit rowSelected(m_row);
}

QString TransformerMethodView::greedyOnlyNote() const
{
    return tr("The step scores and the methods explain the greedy output: set Beam to 1, or choose the best "
              "hypothesis when it is the greedy one.");
}

bool TransformerMethodView::fitsShownOutput() const
{
    return m_has && m_attribution.outputTokens == m_shownOutput;
}

void TransformerMethodView::updateViews()
{
    const QString greedyOnly = greedyOnlyNote();
    if (fitsShownOutput()) {
        m_steps->setAttribution(m_attribution);
        m_steps->selectStep(m_row);
    } else {
        m_steps->showMessage(m_has ? greedyOnly : m_computing ? tr("Explaining the sentence…") : m_message);
    }
    const AttributionMap *ig = m_attribution.map(AttributionMethod::IntegratedGradients);
    const bool rowExplained = fitsShownOutput() && m_row >= 0 && ig &&
                              (m_attribution.gradientRow < 0 || m_attribution.gradientRow == m_row);
    if (rowExplained) {
        const RowAgreementText agreement = rowAgreementText(m_attribution, m_row);
        m_agreement->setText(agreement.line);
        std::vector<MethodScores> methods;
        for (std::size_t m = 0; m < m_attribution.maps.size(); ++m)
            methods.push_back({m_attribution.maps[m].method, m_attribution.maps[m].row(m_row), agreement.notes[int(m)]});
        const QString output = QString::fromStdString(m_attribution.outputTokens[std::size_t(m_row)]);
        m_strips->setScores(tr("Output word %1: %2").arg(m_row + 1).arg(output), methodViewWords(m_attribution.words), methods);
    } else if (!fitsShownOutput()) {
        m_agreement->clear();
        m_strips->showMessage(m_has ? greedyOnly : m_computing ? tr("Explaining the sentence…") : m_message);
    } else {
        m_agreement->setText(m_row < 0 ? tr("<small>Click an output word (a row of the cross-attention).</small>")
                                       : QString());
        m_strips->showMessage(m_row < 0 ? tr("Click an output word (a row of the cross-attention) to compare every "
                                             "method on it.")
                                        : tr("Explaining this output word…"));
    }
    emit changed();
}

bool TransformerMethodView::paint(AttentionHeatmap &heatmap, bool cross)
{
    m_selector->setEnabled(cross);
    const bool otherOutput = m_has && !fitsShownOutput();
    m_caption->setText(otherOutput ? QStringLiteral("<small>%1</small>").arg(greedyOnlyNote()) : QString());
    m_caption->setVisible(otherOutput);
    if (!cross || !showsMethod()) {
        if (m_methodColors)
            heatmap.setColorScale(viridisGradient(), QCPRange(0, 1), tr("attention weight"));
        m_methodColors = false;
        return false;
    }
    const QString title = QString::fromUtf8(attributionMethodTitle(method()));
    const AttributionMap *map = fitsShownOutput() ? m_attribution.map(method()) : nullptr;
    if (!map || (attributionReadsGradients(method()) && m_attribution.gradientRow >= 0)) {
        heatmap.showMessage(otherOutput ? tr("%1 explains the greedy output: set Beam to 1").arg(title)
                            : m_computing ? tr("Computing %1…").arg(title.toLower())
                                          : m_message);
        return true;
    }
    m_caption->setVisible(true);
    setMethodColorScale(heatmap, *map);
    m_methodColors = true;
    std::vector<float> cells;
    for (const double score : map->scores)
        cells.push_back(float(score));
    heatmap.setMatrix(methodViewWords(m_attribution.words), methodViewWords(m_attribution.outputTokens), cells);
    heatmap.setTitle(title);
    switch (map->method) {
    case AttributionMethod::Rollout:
        m_caption->setText(tr("<small>Each cell: the share of the output word's row that comes from the input word "
                              "through every layer (heads averaged, the residual mixed in).</small>"));
        break;
    case AttributionMethod::Saliency:
        m_caption->setText(tr("<small>Each cell: how strongly log P(output word) reacts to the input word's "
                              "embedding, ‖∂ log P / ∂e‖; never negative.</small>"));
        break;
    case AttributionMethod::Occlusion:
        m_caption->setText(tr("<small>Each cell: how much log P(output word) drops, in nats, when the input word is "
                              "left out; red helps, blue hurts.</small>"));
        break;
    default:
        m_caption->setText(tr("<small>Each cell: the input word's share of log P(output word), in nats, by %1; red "
                              "helps, blue hurts.</small>")
                               .arg(title.toLower()));
        break;
    }
    return true;
}

QString TransformerMethodView::cellText(int row, int column) const
{
    const AttributionMap *map = showsMethod() && fitsShownOutput() ? m_attribution.map(method()) : nullptr;
    if (!map || row < 0 || column < 0 || row >= map->rows || column >= map->columns)
        return QString();
    const QString output = QString::fromStdString(m_attribution.outputTokens[std::size_t(row)]).toHtmlEscaped();
    const QString input = QString::fromStdString(m_attribution.words[std::size_t(column)]).toHtmlEscaped();
    const QString score = QLocale().toString(map->at(row, column), 'f', 3);
    const QString title = QString::fromUtf8(attributionMethodTitle(map->method));
    return tr("%1: output <b>%2</b> from input <b>%3</b>: <b>%4</b>").arg(title, output, input, score);
}
