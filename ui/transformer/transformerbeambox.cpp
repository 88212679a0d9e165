#include "ui/transformer/transformerbeambox.h"

#include "ui/core/beamlisting.h"
#include "ui/core/beamcontrols.h"
#include "ui/core/beamview.h"
#include "ui/transformer/transformerresults.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QStringList>

#include <algorithm>
#include <stdexcept>

namespace {

// As many as the RNN's panel lists: more rarely differ in more than a word.
constexpr int kListedHypotheses = 5;

QString joinedWords(const std::vector<std::string> &words)
{
    QStringList list;
    for (const std::string &word : words)
        list << QString::fromStdString(word);
    return list.join(QLatin1Char(' '));
}

}  // namespace

TransformerBeamBox::TransformerBeamBox(QWidget *parent)
    : QWidget(parent)
    , m_width(createBeamWidthBox(QStringLiteral("transformerBeamWidth")))
    , m_alpha(createLengthAlphaBox(QStringLiteral("transformerBeamAlpha")))
    , m_view(new BeamView)
{
    m_alpha->setEnabled(false);
    m_view->setObjectName(QStringLiteral("transformerBeamView"));

    auto *widthLabel = new QLabel(tr("&Beam:"));
    widthLabel->setBuddy(m_width);
    auto *alphaLabel = new QLabel(tr("Length &penalty α:"));
    alphaLabel->setBuddy(m_alpha);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(widthLabel);
    layout->addWidget(m_width);
    layout->addWidget(alphaLabel);
    layout->addWidget(m_alpha);

    connect(m_width, &QSpinBox::valueChanged, this, [this](int width) {
        m_alpha->setEnabled(width > 1);
        emit optionsChanged();
    });
    connect(m_alpha, &QDoubleSpinBox::valueChanged, this, &TransformerBeamBox::optionsChanged);
    connect(m_view, &BeamView::hypothesisSelected, this, &TransformerBeamBox::hypothesisSelected);
}

BeamOptions TransformerBeamBox::options() const
{
    BeamOptions options;
    options.width = m_width->value();
    options.alpha = m_alpha->value();
    options.nbest = std::min(options.width, kListedHypotheses);
    return options;
}

void TransformerBeamBox::setOptions(const BeamOptions &options)
{
    m_alpha->setValue(options.alpha);
    m_width->setValue(options.width);
}

void TransformerBeamBox::clear()
{
    m_hypotheses.clear();
    m_view->clear();
}

TransformerOutput TransformerBeamBox::decode(const TransformerSnapshot &snapshot, const std::vector<std::string> &words)
{
    clear();
    const BeamOptions beam = options();
    if (beam.width == 1)
        return decodeWords(*snapshot.inference, snapshot.vocabulary, words);
    TransformerBeamOutput result = beamDecodeWords(*snapshot.inference, snapshot.vocabulary, words, beam);
    if (result.nbest.empty())  // every continuation had probability 0: broken weights
        throw std::runtime_error(tr("Beam search found no output with a finite probability").toStdString());
    BeamListing listing;
    listing.alpha = beam.alpha;
    listing.note = tr("Choose one to see its output and attention.");
    for (const ScoredTransformerOutput &h : result.nbest)
        listing.nbest.push_back({joinedWords(h.output.outputTokens), h.logProb, h.score});
    listing.steps = keptSteps(result.steps, result.nbest.front().tokens,
                              [&](int id) { return snapshot.vocabulary.word(id); });
    m_hypotheses = std::move(result.nbest);
    m_view->setResult(listing);
    return m_hypotheses.front().output;
}
