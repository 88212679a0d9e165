#include "engine/attention/lengthreport.h"

#include <cstdio>
#include <map>

LengthReport lengthReport(const Dataset &data, const EvaluationReport &test, double bar)
{
    std::map<int, LengthRow> rows;
    int sentences = 0;
    for (const std::vector<SentencePair> *split : {&data.train, &data.val, &data.test})
        for (const SentencePair &pair : *split) {
            ++rows[int(pair.target.size())].corpusSentences;
            ++sentences;
        }
    for (const auto &[length, accuracy] : test.byLength)
        rows[length].test = accuracy;
    LengthReport report;
    report.bar = bar;
    for (auto &[length, row] : rows) {
        row.length = length;
        row.corpusShare = sentences > 0 ? double(row.corpusSentences) / sentences : 0.0;
        report.rows.push_back(row);
        if (row.test.total > 0 && double(row.test.correct) / row.test.total < bar) {
            report.below.push_back(length);
            report.belowShare += row.corpusShare;
        }
    }
    return report;
}

std::string formatLengthReport(const LengthReport &report)
{
    std::string text = "length  corpus sentences      test  exact match\n";
    char line[96];
    for (const LengthRow &row : report.rows) {
        std::snprintf(line, sizeof line, "%6d  %7d (%5.1f%%)  %8d", row.length, row.corpusSentences,
                      100 * row.corpusShare, row.test.total);
        text += line;
        if (row.test.total > 0) {
            std::snprintf(line, sizeof line, "  %10.1f%%", 100.0 * row.test.correct / row.test.total);
            text += line;
        }
        text += "\n";
    }
    std::snprintf(line, sizeof line, "%.0f%%", 100 * report.bar);
    if (report.below.empty())
        return text + "Every length with test sentences reaches " + line + ".\n";
    text += std::string("Below ") + line + ":";
    for (std::size_t i = 0; i < report.below.size(); ++i)
        text += (i == 0 ? " " : ", ") + std::to_string(report.below[i]);
    std::snprintf(line, sizeof line, " words, %.1f%% of the corpus.\n", 100 * report.belowShare);
    return text + line;
}
