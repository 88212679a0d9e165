#include "tests/common/testregistry.h"
#include "engine/attention/evaluation.h"
#include "engine/attention/outputlogprob.h"
#include "engine/attention/pointermixture.h"
#include "engine/attention/seq2seqnet.h"
#include "engine/core/batch.h"
#include "engine/core/maskedloss.h"
#include "engine/core/tokenizer.h"
#include "tests/common/tinymodel.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>

namespace {

// Vocabulary 4 specials + "cat" (4), "dog" (5): V = 6. Source "cat zork dog cat <EOS>", where
// "zork" is unknown: extended ids 4 6 5 4 2.
const torch::Tensor kLogits = torch::tensor({0.5, -1.0, 0.2, 0.1, 1.0, 0.3});
const std::vector<double> kWeights = {0.1, 0.4, 0.2, 0.25, 0.05};
const std::vector<int64_t> kSourceExtended = {4, 6, 5, 4, 2};
constexpr double kGate = 0.3;

// P(w) = p_gen P_vocab(w) + (1 - p_gen) sum_{i: x_i = w} a_i, written out in doubles.
std::vector<double> handMixture()
{
    const auto logits = kLogits.to(torch::kDouble);
    std::vector<double> p(7, 0.0);
    double denominator = 0;
    for (int w = 0; w < 6; ++w)
        denominator += std::exp(logits[w].item<double>());
    for (int w = 0; w < 6; ++w)
        p[std::size_t(w)] = kGate * std::exp(logits[w].item<double>()) / denominator;
    for (std::size_t i = 0; i < kWeights.size(); ++i)
        p[std::size_t(kSourceExtended[i])] += (1 - kGate) * kWeights[i];
    return p;
}

torch::Tensor weights() { return torch::tensor(kWeights, torch::kFloat).unsqueeze(0); }
torch::Tensor sourceExtended() { return torch::tensor(kSourceExtended, torch::kLong).unsqueeze(0); }

// Made-up words, two syllables each: none of them is English, so nothing but the data teaches them.
std::vector<std::string> madeUpWords(int count)
{
    const std::string consonants = "bdfgklmnprstvz", vowels = "aeiou";
    std::vector<std::string> words;
    for (std::size_t i = 0; int(words.size()) < count; ++i) {
        const std::string word{consonants[i % 14], vowels[(i / 14) % 5], consonants[(i / 70) % 14], vowels[i % 5]};
        if (std::find(words.begin(), words.end(), word) == words.end())
            words.push_back(word);
    }
    return words;
}

ModelConfig pointerConfig(PointerMode pointer)
{
    ModelConfig m = tinyModelConfig();
    m.pointer = pointer;
    return m;
}

}

// The pointer-generator (See et al. 2017): its mixture is the formula, a gate at 1 is the model
// without the pointer, and it reverses words it never saw.
class TestPointer : public QObject
{
    Q_OBJECT
private slots:
    void mixtureIsTheFormula();
    void targetLogProbIsTheMixtureAtTheTarget();
    void stepsAndSequencesAgree();
    void gateOneIsTheVocabularySoftmax();
    void extendedIdsNumberUnknownWordsOnce();
    void autoIsOnForCorpusOnly();
    void gateOneReproducesTheModelWithoutPointer();
    void madeUpCorpusIsReversedExactly();

private:
    QTemporaryDir m_dir;
};

void TestPointer::mixtureIsTheFormula()
{
    const torch::Tensor p =
        pointerDistribution(kLogits.unsqueeze(0), weights(), torch::tensor({kGate}, torch::kFloat), sourceExtended());
    const std::vector<double> expected = handMixture();
    QCOMPARE(p.size(1), 7);
    for (int w = 0; w < 7; ++w)
        QVERIFY2(std::abs(p[0][w].item<double>() - expected[std::size_t(w)]) < 1e-6, qPrintable(QString::number(w)));
    // "cat" occurs twice: both of its weights are copied into its one entry.
    QVERIFY(std::abs(p[0][4].item<double>() - (kGate * torch::softmax(kLogits, 0)[4].item<double>() + 0.7 * 0.35)) < 1e-6);
    QVERIFY(std::abs(p.sum().item<double>() - 1.0) < 1e-6);
}

void TestPointer::targetLogProbIsTheMixtureAtTheTarget()
{
    // "cat" (twice in the source), "zork" (only by copying), <UNK> (only generated), "dog".
    const torch::Tensor targets = torch::tensor({4, 6, 3, 5}, torch::kLong);
    const std::vector<double> expected = handMixture();
    for (int64_t i = 0; i < targets.size(0); ++i) {
        const torch::Tensor logProb = pointerTargetLogProb(kLogits.unsqueeze(0), weights(), torch::tensor({kGate}, torch::kFloat),
                                                           sourceExtended(), targets.narrow(0, i, 1));
        QVERIFY(std::abs(logProb.item<double>() - std::log(expected[std::size_t(targets[i].item<int64_t>())])) < 1e-5);
    }
}

