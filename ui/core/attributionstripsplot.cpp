#include "ui/core/attributionstripsplot.h"

#include "ui/core/colorgradients.h"
#include "ui/core/plotexport.h"
#include "ui/core/plotstyle.h"

#include <QLocale>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace {

constexpr int kMinimumWidth = 200;
constexpr int kMessageHeight = 60;
constexpr int kStripHeight = 18;       // a method's row: room for its name
constexpr int kWordLabelsHeight = 70;  // the slanted words under the strips, and margins
constexpr int kWordLabelGap = 6;        // free pixels wanted between level neighbouring words

double largestMagnitude(const std::vector<double> &scores)
{
    double largest = 0;
    for (const double score : scores)
        if (std::isfinite(score))
            largest = std::max(largest, std::abs(score));
    return largest;
}

}

AttributionStripsPlot::AttributionStripsPlot(QWidget *parent) : QCustomPlot(parent)
{
    setAccessibleName(tr("Attribution small multiples"));
    // A message's unwrapped width would otherwise be the plot's minimum, and widen the dock and window.
    setMinimumWidth(kMinimumWidth);
    m_heading = new QCPTextElement(this, QString(), plotFonts(font()).label);
    m_heading->setTextFlags(Qt::AlignCenter | Qt::TextWordWrap);
    xAxis->grid()->setVisible(false);
    yAxis->grid()->setVisible(false);
    yAxis->setRangeReversed(true);  // the first method on top
    for (QCPAxis *axis : {xAxis, yAxis}) {
        axis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
        axis->setSubTicks(false);
        axis->setTickLength(0, 0);
        axis->setBasePen(Qt::NoPen);
    }
    setMouseTracking(true);
    connect(this, &QCustomPlot::mouseMove, this, &AttributionStripsPlot::onMouseMove);
    showMessage(tr("Click an output word of the heatmap to compare the methods on it."));
}

void AttributionStripsPlot::setHeading(const QString &text)
{
    m_heading->setText(text);
    // Out of the layout while empty, where even an empty text would keep a line's height.
    const bool laidOut = m_heading->layout() != nullptr;
    if (text.isEmpty() && laidOut) {
        plotLayout()->take(m_heading);
        plotLayout()->simplify();
    } else if (!text.isEmpty() && !laidOut) {
        plotLayout()->insertRow(0);
        plotLayout()->addElement(0, 0, m_heading);
    }
    // A message fills the plot; a title takes only its line.
    if (!text.isEmpty())
        plotLayout()->setRowStretchFactors(m_methods.empty() ? QList<double>{1, 0.001} : QList<double>{0.001, 1});
}

void AttributionStripsPlot::clearStrips()
{
    clearPlottables();
    clearItems();
    m_map = nullptr;
}

void AttributionStripsPlot::showMessage(const QString &message)
{
    clearStrips();
    m_title.clear();
    m_words.clear();
    m_methods.clear();
    m_message = message;
    setHeading(message);
    m_heading->setFont(plotFonts(font()).label);
    m_heading->setTextColor(QColor(110, 110, 110));
    axisRect()->setVisible(false);
    setMinimumHeight(kMessageHeight);
    setAccessibleDescription(message);
    replot(rpQueuedReplot);
}

void AttributionStripsPlot::setScores(const QString &title, const QStringList &words,
                                      const std::vector<MethodScores> &methods)
{
    for (const MethodScores &method : methods)
        if (method.scores.size() != std::size_t(words.size())) {
            showMessage(tr("Cannot show %1: %2 scores for %3 words")
                            .arg(QString::fromUtf8(attributionMethodTitle(method.method)))
                            .arg(method.scores.size())
                            .arg(words.size()));
            return;
        }
    if (methods.empty() || words.isEmpty()) {
        showMessage(tr("Nothing to compare."));
        return;
    }
    clearStrips();
    m_title = title;
    m_words = words;
    m_methods = methods;
    m_message.clear();
    const PlotFonts fonts = plotFonts(font());
    setHeading(QString());  // the view around names the row; exported images carry the title
    m_heading->setFont(fonts.title);
    m_heading->setTextColor(Qt::black);
    axisRect()->setVisible(true);
    setMinimumHeight(kStripHeight * int(methods.size()) + kWordLabelsHeight);

    auto wordTicks = qSharedPointerCast<QCPAxisTickerText>(xAxis->ticker());
    wordTicks->clear();
    for (int i = 0; i < words.size(); ++i)
        wordTicks->addTick(i, words[i]);
    auto methodTicks = qSharedPointerCast<QCPAxisTickerText>(yAxis->ticker());
    methodTicks->clear();
    QStringList description;
    for (std::size_t m = 0; m < methods.size(); ++m) {
        QString name = QString::fromUtf8(attributionMethodTitle(methods[m].method));
        if (!methods[m].note.isEmpty())
            name += QStringLiteral("  ") + methods[m].note;
        methodTicks->addTick(double(m), name);
        description << name;
    }
    for (QCPAxis *axis : {xAxis, yAxis})
        axis->setTickLabelFont(fonts.tick);
    xAxis->setRange(-0.5, words.size() - 0.5);
    yAxis->setRange(-0.5, methods.size() - 0.5);

    m_map = new QCPColorMap(xAxis, yAxis);
    m_map->setInterpolate(false);
    QCPColorGradient gradient = divergingGradient();
    gradient.setNanHandling(QCPColorGradient::nhNanColor);
    gradient.setNanColor(QColor(200, 200, 200));
    m_map->setGradient(gradient);
    m_map->setDataRange(QCPRange(-1, 1));
    m_map->data()->setSize(words.size(), int(methods.size()));
    m_map->data()->setRange(QCPRange(0, words.size() - 1), QCPRange(0, double(methods.size()) - 1));
    // One cell wide or high: QCustomPlot needs a non-empty range to place the single cell.
    if (words.size() == 1)
        m_map->data()->setKeyRange(QCPRange(-0.5, 0.5));
    if (methods.size() == 1)
        m_map->data()->setValueRange(QCPRange(-0.5, 0.5));
    const std::vector<int> top = topWords();
    for (std::size_t m = 0; m < methods.size(); ++m) {
        const double largest = largestMagnitude(methods[m].scores);
        for (int i = 0; i < words.size(); ++i) {
            const double score = methods[m].scores[std::size_t(i)];
            m_map->data()->setCell(i, int(m), !std::isfinite(score) ? qQNaN() : largest > 0 ? score / largest : 0);
        }
        if (top[m] < 0)
            continue;
        auto *outline = new QCPItemRect(this);
        outline->setClipAxisRect(axisRect());
        outline->topLeft->setCoords(top[m] - 0.5, double(m) - 0.5);
        outline->bottomRight->setCoords(top[m] + 0.5, double(m) + 0.5);
        outline->setPen(QPen(Qt::black, 2));
    }
    setAccessibleDescription(title + QStringLiteral(": ") + description.join(QStringLiteral("; ")));
    fitWordLabels();
    replot(rpQueuedReplot);
}

