#include "ui/core/faithfulnesspage.h"

#include "ui/core/colorgradients.h"
#include "ui/core/erasurecurvesplot.h"
#include "ui/core/plotexport.h"
#include "ui/core/widgetexport.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>
#include <numeric>

namespace {

QString methodTitle(AttributionMethod method)
{
    return QString::fromUtf8(attributionMethodTitle(method));
}

QString percentOrDash(double share)
{
    return std::isnan(share) ? QStringLiteral("–") : QLocale().toString(100 * share, 'f', 0) + QLatin1Char('%');
}

// The mean of a curve over k: one number for how faithful a method is (ERASER's AOPC, up to a factor).
double meanOver(const std::vector<double> &values)
{
    return values.empty() ? qQNaN() : std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
}

const ErasureCurve *curveNamed(const FaithfulnessReport &report, const std::string &name)
{
    for (const ErasureCurve &curve : report.curves)
        if (curve.name == name)
            return &curve;
    return nullptr;
}

}

FaithfulnessPage::FaithfulnessPage(QWidget *parent) : QWidget(parent)
{
    m_subject = tr("the opened model");
    m_heading = new QLabel;
    m_heading->setObjectName(QStringLiteral("faithfulnessHeading"));
    m_heading->setWordWrap(true);
    m_heading->setTextFormat(Qt::RichText);
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("faithfulnessStatus"));
    m_status->setWordWrap(true);  // its messages must not set the width of the window
    m_progress = new QProgressBar;
    m_progress->setObjectName(QStringLiteral("faithfulnessProgress"));
    m_progress->setTextVisible(true);
    m_progress->setMaximumHeight(16);
    m_progress->hide();
    m_curves = new ErasureCurvesPlot;
    m_curves->setObjectName(QStringLiteral("erasureCurves"));
    m_curves->setMinimumHeight(200);
    m_table = new QTableWidget;
    m_table->setObjectName(QStringLiteral("agreementTable"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setAccessibleName(tr("Agreement between the methods"));
    m_table->setToolTip(tr("Mean Spearman ρ between two methods' scores of the source words, over every output "
                           "step measured; the last column: how often a method's top word is the one the output "
                           "word must come from."));
    m_answers = new QLabel;
    m_answers->setWordWrap(true);
    m_answers->setTextFormat(Qt::RichText);
    m_trend = new QLabel;
    m_trend->setObjectName(QStringLiteral("faithfulnessTrend"));
    m_trend->setWordWrap(true);
    m_trend->setTextFormat(Qt::RichText);

    auto *statusRow = new QHBoxLayout;
    statusRow->addWidget(m_status, 1);
    statusRow->addWidget(m_progress, 1);
    auto *bottom = new QWidget;
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(m_table, 1);
    bottomLayout->addWidget(m_answers);
    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(m_curves);
    split->addWidget(bottom);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_heading);
    layout->addLayout(statusRow);
    layout->addWidget(m_trend);
    layout->addWidget(split, 1);
    setMeasurement(0, 0);
    showMessage(tr("Measured when this page is shown: for the model opened or trained, and after every epoch "
                   "while training."));
}

void FaithfulnessPage::setMeasurement(int sentences, int integrationSteps)
{
    m_sentences = sentences;
    m_integrationSteps = integrationSteps;
    QString text = tr("<b>Is attention a faithful explanation?</b> Each method ranks the source words for every "
                      "output word; leaving out its top k% should cost the output much (comprehensiveness), keeping "
                      "only them little (sufficiency). A random ranking is the baseline.");
    if (sentences > 0)
        text += tr(" <small>On the first %1 sentences of the test split; integrated gradients in %2 steps here (a "
                   "typed sentence's explanation uses %3), so a measurement after each epoch stays short.</small>")
                    .arg(sentences)
                    .arg(integrationSteps)
                    .arg(kDefaultIntegrationSteps);
    m_heading->setText(text);
}

QString FaithfulnessPage::heading() const
{
    return m_heading->text();
}

QString FaithfulnessPage::trend() const
{
    return m_trend->text();
}

void FaithfulnessPage::clearHistory()
{
    m_history.clear();
    updateTrend();
}

void FaithfulnessPage::setSubject(const QString &subject)
{
    m_subject = subject;
}

void FaithfulnessPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    emit pageShown();
}

void FaithfulnessPage::setProgress(int epoch, int done, int total)
{
    m_progress->setRange(0, std::max(total, 1));
    m_progress->setValue(std::min(done, total));
    m_progress->setFormat(tr("%v of %m sentences"));
    m_progress->setVisible(done < total);
    m_status->setText(epoch > 0 ? tr("Measuring the model of epoch %1…").arg(epoch)
                                : tr("Measuring %1…").arg(m_subject));
}

void FaithfulnessPage::showMessage(const QString &message)
{
    m_hasReport = false;
    m_report = FaithfulnessReport{};
    m_progress->hide();
    m_status->setText(message);
    m_curves->showMessage(message);
    m_table->clear();
    m_table->setRowCount(0);
    m_table->setColumnCount(0);
    m_answers->clear();
}

