#include "ui/attention/beamsearchpage.h"

#include "ui/core/exportdialog.h"
#include "ui/core/plotexport.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <map>

namespace {

QTableWidgetItem *numberItem(const QString &text)
{
    auto *item = new QTableWidgetItem(text);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QString settingTitle(const BeamSetting &s)
{
    return s.width == 1 ? BeamSearchPage::tr("greedy (k = 1)")
                        : BeamSearchPage::tr("beam k = %1, α = %2").arg(s.width).arg(QLocale().toString(s.alpha));
}

} // namespace

BeamSearchPage::BeamSearchPage(QWidget *parent) : QWidget(parent)
{
    m_heading = new QLabel;
    m_heading->setObjectName(QStringLiteral("beamHeading"));
    m_heading->setWordWrap(true);
    m_heading->setTextFormat(Qt::RichText);
    m_compare = new QPushButton(tr("&Compare Greedy and Beam"));
    m_compare->setObjectName(QStringLiteral("beamCompareButton"));
    m_compare->setToolTip(tr("Decode every test sentence greedily and with beams of 2, 5 and 10 at α = 0, 0.6 and 1"));
    m_export = new QPushButton(tr("Export &CSV…"));
    m_export->setToolTip(tr("Save the table as CSV, a row per setting"));
    m_export->setEnabled(false);
    m_progress = new QProgressBar;
    m_progress->setObjectName(QStringLiteral("beamProgress"));
    m_progress->setMaximumHeight(16);
    m_progress->hide();
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("beamStatus"));
    m_status->setWordWrap(true);

    m_table = new QTableWidget(0, 5);
    m_table->setObjectName(QStringLiteral("beamTable"));
    m_table->setHorizontalHeaderLabels({tr("decoding"), tr("exact match"), tr("mean log P(y)"), tr("mean length"),
                                        tr("differ from greedy")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->setAccessibleName(tr("Greedy and beam search on the test split"));
    m_table->setToolTip(tr("log P(y) is summed over the output's steps, <EOS> included; beam search ranks its "
                           "hypotheses by log P / length^α"));

    m_differencesHeading = new QLabel;
    m_differencesHeading->setWordWrap(true);
    m_differences = new QTreeWidget;
    m_differences->setObjectName(QStringLiteral("beamDifferences"));
    m_differences->setColumnCount(2);
    m_differences->setHeaderLabels({tr("sentence, then each output"), tr("reference, then the settings that gave it")});
    m_differences->header()->setSectionResizeMode(QHeaderView::Interactive);
    m_differences->setColumnWidth(0, 240);
    m_differences->setAccessibleName(tr("Sentences where beam search and greedy decoding differ"));

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_compare);
    buttons->addWidget(m_export);
    buttons->addWidget(m_progress, 1);
    buttons->addStretch();
    auto *bottom = new QWidget;
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(m_differencesHeading);
    bottomLayout->addWidget(m_differences, 1);
    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(m_table);
    split->addWidget(bottom);
    split->setChildrenCollapsible(false);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_heading);
    layout->addLayout(buttons);
    layout->addWidget(m_status);
    layout->addWidget(split, 1);

    connect(m_compare, &QPushButton::clicked, this, &BeamSearchPage::compareRequested);
    connect(m_export, &QPushButton::clicked, this, [this] {
        exportFileWithDialog(this, tr("Export Beam Comparison"), QStringLiteral("beam_search.csv"),
                             tr("CSV files (*.csv)"),
                             [this](const QString &path, QString *error) { return exportCsv(path, error); });
    });
    setSubject(QString());
}

void BeamSearchPage::setSubject(const QString &subject)
{
    m_subject = subject;
    m_heading->setText(subject.isEmpty()
                           ? tr("<b>Greedy against beam search</b>: train or open a model first.")
                           : tr("<b>Greedy against beam search</b> on the test split of %1. Greedy decoding takes "
                                "the likeliest word at each step; a beam of width k keeps the k likeliest "
                                "partial outputs and ranks finished ones by log P / length<sup>α</sup>, so α = 0 "
                                "favours short outputs and α = 1 scores the mean per word.")
                                 .arg(subject.toHtmlEscaped()));
    clearFigures();
    m_status->setText(subject.isEmpty() ? QString() : tr("Press Compare to decode the test split with each setting."));
    setCompareEnabled(m_compareEnabled);
}