void AttributionStripsPlot::resizeEvent(QResizeEvent *event)
{
    QCustomPlot::resizeEvent(event);
    fitWordLabels();
}

// Level words when each fits its cell, slanted when a slanted one does, upright otherwise.
void AttributionStripsPlot::fitWordLabels()
{
    if (m_words.isEmpty())
        return;
    updateLayout();
    const QFontMetrics metrics(xAxis->tickLabelFont());
    int widest = 0;
    for (const QString &word : std::as_const(m_words))
        widest = std::max(widest, metrics.horizontalAdvance(word));
    const double cellWidth = double(axisRect()->width()) / m_words.size();
    double rotation = 0;
    if (widest + kWordLabelGap > cellWidth)
        rotation = metrics.height() * std::sqrt(2.0) + kWordLabelGap <= cellWidth ? -45 : -90;
    if (rotation != xAxis->tickLabelRotation()) {
        xAxis->setTickLabelRotation(rotation);
        replot(rpQueuedReplot);
    }
}

std::vector<int> AttributionStripsPlot::topWords() const
{
    std::vector<int> top;
    for (const MethodScores &method : m_methods) {
        int best = -1;
        double largest = 0;
        for (std::size_t i = 0; i < method.scores.size(); ++i)
            if (std::isfinite(method.scores[i]) && std::abs(method.scores[i]) > largest) {
                largest = std::abs(method.scores[i]);
                best = int(i);
            }
        top.push_back(best);
    }
    return top;
}

QString AttributionStripsPlot::cellReadout(int method, int word) const
{
    if (method < 0 || method >= methodCount() || word < 0 || word >= m_words.size())
        return {};
    const double score = m_methods[std::size_t(method)].scores[std::size_t(word)];
    const QString title = QString::fromUtf8(attributionMethodTitle(m_methods[std::size_t(method)].method));
    if (!std::isfinite(score))
        return tr("%1 of “%2”: not computed").arg(title, m_words[word]);
    return tr("%1 of “%2”: %3").arg(title, m_words[word], QLocale().toString(score, 'g', 4));
}

void AttributionStripsPlot::onMouseMove(QMouseEvent *event)
{
    if (!m_map || !axisRect()->rect().contains(event->pos())) {
        QToolTip::hideText();
        return;
    }
    const int word = int(std::lround(xAxis->pixelToCoord(event->pos().x())));
    const int method = int(std::lround(yAxis->pixelToCoord(event->pos().y())));
    const QString text = cellReadout(method, word);
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

bool AttributionStripsPlot::exportImage(const QString &path, int width, int height, QString *error)
{
    setHeading(m_methods.empty() ? m_message : m_title);
    const bool written = exportPlotImage(*this, path, width, height, error);
    if (!m_methods.empty())
        setHeading(QString());
    replot(rpQueuedReplot);
    return written;
}

bool AttributionStripsPlot::exportCsv(const QString &path, QString *error) const
{
    if (m_methods.empty()) {
        if (error)
            *error = tr("No scores to export: click an output word of the heatmap first.");
        return false;
    }
    QString csv = QStringLiteral("word");
    for (const MethodScores &method : m_methods)
        csv += QLatin1Char(',') + QString::fromUtf8(attributionMethodName(method.method));
    csv += QLatin1Char('\n');
    for (int i = 0; i < m_words.size(); ++i) {
        csv += csvField(m_words[i]);
        for (const MethodScores &method : m_methods)
            csv += QLatin1Char(',') + QString::number(method.scores[std::size_t(i)], 'g', 8);
        csv += QLatin1Char('\n');
    }
    return writeFileAtomically(path, csv.toUtf8(), error);
}
