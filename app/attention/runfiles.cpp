#include "app/attention/runfiles.h"

#include "app/core/runjson.h"
#include "engine/attention/evaluation.h"
#include "engine/attention/experiment.h"
#include "engine/attention/lengthreport.h"
#include "engine/attention/seq2seqmodel.h"
#include "engine/attention/trainer.h"
#include "engine/attention/trainingconfig.h"
#include "engine/attention/wordremovaleffect.h"
#include "engine/core/corpusdefaults.h"
#include "engine/core/dataset.h"
#include "engine/core/seedspread.h"
#include "engine/core/tokenizer.h"
#include "engine/core/validationfall.h"
#include "ui/core/lengthaccuracyplot.h"
#include "ui/attention/decodedheatmap.h"
#include "ui/core/attentionheatmap.h"
#include "ui/core/configmap.h"
#include "ui/core/plotexport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>

namespace runfiles {
namespace {

QJsonObject decodedObject(const DecodedSentence &s, bool replaceUnknown)
{
    QJsonArray rows, copied, known;
    for (int r = 0; r < s.rows(); ++r) {
        if (!s.attention.empty()) {  // empty: a model without attention
            QJsonArray row;
            for (int c = 0; c < s.columns(); ++c)
                row.append(double(s.weight(r, c)));
            rows.append(row);
        }
        copied.append(bool(s.outputCopied[std::size_t(r)]));
    }
    bool anyCopied = false;
    for (bool c : s.outputCopied)
        anyCopied = anyCopied || c;
    for (bool k : s.sourceKnown)
        known.append(k);
    QJsonObject root{{"output", QString::fromStdString(s.text())},
                     {"source_tokens", stringArray(s.sourceTokens)},
                     {"source_known", known},
                     {"output_tokens", stringArray(s.outputTokens)},
                     {"output_copied", copied},
                     {"attention", rows},
                     {"unk_replacement", replaceUnknown},
                     {"unk_replacement_used", anyCopied},
                     {"input_truncated", s.truncatedInput}};
    if (!s.copyGate.empty()) {  // a pointer model
        QJsonArray gates;
        for (float g : s.copyGate)
            gates.append(double(g));
        root.insert("copy_gate", gates);
    }
    return root;
}

QJsonArray wordsOf(const std::vector<int> &tokens, const BeamDecoded &decoded, const Vocabulary &vocabulary)
{
    QJsonArray words;
    for (int token : tokens)
        words.append(QString::fromStdString(decoded.word(token, vocabulary)));
    return words;
}

const char *statusName(const TrainingOutcome &o)
{
    switch (o.status) {
    case TrainingOutcome::Status::Finished: return "finished";
    case TrainingOutcome::Status::EarlyStopped: return "early_stopped";
    case TrainingOutcome::Status::Stopped: return "stopped";
    case TrainingOutcome::Status::Diverged: return "diverged";
    }
    return "unknown";
}

// The runs of each attention variant, in the order the variants first appear: with --seeds, a
// variant's runs from its several seeds.
std::vector<std::vector<const ExperimentResult *>> runsByVariant(const std::vector<ExperimentResult> &results)
{
    std::vector<std::vector<const ExperimentResult *>> groups;
    for (const ExperimentResult &r : results) {
        const auto group = std::find_if(groups.begin(), groups.end(), [&r](const auto &runs) {
            return runs.front()->model.attention == r.model.attention;
        });
        if (group == groups.end())
            groups.push_back({&r});
        else
            group->push_back(&r);
    }
    return groups;
}

QJsonObject spreadJson(const Spread &s)
{
    return QJsonObject{{"mean", s.mean}, {"min", s.min}, {"max", s.max}, {"runs", s.runs}};
}

// Per variant run with more than one seed: the seeds and the spread of its exact match.
QJsonArray seedSpreadJson(const std::vector<ExperimentResult> &results)
{
    QJsonArray spreads;
    for (const auto &group : runsByVariant(results)) {
        if (group.size() < 2)
            continue;
        QJsonArray seeds;
        std::vector<double> test, probe;
        std::vector<std::map<int, double>> byLength;
        for (const ExperimentResult *r : group) {
            seeds.append(double(r->modelSeed));
            test.push_back(r->test.exactMatch);
            probe.push_back(r->probe.exactMatch);
            byLength.push_back(exactMatchByLength(r->probe.byLength));
        }
        QJsonObject lengths;
        for (const auto &[length, spread] : spreadByKey(byLength))
            lengths.insert(QString::number(length), spreadJson(spread));
        spreads.append(QJsonObject{{"attention", attentionName(group.front()->model.attention)},
                                   {"model_seeds", seeds},
                                   {"test_exact_match", spreadJson(spreadOf(test))},
                                   {"probe_exact_match", spreadJson(spreadOf(probe))},
                                   {"probe_by_length", lengths}});
    }
    return spreads;
}

QJsonObject byLengthJson(const std::map<int, LengthAccuracy> &byLength)
{
    QJsonObject out;
    for (const auto &[length, bucket] : byLength)
        out.insert(QString::number(length), QJsonObject{{"correct", bucket.correct},
                                                         {"total", bucket.total},
                                                         {"exact_match", double(bucket.correct) / bucket.total}});
    return out;
}

// A share that has no value (no steps to score) is null, as is one that does not apply.
QJsonValue shareJson(double share)
{
    return std::isfinite(share) ? QJsonValue(share) : QJsonValue(QJsonValue::Null);
}

// The history with each epoch's alignment on the validation set.
QJsonArray historyJson(const std::vector<EpochStats> &history, const std::vector<EpochAlignment> &alignment)
{
    QJsonArray epochs;
    for (std::size_t i = 0; i < history.size(); ++i) {
        const EpochStats &e = history[i];
        QJsonObject epoch = epochStatsJson(e);
        epoch.insert("learning_rate", e.learningRate);
        epoch.insert("gradient_norm", e.gradientNorm > 0 ? QJsonValue(e.gradientNorm) : QJsonValue());
        if (i > 0) {
            const std::string fall = validationFall(history[i - 1], e);
            if (!fall.empty())
                epoch.insert("val_exact_fall", QString::fromStdString(fall));
        }
        const auto found = std::find_if(alignment.begin(), alignment.end(),
                                        [&](const EpochAlignment &a) { return a.epoch == e.epoch; });
        const AlignmentScore score = found == alignment.end() ? AlignmentScore{} : found->score;
        epoch.insert("val_alignment_accuracy", shareJson(score.accuracy()));
        epoch.insert("val_alignment_weight", shareJson(score.meanRightWeight()));
        epoch.insert("val_alignment_steps", score.steps);
        epochs.append(epoch);
    }
    return epochs;
}

// The settings the run took effect with where a field says "auto", and what the corpus lost:
// `config` keeps the fields as they were given.
QJsonObject effectiveJson(const Dataset &data, const DatasetConfig &d, const TrainingConfig &t, const ModelConfig &model,
                          int vocabularySize)
{
    const double epochDecay = effectiveEpochDecay(t, data.fromCorpus);
    const QString schedule = epochDecay < 1 ? QStringLiteral("decay per epoch, and after an epoch without a better "
                                                             "validation loss")
                                            : QStringLiteral("decay only after an epoch without a better validation "
                                                             "loss");
    QJsonObject effective = effectiveDataJson(data, d, vocabularySize);
    effective.insert("attention", attentionName(model.attention));
    effective.insert("pointer", model.usesPointer());
    effective.insert("lr_epoch_decay", epochDecay);
    effective.insert("lr_epoch_decay_auto", t.learningRateEpochDecay == 0);
    effective.insert("lr_decay_on_plateau", t.learningRateDecay);
    effective.insert("lr_schedule", schedule);
    return effective;
}

// Exact match by length beside the corpus's own lengths, and the lengths under the bar.
QJsonObject lengthReportJson(const LengthReport &report)
{
    QJsonArray rows, below;
    for (const LengthRow &row : report.rows)
        rows.append(QJsonObject{{"length", row.length},
                                {"corpus_sentences", row.corpusSentences},
                                {"corpus_share", row.corpusShare},
                                {"test_sentences", row.test.total},
                                {"test_exact_match", row.test.total > 0
                                                         ? QJsonValue(double(row.test.correct) / row.test.total)
                                                         : QJsonValue()}});
    for (int length : report.below)
        below.append(length);
    return {{"by_length", rows},
            {"bar", report.bar},
            {"below_bar", below},
            {"below_bar_corpus_share", report.belowShare}};
}

}

QJsonObject metricsJson(const Seq2SeqModel &model, const Dataset &data, const TrainingConfig &t,
                        const TrainingOutcome &outcome, const EvaluationReport &test,
                        const std::vector<EpochAlignment> &alignment)
{
    const QJsonArray epochs = historyJson(model.history, alignment);
    const QJsonObject byLength = byLengthJson(test.byLength);
    QJsonObject modelJson = toJson(model.config(), modelConfigFields());
    modelJson.insert("parameters", double(model.parameterCount()));
    QJsonObject dataset = datasetJson(model.datasetConfig);
    dataset.insert("vocabulary_size", model.vocabulary().size());
    const QJsonObject config{
        {"model", modelJson}, {"training", toJson(t, trainingConfigFields())}, {"dataset", dataset}};
    QJsonObject root{{"epochs", epochs},
                     {"best_epoch", outcome.bestEpoch},
                     {"status", statusName(outcome)},
                     {"message", QString::fromStdString(outcome.message)},
                     {"test", QJsonObject{{"sentences", test.sentences},
                                          {"exact_match", test.exactMatch},
                                          {"token_accuracy", test.tokenAccuracy},
                                          {"decoding", "greedy, one sentence at a time"},
                                          {"by_length", byLength},
                                          {"with_unknown_words",
                                           QJsonObject{{"sentences", test.withUnknownWords.total},
                                                       {"exact_match", test.withUnknownWords.total
                                                                           ? double(test.withUnknownWords.correct)
                                                                                 / test.withUnknownWords.total
                                                                           : 0.0}}}}},
                     {"config", config},
                     {"effective_settings",
                      effectiveJson(data, model.datasetConfig, t, model.config(), model.vocabulary().size())}};
    if (data.fromCorpus)
        root.insert("length_report", lengthReportJson(lengthReport(data, test)));
    return root;
}

bool writeText(const QString &path, const std::string &text, QString *error)
{
    return writeFileAtomically(path, QByteArray::fromStdString(text), error);
}

bool writeHeatmap(const QString &path, const DecodedSentence &sentence, QString *error)
{
    AttentionHeatmap heatmap;
    showDecodedSentence(heatmap, sentence);
    std::vector<std::string> input(sentence.sourceTokens.begin(), sentence.sourceTokens.end() - 1);
    heatmap.setTitle(QStringLiteral("\"%1\"  →  \"%2\"")
                         .arg(QString::fromStdString(joinTokens(input)), QString::fromStdString(sentence.text())));
    return heatmap.exportImage(path, 1000, 800, error);
}

QString decodedJson(const DecodedSentence &s, bool replaceUnknown)
{
    return QString::fromUtf8(QJsonDocument(decodedObject(s, replaceUnknown)).toJson(QJsonDocument::Indented));
}

QString beamJson(const BeamDecoded &decoded, const BeamOptions &options, const Vocabulary &vocabulary,
                 bool replaceUnknown)
{
    QJsonObject root = decodedObject(decoded.nbest.front().sentence, replaceUnknown);
    root.insert("beam", QJsonObject{{"width", options.width}, {"alpha", options.alpha}, {"nbest", options.nbest}});
    QJsonArray nbest;
    for (const ScoredSentence &h : decoded.nbest)
        nbest.append(QJsonObject{{"tokens", stringArray(h.sentence.outputTokens)},
                                 {"output", QString::fromStdString(h.sentence.text())},
                                 {"score", h.score},
                                 {"log_prob", h.logProb}});
    root.insert("nbest", nbest);
    QJsonArray steps;
    for (std::size_t t = 0; t < decoded.steps.size(); ++t) {
        QJsonArray kept;
        for (const BeamStepEntry &e : decoded.steps[t].kept)
            kept.append(QJsonObject{{"tokens", wordsOf(e.tokens, decoded, vocabulary)},
                                    {"score", e.score},
                                    {"log_prob", e.logProb},
                                    {"finished", e.finished}});
        steps.append(QJsonObject{{"step", int(t) + 1}, {"kept", kept}});
    }
    root.insert("beam_steps", steps);
    return QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Indented));
}

