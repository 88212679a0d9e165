#include "ui/charlm/samplebox.h"

#include "ui/charlm/charvaluetext.h"
#include "ui/charlm/ucs4text.h"
#include "ui/core/colorgradients.h"

#include <QBuffer>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>
#include <numeric>

namespace {

constexpr int kTemperatureSteps = 100;  // slider steps per unit of temperature
constexpr int kLegendWidth = 120;
constexpr int kLegendHeight = 10;

double maxEntropy(const CharInferenceNet &net)
{
    return std::log2(double(std::max(2, net.alphabetSize())));
}

}

SampleBox::SampleBox(QWidget *parent)
    : QWidget(parent), m_temperature(new QSlider(Qt::Horizontal)), m_temperatureLabel(new QLabel),
      m_topK(new QSpinBox), m_prime(new QLineEdit), m_length(new QSpinBox), m_sample(new QPushButton(tr("&Sample"))),
      m_view(new CharValueText(CharValueText::Style::Strip)), m_legend(new QLabel), m_summary(new QLabel),
      m_redraw(new QTimer(this))
{
    const SamplingOptions defaults;
    m_temperature->setObjectName(QStringLiteral("samplerTemperature"));
    m_temperature->setRange(0, 2 * kTemperatureSteps);
    m_temperature->setValue(int(std::lround(defaults.temperature * kTemperatureSteps)));
    m_temperature->setToolTip(tr("Temperature divides the logits before the softmax. Low: the likeliest characters "
                                 "win and the text repeats itself; 1: the model's own distribution; high: every "
                                 "character gets a chance and the text babbles. At 0 the likeliest is always taken."));
    m_temperatureLabel->setMinimumWidth(fontMetrics().horizontalAdvance(tr("greedy")) + 6);
    m_topK->setObjectName(QStringLiteral("samplerTopK"));
    m_topK->setRange(0, 1000);
    m_topK->setSpecialValueText(tr("all"));
    m_topK->setValue(defaults.topK);
    m_topK->setToolTip(tr("Draw only from the k likeliest characters (renormalised); \"all\" draws from every one."));
    m_prime->setObjectName(QStringLiteral("samplerPrime"));
    m_prime->setText(QStringLiteral("The "));
    m_prime->setToolTip(tr("Text the model reads before it writes; characters it has never seen are left out."));
    m_length->setObjectName(QStringLiteral("samplerLength"));
    m_length->setRange(1, 2000);
    m_length->setValue(300);
    m_length->setToolTip(tr("Characters to write after the prime."));
    m_sample->setObjectName(QStringLiteral("sampleButton"));
    m_sample->setToolTip(tr("Draw a new sample with the settings here (a new seed each time)."));
    m_view->setObjectName(QStringLiteral("sampleView"));
    m_temperature->setAccessibleName(tr("Temperature"));
    m_topK->setAccessibleName(tr("Top-k"));
    m_prime->setAccessibleName(tr("Prime"));
    m_length->setAccessibleName(tr("Length"));
    m_view->setAccessibleName(tr("Sample"));
    m_view->setAccessibleDescription(tr("The sampled text, each character over a strip coloured by the entropy of "
                                        "the distribution it was drawn from."));
    m_view->setPlaceholder(tr("Train a model (or open one), then press Sample."));
    m_view->setToolTipText([this](int i) {
        const CharValueText::Cell &cell = m_view->cell(i);
        if (!cell.hasValue)
            return tr("%1: from the prime").arg(visibleCharacter(cell.character));
        const size_t at = size_t(i) - m_result.prime.size();
        return tr("%1: drawn with probability %2 from a distribution of entropy %3 bits")
            .arg(visibleCharacter(cell.character))
            .arg(m_result.probabilities[at], 0, 'f', 3)
            .arg(m_result.entropyBits[at], 0, 'f', 2);
    });
    m_summary->setObjectName(QStringLiteral("sampleSummary"));
    m_summary->setWordWrap(true);
    m_redraw->setSingleShot(true);
    m_redraw->setInterval(60);

    auto *scroll = new QScrollArea;
    scroll->setWidget(m_view);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    auto *controls = new QGridLayout;
    controls->addWidget(new QLabel(tr("Temperature")), 0, 0);
    controls->addWidget(m_temperature, 0, 1);
    controls->addWidget(m_temperatureLabel, 0, 2);
    controls->addWidget(new QLabel(tr("Top-k")), 0, 3);
    controls->addWidget(m_topK, 0, 4);
    controls->addWidget(new QLabel(tr("Prime")), 1, 0);
    controls->addWidget(m_prime, 1, 1, 1, 2);
    controls->addWidget(new QLabel(tr("Length")), 1, 3);
    controls->addWidget(m_length, 1, 4);
    controls->addWidget(m_sample, 0, 5, 2, 1);
    controls->setColumnStretch(1, 1);
    auto *legendRow = new QHBoxLayout;
    legendRow->addWidget(m_summary, 1);
    legendRow->addWidget(m_legend);

    auto *box = new QGroupBox(tr("Sample"));
    auto *boxLayout = new QVBoxLayout(box);
    boxLayout->addLayout(controls);
    boxLayout->addWidget(scroll, 1);
    boxLayout->addLayout(legendRow);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(box);

    connect(m_sample, &QPushButton::clicked, this, &SampleBox::sample);
    connect(m_prime, &QLineEdit::returnPressed, this, &SampleBox::sample);
    connect(m_temperature, &QSlider::valueChanged, this, [this] {
        updateTemperatureLabel();
        if (m_hasSample)
            m_redraw->start();
    });
    connect(m_topK, qOverload<int>(&QSpinBox::valueChanged), this, [this] {
        if (m_hasSample)
            m_redraw->start();
    });
    connect(m_redraw, &QTimer::timeout, this, &SampleBox::draw);
    updateTemperatureLabel();
    setNet(nullptr);
}

