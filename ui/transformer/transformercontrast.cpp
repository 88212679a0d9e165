#include "ui/transformer/transformercontrast.h"

#include "engine/core/vocabulary.h"
#include "ui/core/contrastbox.h"
#include "ui/transformer/transformerattributionrunner.h"
#include "ui/transformer/transformermethodview.h"
#include "ui/transformer/transformerresults.h"

#include <utility>

TransformerContrast::TransformerContrast(TransformerMethodView *methods, QObject *parent)
    : QObject(parent), m_methods(methods), m_box(new ContrastBox), m_runner(new TransformerAttributionRunner(this))
{
    m_box->setObjectName(QStringLiteral("transformerContrast"));
    connect(m_methods, &TransformerMethodView::attributionChanged, this, &TransformerContrast::followStep);
    connect(m_methods, &TransformerMethodView::rowSelected, this, &TransformerContrast::followStep);
    // A beam hypothesis other than the greedy output has no explanation to contrast.
    connect(m_methods, &TransformerMethodView::changed, this, [this] {
        if (ready() != m_ready)
            followStep();
    });
    connect(m_box, &ContrastBox::compareAsked, this, &TransformerContrast::ask);
    connect(m_runner, &TransformerAttributionRunner::contrasted, this, [this](const ContrastiveAttribution &contrast) {
        m_asking = false;
        if (!fitsShown(contrast)) {  // asked for a step no longer shown
            followStep();
            return;
        }
        m_contrast = contrast;
        m_has = true;
        m_box->showContrast(contrast);
        emit contrastChanged();
    });
    connect(m_runner, &TransformerAttributionRunner::failed, this, [this](const QString &message) {
        m_asking = false;
        if (!ready()) {
            followStep();
            return;
        }
        m_box->showFailure(message);
        if (std::exchange(m_has, false))
            emit contrastChanged();
    });
    followStep();
}

bool TransformerContrast::ready() const
{
    return m_methods->hasAttribution() && m_methods->fitsShownOutput() && m_methods->selectedRow() >= 0;
}

QStringList TransformerContrast::writableWords() const
{
    QStringList words;
    if (!m_methods->snapshot())
        return words;
    const Vocabulary &vocabulary = m_methods->snapshot()->vocabulary;
    for (const std::string &word : vocabulary.words())
        words << QString::fromStdString(word);
    for (const int marker : {Vocabulary::kPad, Vocabulary::kSos, Vocabulary::kUnk})
        words.removeAll(QString::fromStdString(vocabulary.word(marker)));
    words.sort();
    return words;
}

bool TransformerContrast::fitsShown(const ContrastiveAttribution &contrast) const
{
    const TransformerAttribution &attribution = m_methods->attribution();
    return ready() && contrast.row == m_methods->selectedRow() && m_askedOf == m_methods->snapshot() &&
           m_askedSource == attribution.sourceTokens && m_askedOutput == attribution.outputTokens;
}

void TransformerContrast::followStep()
{
    const bool hadContrast = std::exchange(m_has, false);
    m_ready = ready();
    const int row = m_methods->selectedRow();
    if (row != m_waitingRow)
        m_waiting.clear();
    m_box->setStep(m_ready ? &m_methods->attribution() : nullptr, row, writableWords(), waiting() || m_asking);
    if (m_ready && waiting() && !m_methods->computing())
        ask(std::exchange(m_waiting, QString()));
    if (hadContrast)
        emit contrastChanged();
}

void TransformerContrast::ask(const QString &alternative)
{
    if (!ready())
        return;
    if (m_methods->computing()) {  // the word's gradients are under way: the contrast needs them
        m_waiting = alternative;
        m_waitingRow = m_methods->selectedRow();
        return;
    }
    m_asking = true;
    m_askedOf = m_methods->snapshot();
    m_askedSource = m_methods->attribution().sourceTokens;
    m_askedOutput = m_methods->attribution().outputTokens;
    m_runner->contrast(m_methods->snapshot(), m_methods->attribution(), m_methods->selectedRow(),
                       alternative.toStdString(), kDefaultIntegrationSteps);
}