void TestPointer::stepsAndSequencesAgree()
{
    torch::manual_seed(3);
    const torch::Tensor logits = torch::randn({2, 3, 6});
    const torch::Tensor attention = torch::softmax(torch::randn({2, 3, 5}), 2);
    const torch::Tensor gate = torch::rand({2, 3});
    const torch::Tensor source = torch::tensor({{4, 6, 5, 4, 2}, {5, 6, 7, 2, 0}}, torch::kLong);
    const torch::Tensor whole = pointerDistribution(logits, attention, gate, source);
    for (int64_t t = 0; t < 3; ++t)
        QVERIFY(torch::allclose(whole.select(1, t),
                                pointerDistribution(logits.select(1, t), attention.select(1, t), gate.select(1, t), source)));
    const torch::Tensor target = torch::tensor({{4, 6, 2}, {7, 5, 0}}, torch::kLong);
    const torch::Tensor expected = whole.gather(2, target.unsqueeze(2)).squeeze(2).log();
    QVERIFY(torch::allclose(pointerTargetLogProb(logits, attention, gate, source, target), expected, 1e-5, 1e-5));
    // The loss leaves out the <PAD> position.
    const double loss = maskedPointerLoss(logits, attention, gate, source, target).item<double>();
    QVERIFY(std::abs(loss + (expected.sum().item<double>() - expected[1][2].item<double>()) / 5) < 1e-5);
}

void TestPointer::gateOneIsTheVocabularySoftmax()
{
    torch::manual_seed(4);
    const torch::Tensor logits = torch::randn({2, 3, 6});
    const torch::Tensor attention = torch::softmax(torch::randn({2, 3, 5}), 2);
    const torch::Tensor source = torch::tensor({{4, 6, 5, 4, 2}, {5, 6, 7, 2, 0}}, torch::kLong);
    const torch::Tensor p = pointerDistribution(logits, attention, torch::ones({2, 3}), source);
    QVERIFY(torch::allclose(p.narrow(2, 0, 6), torch::softmax(logits, 2)));
    QCOMPARE(p.narrow(2, 6, 2).abs().sum().item<double>(), 0.0);
    const torch::Tensor target = torch::tensor({{4, 3, 2}, {5, 5, 0}}, torch::kLong);
    QVERIFY(std::abs(maskedPointerLoss(logits, attention, torch::ones({2, 3}), source, target).item<double>()
                     - maskedCrossEntropy(logits, target).item<double>())
            < 1e-5);
}

void TestPointer::extendedIdsNumberUnknownWordsOnce()
{
    const Vocabulary vocabulary({"cat", "dog"});
    const ExtendedSource s = extendedSource({"cat", "zork", "dog", "zork", "blip"}, vocabulary, {"dog"});
    QCOMPARE(s.ids, (std::vector<int>{4, Vocabulary::kUnk, Vocabulary::kUnk, Vocabulary::kUnk, Vocabulary::kUnk}));
    QCOMPARE(s.extended, (std::vector<int>{4, 6, 7, 6, 8}));  // a hidden known word is copied like an unknown one
    QCOMPARE(s.unknownWords, (std::vector<std::string>{"zork", "dog", "blip"}));
    QCOMPARE(extendedId("blip", s, vocabulary), 8);
    QCOMPARE(extendedId("cat", s, vocabulary), 4);
    QCOMPARE(extendedId("quux", s, vocabulary), Vocabulary::kUnk);

    const SentencePair pair{{"cat", "zork", "dog"}, {"dog", "zork", "cat"}};
    const Batch batch = makeBatch({&pair}, vocabulary);
    QVERIFY(torch::equal(batch.sourceExtended, torch::tensor({{4, 6, 5, 2}}, torch::kLong)));
    QVERIFY(torch::equal(batch.targetExtended, torch::tensor({{1, 5, 6, 4, 2}}, torch::kLong)));
    QVERIFY(torch::equal(batch.target, torch::tensor({{1, 5, Vocabulary::kUnk, 4, 2}}, torch::kLong)));
}

void TestPointer::autoIsOnForCorpusOnly()
{
    QVERIFY(resolvedFor(pointerConfig(PointerMode::Auto), true).usesPointer());
    QVERIFY(!resolvedFor(pointerConfig(PointerMode::Auto), false).usesPointer());
    QVERIFY(resolvedFor(pointerConfig(PointerMode::On), false).usesPointer());
    QVERIFY(!resolvedFor(pointerConfig(PointerMode::Off), true).usesPointer());
    ModelConfig none = pointerConfig(PointerMode::Auto);
    none.attention = AttentionKind::None;
    QVERIFY(!resolvedFor(none, true).usesPointer());
    none.pointer = PointerMode::On;
    QVERIFY(!validate(none).empty());
}