void BeamSearchPage::setCompareEnabled(bool enabled)
{
    m_compareEnabled = enabled;
    m_compare->setEnabled(enabled && !m_subject.isEmpty());
}

void BeamSearchPage::setProgress(int done, int total)
{
    m_progress->setRange(0, total);
    m_progress->setValue(done);
    m_progress->setFormat(tr("%1 of %2 sentences").arg(done).arg(total));
    m_progress->show();
    m_status->setText(tr("Decoding the test split with %1 settings…").arg(courseBeamSettings().size()));
}

void BeamSearchPage::setEvaluation(const BeamEvaluation &evaluation)
{
    clearFigures();
    m_evaluation = evaluation;
    m_hasEvaluation = true;
    const QLocale locale;
    m_table->setRowCount(int(evaluation.scores.size()));
    for (int row = 0; row < int(evaluation.scores.size()); ++row) {
        const BeamSettingScore &s = evaluation.scores[std::size_t(row)];
        m_table->setItem(row, 0, new QTableWidgetItem(settingTitle(s.setting)));
        m_table->setItem(row, 1, numberItem(locale.toString(100 * s.exactMatch, 'f', 1) + QLatin1Char('%')));
        m_table->setItem(row, 2, numberItem(locale.toString(s.meanLogProb, 'f', 4)));
        m_table->setItem(row, 3, numberItem(locale.toString(s.meanLength, 'f', 2)));
        m_table->setItem(row, 4, numberItem(locale.toString(s.differFromGreedy)));
    }
    for (const BeamDisagreement &d : evaluation.disagreements) {
        auto *sentence = new QTreeWidgetItem(m_differences, {QString::fromStdString(d.input),
                                                             QString::fromStdString(d.reference)});
        // Each distinct output once, with every setting that gave it, in the settings' order.
        std::map<std::string, QStringList> settingsOf;
        std::vector<std::string> order;
        for (std::size_t s = 0; s < d.outputs.size() && s < evaluation.settings.size(); ++s) {
            if (!settingsOf.count(d.outputs[s]))
                order.push_back(d.outputs[s]);
            settingsOf[d.outputs[s]] << settingTitle(evaluation.settings[s]);
        }
        for (const std::string &output : order) {
            const QString mark = output == d.reference ? tr("✓ ") : tr("✗ ");
            new QTreeWidgetItem(sentence, {mark + QString::fromStdString(output),
                                           settingsOf[output].join(QStringLiteral(", "))});
        }
    }
    m_differences->expandAll();
    m_differences->setVisible(!evaluation.disagreements.empty());
    m_differencesHeading->setText(
        evaluation.disagreements.empty()
            ? tr("Every setting gave greedy's output on every one of the %1 sentences.")
                  .arg(locale.toString(evaluation.sentences))
            : tr("%1 sentences where a setting's output is not greedy's (✓ matches the reference):")
                  .arg(locale.toString(int(evaluation.disagreements.size()))));
    m_progress->hide();
    m_export->setEnabled(true);
    m_status->setText(tr("%1 test sentences decoded with each setting.").arg(locale.toString(evaluation.sentences)));
}

void BeamSearchPage::showProblem(const QString &problem)
{
    m_progress->hide();
    m_status->setText(problem);
}

QString BeamSearchPage::status() const
{
    return m_status->text();
}

bool BeamSearchPage::exportCsv(const QString &path, QString *error) const
{
    if (!m_hasEvaluation) {
        if (error)
            *error = tr("Nothing to export: press Compare first.");
        return false;
    }
    return writeFileAtomically(path, QByteArray::fromStdString(beamEvaluationCsv(m_evaluation)), error);
}

void BeamSearchPage::clearFigures()
{
    m_hasEvaluation = false;
    m_evaluation = BeamEvaluation();
    m_table->setRowCount(0);
    m_differences->clear();
    m_differencesHeading->clear();
    m_progress->hide();
    m_export->setEnabled(false);
}