QString wordRemovalJson(RemovalMode mode, const std::vector<WordRemovalEffect> &effects,
                        const WordRemovalSummary &summary)
{
    QJsonArray sentences;
    for (const WordRemovalEffect &effect : effects) {
        QJsonArray words;
        for (const WordRemoval &w : effect.words)
            words.append(QJsonObject{{"word", QString::fromStdString(w.word)},
                                     {"attention", w.attention},
                                     {"peak_attention", w.peakAttention},
                                     {"log_prob_fall", w.logProbFall},
                                     {"output_without", QString::fromStdString(joinTokens(w.changedOutput))},
                                     {"output_expected", w.changedOutputExpected},
                                     {"output_unchanged", w.outputUnchanged}});
        const std::vector<std::string> &source = effect.original.sourceTokens;
        sentences.append(QJsonObject{
            {"input", QString::fromStdString(joinTokens(std::vector<std::string>(source.begin(), source.end() - 1)))},
            {"output", QString::fromStdString(effect.original.text())},
            {"log_prob", effect.logProb},
            {"spearman", shareJson(effect.spearman)},
            {"words", words}});
    }
    const QJsonObject totals{{"sentences", summary.sentences},
                             {"words", summary.words},
                             {"correlated_sentences", summary.correlatedSentences},
                             {"mean_spearman", shareJson(summary.meanSpearman)},
                             {"median_spearman", shareJson(summary.medianSpearman)},
                             {"mean_log_prob_fall", shareJson(summary.meanLogProbFall)},
                             {"changed_outputs", summary.changedOutputs},
                             {"expected_outputs", summary.expectedOutputs}};
    const QJsonObject root{{"mode", removalModeName(mode)},
                           {"summary", totals},
                           {"sentences", sentences}};
    return QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Indented));
}