void SampleBox::setNet(std::shared_ptr<const CharInferenceNet> net)
{
    m_net = std::move(net);
    m_sample->setEnabled(m_net != nullptr);
    updateLegend();
}

double SampleBox::temperature() const
{
    return double(m_temperature->value()) / kTemperatureSteps;
}

void SampleBox::setTemperature(double temperature)
{
    m_temperature->setValue(int(std::lround(temperature * kTemperatureSteps)));
}

void SampleBox::setTopK(int k)
{
    m_topK->setValue(k);
}

void SampleBox::setPrime(const QString &prime)
{
    m_prime->setText(prime);
}

void SampleBox::setLength(int length)
{
    m_length->setValue(length);
}

void SampleBox::updateTemperatureLabel()
{
    m_temperatureLabel->setText(m_temperature->value() == 0 ? tr("greedy") : QString::number(temperature(), 'f', 2));
}

void SampleBox::updateLegend()
{
    if (!m_net) {
        m_legend->clear();
        return;
    }
    // The strip's scale: viridis from certain (0 bits) to uniform over the alphabet.
    const double top = maxEntropy(*m_net);
    QPixmap bar(kLegendWidth, kLegendHeight);
    {
        QPainter painter(&bar);
        QCPColorGradient gradient = viridisGradient();
        for (int x = 0; x < kLegendWidth; ++x) {
            painter.setPen(gradient.color(x, QCPRange(0, kLegendWidth - 1)));
            painter.drawLine(x, 0, x, kLegendHeight);
        }
    }
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    bar.save(&buffer, "PNG");
    m_legend->setText(tr("entropy: 0 bits <img src=\"data:image/png;base64,%1\"> %2 bits")
                          .arg(QString::fromLatin1(png.toBase64()))
                          .arg(top, 0, 'f', 2));
    m_legend->setToolTip(tr("The colour under each character: the entropy of the distribution it was drawn from, "
                            "after temperature and top-k. 0 bits: the model was sure; %1 bits: every one of its "
                            "%2 characters was as likely.")
                             .arg(top, 0, 'f', 2)
                             .arg(m_net->alphabetSize()));
}

void SampleBox::sample()
{
    ++m_seed;
    draw();
}

void SampleBox::draw()
{
    if (!m_net)
        return;
    SamplingOptions options;
    options.temperature = temperature();
    options.topK = m_topK->value();
    options.prime = m_prime->text().toStdU32String();
    options.length = m_length->value();
    options.seed = m_seed;
    try {
        m_result = sampleText(*m_net, options);
    } catch (const std::invalid_argument &e) {
        m_hasSample = false;
        m_view->setCells({}, 0, 1);
        m_view->setPlaceholder(QString::fromStdString(e.what()));
        m_summary->setText(QString::fromStdString(e.what()));
        return;
    }
    m_hasSample = true;
    std::vector<CharValueText::Cell> cells;
    cells.reserve(m_result.prime.size() + m_result.generated.size());
    for (char32_t c : m_result.prime)
        cells.push_back({c, 0, false});
    for (size_t i = 0; i < m_result.generated.size(); ++i)
        cells.push_back({m_result.generated[i], m_result.entropyBits[i], true});
    m_view->setCells(std::move(cells), 0, maxEntropy(*m_net));
    const double mean = meanEntropy();
    m_summary->setText(tr("Mean entropy %1 bits per character at temperature %2 (0: the model is sure; %3: a uniform "
                          "guess over its %4 characters).")
                           .arg(mean, 0, 'f', 2)
                           .arg(m_temperatureLabel->text())
                           .arg(maxEntropy(*m_net), 0, 'f', 2)
                           .arg(m_net->alphabetSize()));
    emit sampled();
}

double SampleBox::meanEntropy() const
{
    const std::vector<double> &e = m_result.entropyBits;
    return e.empty() ? 0 : std::accumulate(e.begin(), e.end(), 0.0) / double(e.size());
}

QString SampleBox::plainText() const
{
    return m_hasSample ? fromUcs4(m_result.prime) + fromUcs4(m_result.generated) : QString();
}

void SampleBox::saveSettings(QSettings &settings) const
{
    settings.setValue(QStringLiteral("samplerTemperature"), temperature());
    settings.setValue(QStringLiteral("samplerTopK"), m_topK->value());
    settings.setValue(QStringLiteral("samplerPrime"), m_prime->text());
    settings.setValue(QStringLiteral("samplerLength"), m_length->value());
}

void SampleBox::restoreSettings(QSettings &settings)
{
    setTemperature(settings.value(QStringLiteral("samplerTemperature"), temperature()).toDouble());
    m_topK->setValue(settings.value(QStringLiteral("samplerTopK"), m_topK->value()).toInt());
    m_prime->setText(settings.value(QStringLiteral("samplerPrime"), m_prime->text()).toString());
    m_length->setValue(settings.value(QStringLiteral("samplerLength"), m_length->value()).toInt());
}
