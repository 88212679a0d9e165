#include "app/attention/attentionexercises.h"

#include "app/attention/beamtable.h"
#include "app/attention/commandmodel.h"
#include "app/attention/commands.h"
#include "app/core/commandline.h"
#include "app/workbench/exercisecommand.h"
#include "engine/attention/attentionanalysis.h"
#include "engine/attention/beamevaluation.h"
#include "engine/attention/dataset.h"
#include "engine/attention/evaluation.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <exception>

namespace {

QString inDir(const std::string &outDir, const char *name)
{
    return QDir(QString::fromStdString(outDir)).filePath(QString::fromLatin1(name));
}

// The assignment as AttnScope trains by default, answered from the trained model: exact match,
// and the figures behind the four analysis questions.
int runAssignment(const std::string &outDir)
{
    const int trained = runTrain({"--out", outDir});
    if (trained != 0)
        return trained;
    try {
        const Seq2SeqModel model = Seq2SeqModel::load(inDir(outDir, "model.ckpt").toStdString());
        const Dataset data = Dataset::build(model.datasetConfig);
        const EvaluationReport report = evaluate(model, data.test);
        const AttentionAnalysis a = analyseAttention(model, data.test, model.datasetConfig.task);
        return writeAnswers(
            outDir, "assignment",
            {{"test_exact_match", report.exactMatch},
             {"test_token_accuracy", report.tokenAccuracy},
             {"examples", "examples.txt"},
             {"picture", "attention_heatmap.png"},
             {"analysis", "analysis.md"},
             {"q1_patterns", QJsonObject{{"aligned_share", a.alignedShare}, {"mean_max_weight", a.meanMaxWeight},
                                         {"mean_entropy_bits", a.meanEntropyBits},
                                         {"uniform_entropy_bits", a.meanUniformEntropyBits}}},
             {"q2_alignment", QJsonObject{{"aligned_share", a.alignedShare},
                                          {"unmirrored_share", a.diagonalShareForReverse}}},
             {"q3_how_attention_helps",
              QJsonObject{{"aligned_steps", a.alignedSteps}, {"right_when_aligned", a.alignedRight},
                          {"other_steps", a.otherSteps}, {"right_otherwise", a.otherRight},
                          {"mean_weight_on_the_needed_word", a.meanRightWeight},
                          {"weight_on_it_where_another_word_led", a.otherRightWeight}}},
             {"q4_beginning_and_end",
              QJsonObject{{"first_step_on_expected", a.firstStepOnExpected},
                          {"first_step_mean_weight", a.firstStepMeanWeight},
                          {"eos_step_on_source_eos", a.eosStepOnSourceEos}}}});
    } catch (const std::exception &e) {
        return failure(e.what());
    }
}

// Bahdanau against the three multiplicative scores, trained on the same data and seed.
int runVariants(const std::string &outDir)
{
    const int compared = runCompare({"--out", outDir, "--attention", "bahdanau,luong-dot,luong-general,scaled-dot"});
    if (compared != 0)
        return compared;
    QFile file(inDir(outDir, "comparison.json"));
    if (!file.open(QIODevice::ReadOnly))
        return failure("the comparison wrote no comparison.json");
    QJsonArray table;
    for (const QJsonValue &run : QJsonDocument::fromJson(file.readAll()).object()["runs"].toArray())
        table.append(QJsonObject{{"attention", run["attention"]},
                                 {"test_exact_match", run["test"]["exact_match"]},
                                 {"probe_exact_match", run["probe"]["exact_match"]},
                                 {"parameters", run["parameters"]},
                                 {"seconds", run["seconds"]}});
    return writeAnswers(outDir, "variants", {{"variants", table}, {"picture", "comparison.png"}});
}

// The course's beam table on the model the app opens (the bundled one): k = 1, 2, 5, 10 and
// α = 0, 0.6, 1 on its test split.
int runBeams(const std::string &outDir)
{
    try {
        const Seq2SeqModel model = bundledModel();
        const BeamEvaluation evaluation =
            evaluateBeams(model, Dataset::build(model.datasetConfig).test, courseBeamSettings());
        return writeAnswers(outDir, "beams",
                            QJsonDocument::fromJson(beamEvaluationJson(evaluation).toUtf8()).object());
    } catch (const std::exception &e) {
        return failure(e.what());
    }
}

} // namespace

std::vector<Exercise> attentionExercises()
{
    return {
        {"assignment", "The assignment: GRU encoder-decoder with Bahdanau attention reversing sentences",
         "AttnScope's defaults: a GRU encoder and decoder with Bahdanau attention, Adam with clipping, the best "
         "epoch by validation, ten examples, exact match, the heatmap and the four analysis questions.",
         {}, runAssignment},
        {"variants", "Attention variants: additive, multiplicative and scaled dot-product scores",
         "bahdanau, luong-dot, luong-general and scaled-dot trained on the same data and seed, side by side.",
         {}, runVariants},
        {"beams", "Greedy against beam search with length normalisation",
         "The bundled model's test split decoded greedily and with beams of 2, 5 and 10 at alpha 0, 0.6 and 1.",
         {}, runBeams},
        {"digits", "A toy seq2seq with Bahdanau attention reversing digits",
         "Digits 0-9 plus start and end, lengths 3-5, 200 training sequences, embedding 16, hidden 32, tanh RNN "
         "encoder and decoder, attention scored with the new state (bahdanau-after), plain SGD at 0.01 per "
         "sequence, 100 epochs, the heatmap of 3 1 4 1 5.",
         "a tanh RNN cell for the seq2seq encoder and decoder (they are GRUs)", {}},
        {"lstm-seq2seq", "A seq2seq model with LSTM layers, the decoder started from the encoder or from zeros",
         "LSTM encoder and decoder layers; the decoder's first state the encoder's final one, or zeros.",
         "LSTM cells for the seq2seq encoder and decoder (they are GRUs)", {}},
    };
}
