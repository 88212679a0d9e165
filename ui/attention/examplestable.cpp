#include "ui/attention/examplestable.h"

#include "ui/attention/examplesmodel.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTableView>
#include <QVBoxLayout>

#include <map>

ExamplesTable::ExamplesTable(QWidget *parent) : QWidget(parent)
{
    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("examplesSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_count = new QLabel;
    m_failuresOnly = new QCheckBox(tr("Failures only"));
    m_failuresOnly->setToolTip(tr("Show only the sentences the model got wrong."));

    m_model = new ExamplesModel(this);
    m_view = new QTableView;
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setTabKeyNavigation(false);  // read-only rows: the arrows move between them, Tab moves on
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->setToolTip(tr("Click a sentence to see its attention in the inference view."));
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_view->horizontalHeader()->setStretchLastSection(false);
    m_view->horizontalHeader()->setSectionResizeMode(ExamplesModel::Input, QHeaderView::Stretch);
    m_view->horizontalHeader()->setSectionResizeMode(ExamplesModel::Output, QHeaderView::Stretch);
    m_view->horizontalHeader()->setSectionResizeMode(ExamplesModel::Reference, QHeaderView::Stretch);
    m_view->horizontalHeader()->setSectionResizeMode(ExamplesModel::Match, QHeaderView::ResizeToContents);

    auto *filterRow = new QHBoxLayout;
    filterRow->addWidget(m_failuresOnly);
    filterRow->addStretch(1);
    filterRow->addWidget(m_count);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addLayout(filterRow);
    layout->addWidget(m_view, 1);

    connect(m_failuresOnly, &QCheckBox::toggled, this, [this](bool on) {
        m_model->setFailuresOnly(on);
        updateCount();
    });
    // Moving through the rows with the keyboard follows along; clicking the current row again
    // brings its sentence back after the user typed something else.
    auto choose = [this](const QModelIndex &index) {
        if (index.isValid())
            emit exampleChosen(QString::fromStdString(m_model->example(index.row()).input));
    };
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, choose);
    connect(m_view, &QTableView::clicked, this, choose);

    showMessage(tr("No evaluation yet: the test set is scored when training ends."));
}

void ExamplesTable::setReport(const EvaluationReport &report, const LengthReport &lengthReport)
{
    const QLocale locale;
    auto percent = [&](double share) { return locale.toString(share * 100, 'f', 1) + QStringLiteral("&nbsp;%"); };
    std::map<int, double> corpusShare;
    for (const LengthRow &row : lengthReport.rows)
        corpusShare[row.length] = row.corpusShare;
    QStringList lengths;
    for (const auto &[length, accuracy] : report.byLength)
        if (accuracy.total > 0)
            lengths << QStringLiteral("%1:&nbsp;%2").arg(length).arg(percent(double(accuracy.correct) / accuracy.total))
                           + (corpusShare.count(length)
                                  ? tr("&nbsp;(%1 of the corpus)").arg(percent(corpusShare[length]))
                                  : QString());
    QString html = tr("<b>Test set</b>: %1 sentences &middot; exact match <b>%2</b> &middot; token accuracy %3")
                       .arg(locale.toString(report.sentences), percent(report.exactMatch),
                            percent(report.tokenAccuracy));
    if (!lengths.isEmpty())
        html += QStringLiteral("<br><small>") + tr("Exact match by length in words &mdash; %1")
                    .arg(lengths.join(QStringLiteral(" &middot; ")))
                + QStringLiteral("</small>");
    if (!lengthReport.rows.empty()) {
        QStringList below;
        for (int length : lengthReport.below)
            below << QString::number(length);
        const QString bar = locale.toString(lengthReport.bar * 100, 'f', 0) + QStringLiteral("&nbsp;%");
        html += QStringLiteral("<br>")
                + (below.isEmpty() ? tr("Every length with test sentences reaches %1.").arg(bar)
                                   : tr("<b>Below %1</b>: %2 words, %3 of the corpus.")
                                         .arg(bar, below.join(QStringLiteral(", ")), percent(lengthReport.belowShare)));
    }
    m_summary->setText(html);
    m_model->setExamples(report.examples);
    updateCount();
}

void ExamplesTable::showMessage(const QString &message)
{
    m_summary->setText(message.toHtmlEscaped());
    m_model->setExamples({});
    updateCount();
}

void ExamplesTable::setFailuresOnly(bool failuresOnly)
{
    m_failuresOnly->setChecked(failuresOnly);
}

int ExamplesTable::visibleRows() const
{
    return m_model->rowCount();
}

void ExamplesTable::updateCount()
{
    const QLocale locale;
    m_count->setText(m_model->totalCount() == 0
                         ? QString()
                         : tr("Showing %1 of %2").arg(locale.toString(m_model->rowCount()),
                                                      locale.toString(m_model->totalCount())));
}
