#include "ui/attention/rowattributionview.h"

#include "ui/attention/attributionsource.h"
#include "ui/core/contrastbox.h"
#include "ui/core/attributionstripsplot.h"
#include "ui/core/rowagreementtext.h"
#include "ui/core/scrolledpanel.h"

#include <QGroupBox>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>

RowAttributionView::RowAttributionView(AttributionSource *source, QWidget *parent)
    : QWidget(parent), m_source(source)
{
    m_agreement = new QLabel;
    m_agreement->setObjectName(QStringLiteral("rowAgreement"));
    m_agreement->setWordWrap(true);
    m_agreement->setTextFormat(Qt::RichText);
    m_agreement->setToolTip(tr("Spearman's rank correlation of each pair of methods over the source words, for "
                               "this output word; ρ beside a method's name is its agreement with attention. Each "
                               "strip below is scaled to its method's largest |score| (red positive, blue "
                               "negative); the outlined cell is the method's top word."));
    m_plot = new AttributionStripsPlot;
    m_plot->setObjectName(QStringLiteral("smallMultiples"));
    m_contrast = new ContrastBox;
    m_contrast->setObjectName(QStringLiteral("contrastBox"));

    auto *contrastGroup = new QGroupBox(tr("Contrast"));
    auto *contrastLayout = new QVBoxLayout(contrastGroup);
    contrastLayout->setContentsMargins(4, 4, 4, 4);
    contrastLayout->addWidget(m_contrast);
    auto *content = new QWidget;
    auto *layout = new QVBoxLayout(content);
    layout->addWidget(m_agreement);
    layout->addWidget(m_plot, 1);
    layout->addWidget(contrastGroup);
    // The strips and the contrast need more height than a dock shares at 720 lines: they scroll.
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scrolledPanel(content));

    connect(m_source, &AttributionSource::rowSelected, this, &RowAttributionView::showRow);
    connect(m_source, &AttributionSource::attributionChanged, this, &RowAttributionView::showRow);
    showRow();
    connectContrast();
}

// The contrastive box follows the source's clicked step and asks the source for its contrasts.
void RowAttributionView::connectContrast()
{
    const auto followStep = [this] {
        m_contrast->setStep(m_source->hasAttribution() ? &m_source->attribution() : nullptr, m_source->selectedRow(),
                            m_source->writableWords(), m_source->contrastWaiting());
    };
    connect(m_source, &AttributionSource::rowSelected, m_contrast, followStep);
    connect(m_source, &AttributionSource::attributionChanged, m_contrast, followStep);
    connect(m_source, &AttributionSource::contrasted, m_contrast, [this] {
        if (m_source->contrastResult().row == m_source->selectedRow())  // not one asked for another word
            m_contrast->showContrast(m_source->contrastResult());
    });
    connect(m_source, &AttributionSource::contrastFailed, m_contrast, &ContrastBox::showFailure);
    connect(m_contrast, &ContrastBox::compareAsked, m_source,
            [this](const QString &word) { m_source->contrast(word.toStdString()); });
    followStep();
}

void RowAttributionView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    emit visibilityChanged(true);
}

void RowAttributionView::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    emit visibilityChanged(false);
}

QString RowAttributionView::agreementText() const
{
    return m_agreement->text();
}

bool RowAttributionView::hasRow() const
{
    return m_plot->methodCount() > 0;
}

void RowAttributionView::showRow()
{
    const int row = m_source->selectedRow();
    if (!m_source->hasAttribution()) {
        m_agreement->clear();
        m_plot->showMessage(m_source->computing() ? tr("Explaining the sentence…") : m_source->message());
        emit rowShown();
        return;
    }
    if (row < 0) {
        m_agreement->setText(tr("<small>Click an output word (a row) of the heatmap.</small>"));
        m_plot->showMessage(tr("Click an output word of the heatmap to compare the methods on it."));
        emit rowShown();
        return;
    }
    const SentenceAttribution &attribution = m_source->attribution();
    // The gradient methods come for the clicked row only: until they do, the row is not explained.
    const bool explained = attribution.map(AttributionMethod::IntegratedGradients) != nullptr &&
                           std::all_of(attribution.maps.begin(), attribution.maps.end(), [&](const AttributionMap &map) {
                               return attribution.explains(map.method, row);
                           });
    if (!explained) {
        m_agreement->clear();
        m_plot->showMessage(m_source->computing() ? tr("Explaining this output word…") : m_source->message());
        emit rowShown();
        return;
    }
    const RowAgreementText agreement = rowAgreementText(attribution, row);
    std::vector<MethodScores> methods;
    for (std::size_t m = 0; m < attribution.maps.size(); ++m)
        methods.push_back({attribution.maps[m].method, attribution.maps[m].row(row), agreement.notes[int(m)]});
    const QString output = QString::fromStdString(attribution.sentence.outputTokens[std::size_t(row)]);
    m_agreement->setText(agreement.line);
    QStringList words;
    for (const std::string &word : attribution.words)
        words << QString::fromStdString(word);
    m_plot->setScores(tr("Output word %1: %2").arg(row + 1).arg(output), words, methods);
    emit rowShown();
}
