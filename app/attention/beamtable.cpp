#include "app/attention/beamtable.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cstdio>
#include <sstream>

std::string beamEvaluationText(const BeamEvaluation &evaluation, int examples)
{
    std::ostringstream out;
    char line[160];
    std::snprintf(line, sizeof line, "%-20s %11s %14s %12s %18s\n", "decoding", "exact match", "mean log P(y)",
                  "mean length", "differ from greedy");
    out << line;
    for (const BeamSettingScore &s : evaluation.scores) {
        std::snprintf(line, sizeof line, "%-20s %10.2f%% %14.4f %12.2f %18d\n", beamSettingName(s.setting).c_str(),
                      100 * s.exactMatch, s.meanLogProb, s.meanLength, s.differFromGreedy);
        out << line;
    }
    out << evaluation.sentences << " sentences; log P(y) is summed over the output's steps, <EOS> included.\n";
    if (evaluation.disagreements.empty()) {
        out << "Every setting gave greedy's output on every sentence.\n";
        return out.str();
    }
    out << "\n" << evaluation.disagreements.size() << " sentence(s) where a setting's output is not greedy's";
    const int shown = std::min<int>(examples, int(evaluation.disagreements.size()));
    out << (shown < int(evaluation.disagreements.size()) ? " (the first " + std::to_string(shown) + "):\n" : ":\n");
    for (int i = 0; i < shown; ++i) {
        const BeamDisagreement &d = evaluation.disagreements[std::size_t(i)];
        out << "Input: \"" << d.input << "\"  Reference: \"" << d.reference << "\"\n";
        for (std::size_t s = 0; s < d.outputs.size(); ++s)
            if (s == 0 || d.outputs[s] != d.outputs.front())
                out << "  " << beamSettingName(evaluation.settings[s]) << ": \"" << d.outputs[s] << "\""
                    << (d.outputs[s] == d.reference ? "  match" : "") << "\n";
    }
    return out.str();
}

QString beamEvaluationJson(const BeamEvaluation &evaluation)
{
    QJsonArray scores;
    for (const BeamSettingScore &s : evaluation.scores)
        scores.append(QJsonObject{{"width", s.setting.width},
                                  {"alpha", s.setting.alpha},
                                  {"exact_match", s.exactMatch},
                                  {"mean_log_prob", s.meanLogProb},
                                  {"mean_length", s.meanLength},
                                  {"differ_from_greedy", s.differFromGreedy}});
    QJsonArray disagreements;
    for (const BeamDisagreement &d : evaluation.disagreements) {
        QJsonArray outputs;
        for (const std::string &output : d.outputs)
            outputs.append(QString::fromStdString(output));
        disagreements.append(QJsonObject{{"input", QString::fromStdString(d.input)},
                                         {"reference", QString::fromStdString(d.reference)},
                                         {"outputs", outputs}});
    }
    const QJsonObject root{{"sentences", evaluation.sentences}, {"settings", scores}, {"disagreements", disagreements}};
    return QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Indented));
}
