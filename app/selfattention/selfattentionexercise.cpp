#include "app/selfattention/selfattentionexercise.h"

#include "app/core/commandline.h"
#include "app/workbench/exercisecommand.h"
#include "engine/core/tokenizer.h"
#include "engine/selfattention/attentionreflection.h"
#include "engine/selfattention/partsofspeech.h"
#include "engine/selfattention/positionalencoding.h"
#include "engine/selfattention/selfattentioninputs.h"
#include "engine/selfattention/sentencecomparison.h"
#include "ui/core/attentionheatmap.h"
#include "ui/selfattention/selfattentioncontrols.h"
#include "ui/selfattention/selfattentionlab.h"
#include "ui/selfattention/selfattentionpanel.h"

#include <QDir>
#include <QJsonArray>

namespace {

// The explorer's defaults: d_model 4, d_k 3, seed 1, random X.
constexpr int kDModel = 4;
constexpr int kDK = 3;
constexpr std::uint64_t kSeed = 1;

struct Computed {
    std::vector<std::string> words;
    ScaledDotProductAttention attention;
};

Computed compute(const std::string &sentence, bool positions = false)
{
    Computed c;
    c.words = tokenize(sentence, false);
    const SelfAttentionInputs in = SelfAttentionInputs::random(c.words, kDModel, kDK, kSeed);
    c.attention = ScaledDotProductAttention::compute(positions ? withPositions(in.x) : in.x, in.wq, in.wk, in.wv);
    return c;
}

QString word(const Computed &c, int i)
{
    return QString::fromStdString(c.words[std::size_t(i)]);
}

QJsonObject sentenceAnswers(const std::string &sentence)
{
    const Computed c = compute(sentence);
    const Matrix &a = c.attention.weights;
    const AttentionReflection r = reflectOn(a);
    QJsonArray weights, strongest;
    for (int i = 0; i < a.rows; ++i) {
        QJsonArray row;
        for (int j = 0; j < a.columns; ++j)
            row.append(a.at(i, j));
        weights.append(row);
        const int j = r.strongestKey[std::size_t(i)];
        strongest.append(QJsonObject{{"word", word(c, i)}, {"attends_most_to", word(c, j)}, {"weight", a.at(i, j)},
                                     {"entropy_nats", r.entropy[std::size_t(i)]}});
    }
    std::vector<PartOfSpeech> tags;
    for (const std::string &w : c.words)
        tags.push_back(courseTag(w));
    QJsonArray parts;
    for (const PartAttention &p : attentionByPart(a, tags))
        parts.append(QJsonObject{{"part", partName(p.part)}, {"words", p.words}, {"mean_entropy_nats", p.meanEntropy},
                                 {"mean_weight_on_itself", p.meanSelf}, {"mean_weight_received", p.meanReceived}});
    QJsonObject answers{{"sentence", QString::fromStdString(sentence)},
                        {"weights", weights},
                        {"each_word", strongest},
                        {"most_concentrated", word(c, r.mostFocused)},
                        {"asymmetry_frobenius", r.asymmetry},
                        {"parts_of_speech", parts}};
    if (r.asymmetricQuery >= 0)
        answers.insert("most_one_sided", QJsonObject{{"from", word(c, r.asymmetricQuery)},
                                                      {"to", word(c, r.asymmetricKey)},
                                                      {"weight", a.at(r.asymmetricQuery, r.asymmetricKey)},
                                                      {"back", a.at(r.asymmetricKey, r.asymmetricQuery)}});
    return answers;
}

QJsonObject comparisonAnswers(const std::string &first, const std::string &second, bool positions)
{
    const Computed a = compute(first, positions), b = compute(second, positions);
    const SentenceComparison c = compareSentences(a.words, a.attention, b.words, b.attention);
    QJsonArray rows;
    for (int i = 0; i < int(a.words.size()); ++i)
        if (c.match[std::size_t(i)] >= 0)
            rows.append(QJsonObject{{"word", word(a, i)}, {"row_change", c.rowChange[std::size_t(i)]},
                                    {"weight_on_new_words", c.addedShare[std::size_t(i)]}});
    return {{"first", QString::fromStdString(first)}, {"second", QString::fromStdString(second)},
            {"positions", positions}, {"reordering", c.reordering},
            {"largest_score_change", c.largestScoreChange}, {"largest_weight_change", c.largestWeightChange},
            {"rows", rows}};
}

int runSelfAttentionExercise(const std::string &outDir)
{
    QJsonArray sentences;
    const QDir dir(QString::fromStdString(outDir));
    int n = 0;
    for (const std::string &sentence : courseSentences()) {
        sentences.append(sentenceAnswers(sentence));
        const Computed c = compute(sentence);
        QStringList labels;
        for (int i = 0; i < int(c.words.size()); ++i)
            labels << word(c, i);
        AttentionHeatmap heatmap;
        heatmap.setRoles(QStringLiteral("query"), QStringLiteral("query word (row)"), QStringLiteral("key"),
                         QStringLiteral("key word (column)"));
        heatmap.setTitle(QString::fromStdString(sentence));
        heatmap.setMatrix(labels, labels,
                          std::vector<float>(c.attention.weights.values.begin(), c.attention.weights.values.end()));
        QString error;
        if (!heatmap.exportImage(dir.filePath(QStringLiteral("self_attention_%1.png").arg(++n)), 600, 520, &error))
            return failure(error.toStdString());
    }
    const QJsonArray comparisons = {comparisonAnswers("I love AI", "AI loves me", false),
                                    comparisonAnswers("Students learn quickly", "Students learn quickly deeply", false),
                                    comparisonAnswers("I love AI", "AI love I", false),
                                    comparisonAnswers("I love AI", "AI love I", true)};
    return writeAnswers(outDir, "self-attention",
                        {{"settings", QJsonObject{{"d_model", kDModel}, {"d_k", kDK}, {"seed", int(kSeed)},
                                                  {"x", "random"}}},
                         {"sentences", sentences},
                         {"comparisons", comparisons}});
}

// The first sentence in the explorer, X as the exercise computes it, guesses asked first.
QWidget *openSelfAttentionExercise(Lab *lab)
{
    SelfAttentionControls *controls = qobject_cast<SelfAttentionLab *>(lab)->panel()->controls();
    controls->setSource(SelfAttentionControls::Source::Random);
    controls->setDModel(kDModel);
    controls->setDK(kDK);
    controls->setSeed(int(kSeed));
    controls->setPositions(false);
    controls->setPredictFirst(true);
    controls->setSentence(QString::fromStdString(courseSentences().front()));
    return nullptr;
}

} // namespace

Exercise selfAttentionExercise()
{
    return {"self-attention", "Self-attention: predict the weights, then compute them, and reflect",
            "The four sentences I love AI, AI loves me, Birds can fly and Students learn quickly, random X "
            "(d_model 4, d_k 3, seed 1); which word each attends to most, the most concentrated, symmetry, "
            "verbs against nouns, what adding \"deeply\" and reordering do, with and without positions.",
            runSelfAttentionExercise,
            "**The task.** For each of the four sentences, guess which word each word attends to most, then "
            "compute the weights, and reflect: does \"AI loves me\" change the pattern, is attention symmetric, "
            "which word focuses most, do verbs spread attention differently from nouns, does word order matter, "
            "what does adding \"deeply\" do?\n\n**In the app**, the explorer opens on the first sentence with "
            "the exercise's X, and Course Sentences gives the other three; fill in your guesses, reveal the "
            "weights, and the Reflect box answers each question for the sentence shown. \"Add positions\" shows "
            "what word order does once positions are encoded.\n\n"
            "**On this build**, without positions reordering the words permutes the weights exactly (to 1e-6); "
            "with positions it does not.",
            openSelfAttentionExercise};
}