void FaithfulnessPage::setReport(int epoch, const FaithfulnessReport &report)
{
    if (epoch <= 0)
        m_history.clear();
    else
        m_history.insert(epoch, report);
    m_hasReport = true;
    m_epoch = epoch;
    m_report = report;
    m_progress->hide();
    const QString which = epoch > 0 ? tr("the model of epoch %1").arg(epoch) : m_subject;
    m_status->setText(tr("%1: %n sentence(s), ", nullptr, report.sentences).arg(which)
                      + tr("%n output step(s).", nullptr, report.steps));
    if (report.steps == 0)
        m_curves->showMessage(tr("No output step was measured."));
    else
        m_curves->setCurves(report.curves);
    fillTable();
    updateTrend();
    emit reportShown();
}

void FaithfulnessPage::fillTable()
{
    const int n = int(m_report.methods.size());
    m_table->clear();
    m_table->setRowCount(n);
    m_table->setColumnCount(n + 1);
    QStringList headers;
    for (const AttributionMethod method : m_report.methods)
        headers << methodTitle(method);
    m_table->setVerticalHeaderLabels(headers);
    m_table->setHorizontalHeaderLabels(headers + QStringList{tr("top word = answer")});
    const QLocale locale;
    QCPColorGradient gradient = divergingGradient();  // color() fills its cache
    const bool fits = m_report.agreement.size() == std::size_t(n) * std::size_t(n);
    for (int row = 0; row < n; ++row) {
        for (int column = 0; column < n && fits; ++column) {
            const double rho = m_report.agreement[std::size_t(row) * std::size_t(n) + std::size_t(column)];
            auto *item = new QTableWidgetItem(std::isnan(rho) ? QStringLiteral("–") : locale.toString(rho, 'f', 2));
            item->setTextAlignment(Qt::AlignCenter);
            if (!std::isnan(rho)) {
                const QColor colour = QColor::fromRgb(gradient.color(rho, QCPRange(-1, 1)));
                item->setBackground(colour);
                item->setForeground(contrastingTextColor(colour));
            }
            m_table->setItem(row, column, item);
        }
        const double answer = std::size_t(row) < m_report.topAnswerAgreement.size()
                                  ? m_report.topAnswerAgreement[std::size_t(row)]
                                  : qQNaN();
        auto *item = new QTableWidgetItem(percentOrDash(answer));
        item->setTextAlignment(Qt::AlignCenter);
        m_table->setItem(row, n, item);
    }
    m_answers->setText(m_report.answeredSteps > 0
                           ? tr("<small>Top word = answer: the share of the %1 output steps with a known source word "
                                "(the task's alignment) where the method ranks that word first.</small>")
                                 .arg(m_report.answeredSteps)
                           : tr("<small>No step has a known answer (a corpus without the task's alignment), so "
                                "top-word agreement is not measured.</small>"));
}

void FaithfulnessPage::updateTrend()
{
    if (m_history.size() < 2) {
        m_trend->clear();
        return;
    }
    const std::string attention = attributionMethodName(AttributionMethod::Attention);
    QStringList epochs;
    const QLocale locale;
    // The last epochs only: the line must fit above the plots.
    const QList<int> keys = m_history.keys();
    for (int i = std::max(0, int(keys.size()) - 8); i < keys.size(); ++i) {
        const FaithfulnessReport &report = m_history[keys[i]];
        const ErasureCurve *curve = curveNamed(report, attention);
        const ErasureCurve *random = curveNamed(report, "random");
        if (!curve || !random)
            continue;
        double answer = qQNaN();
        for (std::size_t m = 0; m < report.methods.size() && m < report.topAnswerAgreement.size(); ++m)
            if (report.methods[m] == AttributionMethod::Attention)
                answer = report.topAnswerAgreement[m];
        epochs << tr("%1: %2 / %3")
                      .arg(keys[i])
                      .arg(locale.toString(meanOver(curve->comprehensiveness) - meanOver(random->comprehensiveness),
                                           'f', 2),
                           percentOrDash(answer));
    }
    if (epochs.isEmpty()) {
        m_trend->clear();
        return;
    }
    m_trend->setText(tr("<small>Attention over training (epoch: comprehensiveness above random / top word = answer): "
                        "%1</small>").arg(epochs.join(QStringLiteral(", "))));
}

bool FaithfulnessPage::exportAgreementCsv(const QString &path, QString *error) const
{
    if (!m_hasReport) {
        if (error)
            *error = tr("No agreement to export: the faithfulness of a model has not been measured yet.");
        return false;
    }
    const std::size_t n = m_report.methods.size();
    QString csv = QStringLiteral("method");
    for (const AttributionMethod method : m_report.methods)
        csv += QLatin1Char(',') + QString::fromUtf8(attributionMethodName(method));
    csv += QStringLiteral(",top_answer_agreement\n");
    for (std::size_t row = 0; row < n; ++row) {
        csv += QString::fromUtf8(attributionMethodName(m_report.methods[row]));
        for (std::size_t column = 0; column < n; ++column)
            csv += QLatin1Char(',') + (row * n + column < m_report.agreement.size()
                                           ? QString::number(m_report.agreement[row * n + column], 'g', 8)
                                           : QStringLiteral("nan"));
        csv += QLatin1Char(',') + QString::number(row < m_report.topAnswerAgreement.size()
                                                      ? m_report.topAnswerAgreement[row]
                                                      : qQNaN(),
                                                  'g', 8);
        csv += QLatin1Char('\n');
    }
    return writeFileAtomically(path, csv.toUtf8(), error);
}

bool FaithfulnessPage::exportAgreementImage(const QString &path, int width, int height, QString *error)
{
    return exportWidgetImage(*m_table, path, width, height, error);
}
