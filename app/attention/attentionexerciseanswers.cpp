#include "app/attention/attentionexerciseanswers.h"

#include "ui/attention/attentionlab.h"
#include "ui/attention/beamsearchpage.h"
#include "ui/attention/experimentspanel.h"

#include <QLocale>

#include <map>
#include <memory>
#include <set>
#include <vector>

namespace {

struct RunRow {
    const void *model = nullptr;  // the run's best model: tells a new run from one answered before
    QString label;
    double exactMatch = 0;
    int sequences = 0;
    double seconds = 0;
    std::map<int, double> loss;  // training loss by printed epoch
};

double trainingSeconds(const std::vector<EpochStats> &history)
{
    double seconds = 0;
    for (const EpochStats &s : history)
        seconds += s.seconds;
    return seconds;
}

RunRow rowOf(const AttentionLab &lab, int printedEvery, const QString &label)
{
    RunRow row;
    row.model = lab.bestModel().get();
    row.label = label;
    row.exactMatch = lab.testReport()->exactMatch;
    row.sequences = int(lab.testReport()->examples.size());
    const std::vector<EpochStats> &history = lab.bestModel()->history;
    row.seconds = trainingSeconds(history);
    for (const EpochStats &s : history)
        if (s.epoch % printedEvery == 0 || &s == &history.back())
            row.loss[s.epoch] = s.trainLoss;
    return row;
}

// A Markdown table with a column per run: a guide pane is narrow, and runs are few.
QString runColumns(const QStringList &runs, const std::vector<std::pair<QString, QStringList>> &figures)
{
    QString text = QStringLiteral("| |");
    for (const QString &run : runs)
        text += QStringLiteral(" %1 |").arg(run);
    text += QStringLiteral("\n|---|") + QStringLiteral("---|").repeated(runs.size()) + QLatin1Char('\n');
    for (const auto &[name, values] : figures)
        text += QStringLiteral("| %1 | %2 |\n").arg(name, values.join(QStringLiteral(" | ")));
    return text;
}

QString runName(std::size_t index, std::size_t count)
{
    return QStringLiteral("run %1%2").arg(index + 1).arg(index + 1 == count ? QStringLiteral(" (this one)") : QString());
}

QString percent(double share)
{
    return QStringLiteral("%1%").arg(100 * share, 0, 'f', 1);
}

QString table(const std::vector<RunRow> &rows)
{
    std::set<int> epochs;
    for (const RunRow &row : rows)
        for (const auto &[epoch, loss] : row.loss)
            epochs.insert(epoch);
    QStringList runs, settings, exact, seconds;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        runs << runName(i, rows.size());
        settings << rows[i].label;
        exact << QStringLiteral("%1 of %2").arg(percent(rows[i].exactMatch), QLocale().toString(rows[i].sequences));
        seconds << QStringLiteral("%1 s").arg(rows[i].seconds, 0, 'f', 1);
    }
    std::vector<std::pair<QString, QStringList>> figures = {
        {QStringLiteral("settings"), settings}, {QStringLiteral("test exact match"), exact},
        {QStringLiteral("training time"), seconds}};
    for (const int epoch : epochs) {
        QStringList losses;
        for (const RunRow &row : rows) {
            const auto it = row.loss.find(epoch);
            losses << (it == row.loss.end() ? QString() : QString::number(it->second, 'g', 3));
        }
        figures.emplace_back(QStringLiteral("loss, epoch %1").arg(epoch), losses);
    }
    return runColumns(runs, figures);
}

} // namespace

