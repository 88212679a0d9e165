#include "ui/word2vec/noisechart.h"

#include "engine/word2vec/noisedistribution.h"
#include "ui/core/plotexport.h"
#include "ui/core/plotstyle.h"

#include <algorithm>
#include <numeric>

NoiseChart::NoiseChart(QWidget *parent)
    : QCustomPlot(parent), m_noise(new QCPBars(xAxis, yAxis)), m_corpus(new QCPBars(xAxis, yAxis))
{
    const PlotFonts fonts = plotFonts(font());
    m_title = addPlotTitle(*this, tr("Noise distribution"), fonts);
    m_corpus->setName(tr("share of the corpus"));
    m_corpus->setBrush(QColor(180, 180, 180));
    m_corpus->setPen(Qt::NoPen);
    m_noise->setName(tr("share of the noise words"));
    m_noise->setBrush(QColor(31, 119, 180));
    m_noise->setPen(Qt::NoPen);
    auto *group = new QCPBarsGroup(this);
    m_corpus->setBarsGroup(group);
    m_noise->setBarsGroup(group);
    m_corpus->setWidth(0.4);
    m_noise->setWidth(0.4);
    yAxis->setLabel(tr("probability"));
    yAxis->setLabelFont(fonts.label);
    xAxis->setTickLabelRotation(60);
    xAxis->setTickLabelFont(fonts.tick);
    xAxis->grid()->setVisible(false);
    legend->setVisible(true);
    QFont legendFont = fonts.tick;
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.85);
    legend->setFont(legendFont);
    legend->setBrush(QColor(255, 255, 255, 200));
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
}

void NoiseChart::setDistribution(const std::vector<std::string> &words, const std::vector<int64_t> &counts,
                                 double exponent)
{
    m_noise->data()->clear();
    m_corpus->data()->clear();
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    if (!counts.empty()) {
        const std::vector<double> noise = NoiseDistribution(counts, exponent).probabilities();
        const double total = double(std::accumulate(counts.begin(), counts.end(), int64_t(0)));
        double top = 0;
        for (int i = 0; i < std::min<int>(kWordsShown, int(counts.size())); ++i) {
            m_noise->addData(i, noise[std::size_t(i)]);
            m_corpus->addData(i, double(counts[std::size_t(i)]) / total);
            ticker->addTick(i, QString::fromStdString(words[std::size_t(i)]));
            top = std::max({top, noise[std::size_t(i)], double(counts[std::size_t(i)]) / total});
        }
        xAxis->setRange(-0.6, std::min<int>(kWordsShown, int(counts.size())) - 0.4);
        yAxis->setRange(0, top * 1.6);  // room for the legend above the bars
    }
    xAxis->setTicker(ticker);
    m_title->setText(tr("Noise words ∝ count^%1").arg(exponent, 0, 'g', 3));
    replot(rpQueuedReplot);
}

bool NoiseChart::exportImage(const QString &path, int width, int height, QString *error)
{
    const bool written = exportPlotImage(*this, path, width, height, error);
    replot(rpQueuedReplot);  // the export laid the chart out at its own size
    return written;
}