void TestPointer::gateOneReproducesTheModelWithoutPointer()
{
    const Vocabulary vocabulary({"red", "green", "blue", "cat", "dog"});
    for (AttentionKind kind : {AttentionKind::Bahdanau, AttentionKind::LuongGeneral}) {
        ModelConfig plain = pointerConfig(PointerMode::Off), pointer = pointerConfig(PointerMode::On);
        plain.attention = pointer.attention = kind;
        Seq2SeqModel without(plain, vocabulary, 5), with(pointer, vocabulary, 6);
        {
            torch::NoGradGuard noGrad;
            auto source = without.net()->named_parameters(true);
            for (auto &item : with.net()->named_parameters(true)) {
                if (source.contains(item.key()))
                    item.value().copy_(source[item.key()]);
            }
            with.net()->decoder->copyGate->weight.zero_();
            with.net()->decoder->copyGate->bias.fill_(100.0);  // sigmoid(100) is 1 in float
        }
        const DecodeOptions keepUnknown{false};
        for (const std::string sentence : {"red cat dog", "blue green zork cat", "dog"}) {
            const DecodedSentence a = without.reverse(sentence, keepUnknown), b = with.reverse(sentence, keepUnknown);
            QCOMPARE(b.outputTokens, a.outputTokens);
            QCOMPARE(b.attention.size(), a.attention.size());
            for (std::size_t i = 0; i < a.attention.size(); ++i)
                QVERIFY(std::abs(a.attention[i] - b.attention[i]) < 1e-5);
            QCOMPARE(b.copyGate, std::vector<float>(b.outputTokens.size(), 1.0f));
            QVERIFY(a.copyGate.empty());
            const auto words = tokenize(sentence);
            QVERIFY(std::abs(outputLogProbs(without, {words}, a).front() - outputLogProbs(with, {words}, b).front()) < 1e-4);
        }
    }
}

void TestPointer::madeUpCorpusIsReversedExactly()
{
    // 60 made-up words in training; 12 more appear only in the sentences decoded at the end.
    const std::vector<std::string> words = madeUpWords(72);
    const std::vector<std::string> seen(words.begin(), words.begin() + 60), unseen(words.begin() + 60, words.end());
    std::mt19937_64 rng(7);
    const QString path = m_dir.filePath(QStringLiteral("madeup.txt"));
    {
        std::ofstream out(path.toStdString());
        std::uniform_int_distribution<int> length(2, 5);
        std::uniform_int_distribution<std::size_t> word(0, seen.size() - 1);
        for (int line = 0; line < 1500; ++line) {
            const int n = length(rng);
            for (int i = 0; i < n; ++i)
                out << (i ? " " : "") << seen[word(rng)];
            out << '\n';
        }
    }
    DatasetConfig d;
    d.corpusPath = path.toStdString();
    d.minLength = 2;
    d.maxLength = 5;
    TrainingConfig t = tinyTraining();
    t.epochs = 12;
    const Dataset data = Dataset::build(d);
    Seq2SeqModel model = Seq2SeqModel::forDataset(pointerConfig(PointerMode::Auto), data, d, 1);
    QVERIFY(model.config().usesPointer());  // auto, for a corpus
    Trainer(model, data, t).run();

    const EvaluationReport report = evaluate(model, data.test);
    QVERIFY2(report.exactMatch == 1.0, qPrintable(QString::number(report.exactMatch)));
    // Words never seen in training, one twice and beside known words, come out reversed, copied.
    const std::vector<std::vector<std::string>> novel = {{unseen[0], unseen[1], unseen[2]},
                                                         {seen[3], unseen[4], seen[5], unseen[4]},
                                                         {unseen[6], seen[7], unseen[8], unseen[9], unseen[10]}};
    for (const auto &sentence : novel) {
        const DecodedSentence out = model.decode(sentence, DecodeOptions{false});  // only the pointer can copy
        QCOMPARE(out.words(), std::vector<std::string>(sentence.rbegin(), sentence.rend()));
        for (std::size_t i = 0; i < sentence.size(); ++i)
            QCOMPARE(bool(out.outputCopied[i]), !model.vocabulary().contains(out.outputTokens[i]));
        // Beam search of width 1 is greedy decoding, here too.
        QCOMPARE(model.beamDecode(sentence, BeamOptions{}).nbest.front().sentence.outputTokens, out.outputTokens);
    }

    const QString saved = m_dir.filePath(QStringLiteral("pointer.ckpt"));
    model.save(saved.toStdString());
    const Seq2SeqModel loaded = Seq2SeqModel::load(saved.toStdString());
    QVERIFY(loaded.config().usesPointer());
    for (const auto &sentence : novel)
        QCOMPARE(loaded.decode(sentence).outputTokens, model.decode(sentence).outputTokens);
}

ATTNSCOPE_TEST(pointer, TestPointer)
#include "tst_pointer.moc"