bool writeComparison(const QString &path, const std::vector<ExperimentResult> &results, const DatasetConfig &d,
                     const TrainingConfig &t, int probeMaxLength, int probeSentences, QString *error)
{
    QJsonArray runs;
    for (const ExperimentResult &r : results) {
        runs.append(QJsonObject{
            {"label", QString::fromStdString(r.label)},
            {"attention", attentionName(r.model.attention)},
            {"model", toJson(r.model, modelConfigFields())},
            {"model_seed", double(r.modelSeed)},
            {"parameters", double(r.parameters)},
            {"epochs", int(r.history.size())},
            {"best_epoch", r.outcome.bestEpoch},
            {"status", statusName(r.outcome)},
            {"seconds", r.seconds},
            {"test", QJsonObject{{"sentences", r.test.sentences},
                                 {"exact_match", r.test.exactMatch},
                                 {"token_accuracy", r.test.tokenAccuracy},
                                 {"by_length", byLengthJson(r.test.byLength)}}},
            {"probe", QJsonObject{{"sentences", r.probe.sentences},
                                  {"exact_match", r.probe.exactMatch},
                                  {"token_accuracy", r.probe.tokenAccuracy}}},
            {"by_length", byLengthJson(r.probe.byLength)},
            {"history", epochStatsJson(r.history)}});
    }
    QJsonObject root{
        {"runs", runs},
        {"dataset", datasetJson(d)},
        {"probe", QJsonObject{{"min_len", d.minLength}, {"max_len", probeMaxLength}, {"sentences", probeSentences},
                              {"seed", double(d.seed + 1)}}},
        {"training", toJson(t, trainingConfigFields())},
        {"decoding", "greedy, batched"}};
    const QJsonArray spreads = seedSpreadJson(results);
    if (!spreads.isEmpty())
        root.insert("seed_spread", spreads);
    return writeFileAtomically(path, QJsonDocument(root).toJson(QJsonDocument::Indented), error);
}

bool writeLengthPlot(const QString &path, const std::vector<ExperimentResult> &results, int trainedMin,
                     int trainedMax, QString *error)
{
    LengthAccuracyPlot plot;
    plot.setTrainedRange(trainedMin, trainedMax);
    // One line per variant: with --seeds, the mean in the band of its seeds.
    const auto groups = runsByVariant(results);
    for (std::size_t i = 0; i < groups.size(); ++i) {
        std::vector<std::map<int, double>> byLength;
        for (const ExperimentResult *r : groups[i])
            byLength.push_back(exactMatchByLength(r->probe.byLength));
        plot.setRun(int(i), QString::fromLatin1(attentionName(groups[i].front()->model.attention)),
                    spreadByKey(byLength));
    }
    return plot.exportImage(path, 1000, 600, error);
}

}