QString variantsAnswer(Lab *lab)
{
    const ExperimentsPanel *experiments = qobject_cast<const AttentionLab *>(lab)->experimentsPanel();
    const std::vector<ExperimentRecord> &records = experiments->records();
    if (records.empty())
        return QStringLiteral("No variant has trained yet: press Run Queue on the Experiments page.");
    QStringList runs, variants, seeds, test, probe, epochs, seconds;
    for (std::size_t i = 0; i < records.size(); ++i) {
        const ExperimentRecord &r = records[i];
        LengthAccuracy probed;
        for (const auto &[length, accuracy] : r.probeByLength) {
            probed.correct += accuracy.correct;
            probed.total += accuracy.total;
        }
        runs << QStringLiteral("run %1").arg(i + 1);
        variants << QString::fromStdString(r.label);
        seeds << QString::number(r.seed);
        test << percent(r.testExactMatch);
        probe << (probed.total > 0 ? percent(double(probed.correct) / probed.total) : QStringLiteral("-"));
        epochs << QString::number(r.history.size());
        seconds << QStringLiteral("%1 s").arg(trainingSeconds(r.history), 0, 'f', 1);
    }
    return runColumns(runs, {{QStringLiteral("variant"), variants},
                             {QStringLiteral("seed"), seeds},
                             {QStringLiteral("test exact match"), test},
                             {QStringLiteral("probe exact match"), probe},
                             {QStringLiteral("epochs"), epochs},
                             {QStringLiteral("training time"), seconds}}) +
           QStringLiteral("\nThe probe sentences run up to the Experiments page's probe length, beyond the trained "
                          "lengths: there the scores part.");
}

// A summary: the table itself is on the Beams page, beside the guide.
QString beamsAnswer(Lab *lab)
{
    const BeamSearchPage *page = qobject_cast<const AttentionLab *>(lab)->beamSearchPage();
    if (!page->hasEvaluation())
        return QStringLiteral("Nothing is compared yet: press Compare Greedy and Beam on the Beams page.");
    const BeamEvaluation &e = page->evaluation();
    const auto name = [](const BeamSettingScore &s) { return QString::fromStdString(beamSettingName(s.setting)); };
    const BeamSettingScore *greedy = nullptr, *best = nullptr;
    QStringList differing;
    for (const BeamSettingScore &s : e.scores) {
        if (s.setting.width == 1)
            greedy = &s;
        if (!best || s.exactMatch > best->exactMatch)
            best = &s;
        if (s.differFromGreedy > 0)
            differing << QStringLiteral("%1 on %2").arg(name(s)).arg(s.differFromGreedy);
    }
    const QString sentences = QLocale().toString(e.sentences);
    QString text = QStringLiteral("On %1 test sentences:\n\n").arg(sentences);
    if (greedy)
        text += QStringLiteral("- greedy decoding: %1 exact match, mean log-probability %2;\n")
                    .arg(percent(greedy->exactMatch))
                    .arg(greedy->meanLogProb, 0, 'f', 3);
    text += QStringLiteral("- the best exact match: %1, from %2;\n").arg(percent(best->exactMatch), name(*best));
    text += differing.isEmpty()
                ? QStringLiteral("- every setting gave greedy's output on every sentence: this model leaves beam "
                                 "search nothing to find.\n")
                : QStringLiteral("- outputs that are not greedy's (sentences): %1. The Beams page lists them.\n")
                      .arg(differing.join(QStringLiteral("; ")));
    return text;
}

std::function<QString(Lab *)> attentionRunsAnswer(int printedEvery,
                                                  const std::function<QString(const AttentionLab &)> &label,
                                                  const std::function<QString(const AttentionLab &)> &more)
{
    auto rows = std::make_shared<std::vector<RunRow>>();
    return [rows, printedEvery, label, more](Lab *lab) {
        const auto *attention = qobject_cast<const AttentionLab *>(lab);
        if (!attention->bestModel() || !attention->trainingUsed())
            return QStringLiteral("The run ended before its first epoch did: there is no model to answer from.");
        if (!attention->testReport())
            return QStringLiteral("The run's model was not scored on the test split: train again for the answers.");
        if (rows->empty() || rows->back().model != attention->bestModel().get())
            rows->push_back(rowOf(*attention, printedEvery, label(*attention)));
        QString text = table(*rows);
        if (more)
            text += QStringLiteral("\n") + more(*attention);
        return text;
    };
}
