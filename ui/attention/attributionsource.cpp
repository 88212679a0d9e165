#include "ui/attention/attributionsource.h"

#include "engine/core/tokenizer.h"
#include "engine/core/vocabulary.h"
#include "ui/attention/attributionrunner.h"
#include "ui/core/explainhint.h"

#include <QTimer>

#include <algorithm>
#include <set>
#include <utility>

AttributionSource::AttributionSource(QObject *parent)
    : QObject(parent), m_runner(new AttributionRunner(this)), m_pause(new QTimer(this))
{
    connect(m_runner, &AttributionRunner::attributed, this, &AttributionSource::setAttribution);
    connect(m_runner, &AttributionRunner::contrasted, this, [this](const ContrastiveAttribution &contrast) {
        m_contrast = contrast;
        m_hasContrast = true;
        emit contrasted();
    });
    connect(m_runner, &AttributionRunner::failed, this, [this](const QString &message) {
        if (m_contrastAsked && !m_computing) {  // a contrast is asked only when nothing else is computing
            emit contrastFailed(message);
            return;
        }
        m_computing = false;
        m_contrastWaiting.clear();
        showMessage(tr("Cannot explain this sentence: %1").arg(message));
    });
    m_message = tr("Type a sentence in the Reverse page.");
    // Explained once typing pauses: every keystroke's explanation would take a core from training.
    m_pause->setSingleShot(true);
    m_pause->setInterval(kTypingPauseMs);
    connect(m_pause, &QTimer::timeout, this, [this] {
        if (m_model)
            m_runner->attribute(m_model, tokenize(m_text.toStdString(), m_model->lowercase()), m_requested);
    });
}

void AttributionSource::setSentence(const ModelSnapshot &model, const QString &text)
{
    if (model == m_model && text == m_text)
        return;
    if (text != m_text)
        m_row = -1;  // the row clicked in another sentence means nothing here
    m_model = model;
    m_text = text;
    explain(/*afterPause=*/true);
}

void AttributionSource::explain(bool afterPause)
{
    m_pause->stop();
    m_hasContrast = false;
    m_contrastAsked = false;
    m_contrastWaiting.clear();
    const ModelSnapshot model = m_model;
    const QString text = m_text;
    if (!model) {
        m_computing = false;
        showMessage(tr("No model yet."));
        return;
    }
    const std::vector<std::string> words = tokenize(text.toStdString(), model->lowercase());
    if (words.size() < 2) {
        m_computing = false;
        showMessage(tooFewWordsToExplain(words.size()));
        return;
    }
    m_computing = true;
    m_requested = neededOptions();
    if (afterPause)
        m_pause->start();
    else
        m_runner->attribute(model, words, m_requested);
    emit attributionChanged();  // the views say they are computing
}

AttributionOptions AttributionSource::neededOptions() const
{
    AttributionOptions options;
    options.integrationSteps = kDefaultIntegrationSteps;
    options.methods = {AttributionMethod::Attention};
    if (m_heatmapMethod != AttributionMethod::Attention)
        options.methods.push_back(m_heatmapMethod);
    if (attributionReadsGradients(m_heatmapMethod)) {
        if (m_everyMethodShown)
            options.methods = allAttributionMethods();  // the heatmap's gradients serve every method
    } else if (m_everyMethodShown && m_row >= 0) {
        // One row costs about a tenth of a 10-word sentence's rows in gradients.
        options.methods = allAttributionMethods();
        options.gradientRow = m_row;
    }
    return options;
}

void AttributionSource::setHeatmapMethod(AttributionMethod method)
{
    m_heatmapMethod = method;
    explainWhatIsMissing();
}

void AttributionSource::setEveryMethodShown(bool shown)
{
    m_everyMethodShown = shown;
    explainWhatIsMissing();
}

bool AttributionSource::hasOrIsComputing(AttributionMethod method, int gradientRow) const
{
    const auto covers = [&](int rowHeld) {
        return !attributionReadsGradients(method) || rowHeld < 0 || rowHeld == gradientRow;
    };
    if (m_computing)
        return std::find(m_requested.methods.begin(), m_requested.methods.end(), method) != m_requested.methods.end() &&
               covers(m_requested.gradientRow);
    return m_attribution.map(method) != nullptr && covers(m_attribution.gradientRow);
}

void AttributionSource::explainWhatIsMissing()
{
    if (!m_model || (!m_has && !m_computing))
        return;  // nothing to explain: the views show why
    const AttributionOptions needed = neededOptions();
    for (const AttributionMethod method : needed.methods)
        if (!hasOrIsComputing(method, needed.gradientRow)) {
            explain(/*afterPause=*/false);  // supersedes a computation under way
            return;
        }
}

void AttributionSource::setAttribution(const SentenceAttribution &attribution)
{
    m_attribution = attribution;
    m_has = true;
    m_computing = false;
    m_message.clear();
    m_hasContrast = false;
    if (m_row >= m_attribution.sentence.rows())
        m_row = -1;
    emit attributionChanged();
    emit rowSelected(m_row);
    if (!m_contrastWaiting.empty())
        contrast(std::exchange(m_contrastWaiting, std::string()));
}

void AttributionSource::showMessage(const QString &message)
{
    m_has = false;
    m_attribution = SentenceAttribution{};
    m_message = message;
    m_row = -1;
    emit attributionChanged();
    emit rowSelected(m_row);
}

bool AttributionSource::explains(const DecodedSentence &sentence) const
{
    return m_has && m_attribution.sentence.sourceTokens == sentence.sourceTokens
           && m_attribution.sentence.outputTokens == sentence.outputTokens;
}

void AttributionSource::selectRow(int row)
{
    const int rows = m_has ? m_attribution.sentence.rows() : 0;
    const int selected = row >= 0 && row < rows ? row : -1;
    if (selected == m_row)
        return;
    m_row = selected;
    m_hasContrast = false;
    m_contrastWaiting.clear();
    emit rowSelected(m_row);
    explainWhatIsMissing();
}

void AttributionSource::contrast(const std::string &alternative)
{
    if (!m_has || m_row < 0 || !m_model)
        return;
    m_contrastAsked = true;
    m_hasContrast = false;
    if (m_computing) {  // a request now would supersede the explanation under way
        m_contrastWaiting = alternative;
        return;
    }
    m_runner->contrast(m_model, m_attribution, m_row, alternative, kDefaultIntegrationSteps);
}

QStringList AttributionSource::writableWords() const
{
    if (!m_model)
        return {};
    std::set<std::string> words;
    for (const std::string &word : m_model->vocabulary().words())
        words.insert(word);
    for (const int marker : {Vocabulary::kPad, Vocabulary::kSos, Vocabulary::kUnk})
        words.erase(m_model->vocabulary().word(marker));
    if (m_model->config().usesPointer() && m_has)
        words.insert(m_attribution.words.begin(), m_attribution.words.end());
    QStringList list;
    for (const std::string &word : words)
        list << QString::fromStdString(word);
    return list;
}
