#include "tests/common/testregistry.h"
#include "engine/attention/inferencenet.h"
#include "engine/attention/pointermixture.h"
#include "engine/attention/seq2seqmodel.h"
#include "engine/attention/seq2seqnet.h"
#include "engine/core/vocabulary.h"
#include "tests/common/referencenet.h"

#include <QtTest>

#include <fstream>
#include <unistd.h>

namespace {

ModelConfig config(int embed, int hidden, int layers, bool bidirectional)
{
    ModelConfig c;
    c.attention = AttentionKind::Bahdanau;  // InferenceNet's variant
    c.embedSize = embed;
    c.hiddenSize = hidden;
    c.layers = layers;
    c.bidirectional = bidirectional;
    return c;
}

// Sentences of 1 to 24 ids (<EOS> last) drawn from a vocabulary of `size`, unknown words included.
std::vector<std::vector<int64_t>> sentences(int size, int count)
{
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> word(Vocabulary::kUnk, size - 1);
    std::vector<std::vector<int64_t>> out;
    for (int i = 0; i < count; ++i) {
        std::vector<int64_t> s(std::size_t(1 + i % 24));
        for (auto &id : s)
            id = word(rng);
        s.push_back(Vocabulary::kEos);
        out.push_back(std::move(s));
    }
    return out;
}

// This process's resident memory now, from /proc/self/statm (pages).
double residentMiB()
{
    std::ifstream statm("/proc/self/statm");
    long size = 0, resident = 0;
    statm >> size >> resident;
    return double(resident) * double(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

torch::Tensor row(const std::vector<int64_t> &ids)
{
    return torch::tensor(ids, torch::kLong).unsqueeze(0);
}

// Checks that `other`'s first row starts with what InferenceNet decoded: same tokens, attention
// within float rounding.
void compareRows(const GreedyOutput &one, const GreedyOutput &other, const char *what)
{
    const int64_t steps = one.tokens.size(1);
    QVERIFY(steps <= other.tokens.size(1));
    QVERIFY2(torch::equal(one.tokens[0], other.tokens[0].narrow(0, 0, steps)),
             qPrintable(QString("tokens differ from the %1 for a sentence of %2 ids").arg(what).arg(one.weights.size(2))));
    const double gap = (one.weights[0] - other.weights[0].narrow(0, 0, steps)).abs().max().item<double>();
    QVERIFY2(gap < 2e-5, qPrintable(QString("attention differs from the %1 by %2").arg(what).arg(gap)));
}

// Decodes `ids` alone (InferenceNet), as both rows of a batch of two (the fused step loop) and
// op by op (tests/common/referencenet.h), and checks that all three agree.
void compareWithOpByOp(Seq2SeqNet &net, const std::vector<int64_t> &ids, int maxSteps, bool stopAtEos)
{
    const auto source = row(ids);
    const auto lengths = torch::tensor({int64_t(ids.size())});
    const GreedyOutput one = net->greedy(source, lengths, maxSteps, stopAtEos);
    const int64_t steps = one.tokens.size(1);
    QVERIFY(steps >= 1);
    QCOMPARE(one.weights.sizes(), (std::vector<int64_t>{1, steps, int64_t(ids.size())}));
    compareRows(one, net->greedy(torch::cat({source, source}), torch::cat({lengths, lengths}), maxSteps, stopAtEos),
                "fused step loop");
    compareRows(one, referenceGreedy(net, source, lengths, int(steps)), "op-by-op reference");
    QVERIFY(torch::allclose(one.weights.sum(2), torch::ones({1, steps}), 1e-5, 1e-5));
    if (!stopAtEos)
        QCOMPARE(steps, int64_t(maxSteps));
}

ModelConfig pointerConfig(int embed, int hidden, int layers)
{
    ModelConfig c = config(embed, hidden, layers, true);
    c.pointer = PointerMode::On;
    return c;
}

// `ids` as a pointer model reads them when the top quarter of the vocabulary's words are missing
// from it: those are <UNK> in the source, and V + k in the extended ids, one k per word.
std::pair<std::vector<int64_t>, std::vector<int64_t>> withUnknownWords(const std::vector<int64_t> &ids, int vocabulary)
{
    const int64_t firstMissing = vocabulary - vocabulary / 4;
    std::vector<int64_t> source(ids), extended(ids);
    for (std::size_t i = 0; i < ids.size(); ++i)
        if (ids[i] >= firstMissing) {
            source[i] = Vocabulary::kUnk;
            extended[i] = vocabulary + ids[i] - firstMissing;
        }
    return {source, extended};
}

// A net in eval mode of the shape in the test's data row (embed, hidden, layers, bidirectional).
// Random weights are too small to make a decoder stop; larger ones give sharp, varied attention.
Seq2SeqNet fetchedNet(int vocabulary, bool pointer = false)
{
    QFETCH(int, embed);
    QFETCH(int, hidden);
    QFETCH(int, layers);
    QFETCH(bool, bidirectional);
    ModelConfig c = config(embed, hidden, layers, bidirectional);
    c.pointer = pointer ? PointerMode::On : PointerMode::Off;
    Seq2SeqNet net(vocabulary, c);
    torch::NoGradGuard noGrad;
    for (auto &p : net->parameters())
        p.mul_(4.0);
    net->eval();
    return net;
}

}

// InferenceNet replaces the op-by-op decoder for one sentence; it must decode what that decoder
// decodes, for every shape of model it accepts and after every change to the weights.
class TestInferenceNet : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        torch::manual_seed(11);
    }

    void matchesOpByOpDecoder_data()
    {
        QTest::addColumn<int>("embed");
        QTest::addColumn<int>("hidden");
        QTest::addColumn<int>("layers");
        QTest::addColumn<bool>("bidirectional");
        QTest::newRow("default shape") << 128 << 256 << 2 << true;
        QTest::newRow("one layer") << 16 << 32 << 1 << true;
        QTest::newRow("unidirectional") << 16 << 32 << 2 << false;
        QTest::newRow("three layers, odd sizes") << 7 << 18 << 3 << true;
        // Big enough that a step's products are split over the helper thread across matrices.
        QTest::newRow("three layers, shared") << 24 << 190 << 3 << true;
    }
    void matchesOpByOpDecoder()
    {
        const int vocabulary = 40;
        Seq2SeqNet net = fetchedNet(vocabulary);
        torch::InferenceMode inference;
        QVERIFY(InferenceNet::supports(*net));
        for (const auto &ids : sentences(vocabulary, 48))
            compareWithOpByOp(net, ids, int(ids.size()) + 4, /*stopAtEos=*/false);
    }

    void matchesOpByOpOnTrainedModel()
    {
        const Seq2SeqModel model = Seq2SeqModel::load(ATTNSCOPE_SOURCE_DIR "/resources/models/default.ckpt");
        Seq2SeqNet &net = model.net();
        net->eval();
        torch::InferenceMode inference;
        for (const auto &ids : sentences(model.vocabulary().size(), 96))
            compareWithOpByOp(net, ids, 2 * int(ids.size()) + 5, /*stopAtEos=*/true);
        // And it still reverses: "the cat sat" decodes as "sat cat the".
        const DecodedSentence d = model.reverse("the cat sat on the mat");
        QCOMPARE(d.words(), (std::vector<std::string>{"mat", "the", "on", "sat", "cat", "the"}));
    }

    // Beam search's steps: several hypotheses as rows, reordered by their parents every step, must
    // each get what the op-by-op decoder gives that row's history.
    void beamStepsMatchOpByOp_data() { matchesOpByOpDecoder_data(); }
    void beamStepsMatchOpByOp()
    {
        const int vocabulary = 40;
        Seq2SeqNet net = fetchedNet(vocabulary);
        torch::InferenceMode inference;
        const std::vector<int64_t> ids = sentences(vocabulary, 9).back();
        const auto source = row(ids);
        const EncoderOutput encoded = referenceEncode(net->encoder, source, torch::tensor({int64_t(ids.size())}));
        const DecoderMemory one{encoded.outputs, net->decoder->keys(encoded.outputs), source != Vocabulary::kPad, {}};
        torch::Tensor state = encoded.hidden;  // (layers, rows, H): the reference's rows

        InferenceNet &fast = *net->inference();
        fast.begin(std::vector<int>(ids.begin(), ids.end()));
        const std::vector<std::pair<std::vector<int>, std::vector<int>>> steps{
            {{0}, {Vocabulary::kSos}}, {{0, 0, 0}, {7, 9, 11}}, {{2, 0, 1, 1}, {5, 5, 30, 12}}, {{3, 1}, {8, 4}}};
        for (const auto &[parents, tokens] : steps) {
            const int64_t rows = int64_t(parents.size());
            const auto same = torch::zeros({rows}, torch::kLong);
            const DecoderMemory memory{one.values.index_select(0, same), one.keys.index_select(0, same),
                                       one.mask.index_select(0, same), {}};
            state = state.index_select(1, torch::tensor(std::vector<int64_t>(parents.begin(), parents.end())));
            const ReferenceStep expected = referenceStep(
                net->decoder, torch::tensor(std::vector<int64_t>(tokens.begin(), tokens.end())), state, memory);
            state = expected.hidden;
            const BeamScores scores = fast.step(parents, tokens);
            const auto logProbs = torch::from_blob(const_cast<float *>(scores.logProbs.data()), {rows, vocabulary});
            const auto weights = torch::from_blob(const_cast<float *>(scores.attention.data()), {rows, int64_t(ids.size())});
            const double logGap = (logProbs - torch::log_softmax(expected.logits, 1)).abs().max().item<double>();
            const double weightGap = (weights - expected.weights).abs().max().item<double>();
            QVERIFY2(logGap < 1e-3, qPrintable(QString("log-probabilities differ by %1 at %2 rows").arg(logGap).arg(rows)));
            QVERIFY2(weightGap < 2e-5, qPrintable(QString("attention differs by %1 at %2 rows").arg(weightGap).arg(rows)));
        }
    }

    // The pointer: greedy decoding of sentences with unknown words (extended ids V, V + 1, ...)
    // through InferenceNet (one row) and the op-by-op loop (two rows), tokens, attention and p_gen.
    void pointerMatchesOpByOp_data() { matchesOpByOpDecoder_data(); }
    void pointerMatchesOpByOp()
    {
        const int vocabulary = 40;
        Seq2SeqNet net = fetchedNet(vocabulary, /*pointer=*/true);
        torch::InferenceMode inference;
        QVERIFY(InferenceNet::supports(*net));
        int copied = 0;
        for (const auto &words : sentences(vocabulary, 48)) {
            const auto [ids, extendedIds] = withUnknownWords(words, vocabulary);
            const auto source = row(ids), extended = row(extendedIds);
            const auto lengths = torch::tensor({int64_t(ids.size())});
            const int steps = int(ids.size()) + 4;
            const GreedyOutput one = net->greedy(source, lengths, steps, false, extended);
            const GreedyOutput two = net->greedy(torch::cat({source, source}), torch::cat({lengths, lengths}), steps,
                                                 false, torch::cat({extended, extended}));
            compareRows(one, two, "op-by-op loop");
            QVERIFY(one.copyGate.defined());
            const double gap = (one.copyGate[0] - two.copyGate[0]).abs().max().item<double>();
            QVERIFY2(gap < 1e-5, qPrintable(QString("p_gen differs by %1").arg(gap)));
            copied += int((one.tokens >= vocabulary).sum().item<int64_t>());
        }
        QVERIFY(copied > 0);  // some steps did copy a word the vocabulary lacks
    }

    // The pointer's beam steps: rows fed different tokens (extended ids included) must each get the
    // log of the distribution a teacher-forced pass gives that row's history.
    void pointerBeamStepsMatchTeacherForcing()
    {
        const int vocabulary = 40;
        Seq2SeqNet net(vocabulary, pointerConfig(16, 32, 2));
        {
            torch::NoGradGuard noGrad;
            for (auto &p : net->parameters())
                p.mul_(4.0);
        }
        net->eval();
        torch::InferenceMode inference;
        const std::vector<int64_t> ids{5, Vocabulary::kUnk, 7, Vocabulary::kUnk, 9, Vocabulary::kEos};
        const std::vector<int64_t> extended{5, 40, 7, 41, 9, Vocabulary::kEos};
        const std::vector<std::vector<int64_t>> targets{{Vocabulary::kSos, 40, 7, Vocabulary::kEos},
                                                        {Vocabulary::kSos, 9, 41, 5},
                                                        {Vocabulary::kSos, 41, 41, 12}};
        const auto source = row(ids), sourceExtended = row(extended);
        const auto lengths = torch::tensor({int64_t(ids.size())});
        std::vector<torch::Tensor> expected, expectedGates;  // per target: (steps, E), (steps)
        for (const auto &target : targets) {
            const TeacherForcedOutput out =
                net->forward(source, lengths, row(target), [] { return true; }, sourceExtended);
            expected.push_back(pointerDistribution(out.logits, out.weights, out.copyGate, sourceExtended).log()[0]);
            expectedGates.push_back(out.copyGate[0]);
        }
        InferenceNet &fast = *net->inference();
        fast.begin(std::vector<int>(ids.begin(), ids.end()), std::vector<int>(extended.begin(), extended.end()));
        for (std::size_t t = 0; t + 1 < targets.front().size(); ++t) {
            // Step 0 has the one row of <SOS>; later steps a row per target, each its own parent.
            std::vector<int> parents, tokens;
            for (std::size_t r = 0; r < (t == 0 ? 1 : targets.size()); ++r) {
                parents.push_back(t <= 1 ? 0 : int(r));
                tokens.push_back(int(targets[r][t]));
            }
            const BeamScores scores = fast.step(parents, tokens);
            const int64_t width = expected.front().size(1);
            QCOMPARE(int64_t(scores.logProbs.size()), int64_t(parents.size()) * width);
            for (std::size_t r = 0; r < parents.size(); ++r) {
                const auto got = torch::from_blob(const_cast<float *>(scores.logProbs.data()) + r * width, {width});
                const auto want = expected[r][int64_t(t)];
                const auto finite = torch::isfinite(want);
                QVERIFY(torch::equal(torch::isfinite(got), finite));  // impossible words stay impossible
                const double gap = (got.masked_select(finite) - want.masked_select(finite)).abs().max().item<double>();
                QVERIFY2(gap < 1e-3,
                         qPrintable(QString("log P differs by %1 at step %2, row %3").arg(gap).arg(t).arg(r)));
                QVERIFY(std::abs(scores.copyGate[r] - expectedGates[r][int64_t(t)].item<float>()) < 1e-5);
            }
        }
    }

    // A corpus's vocabulary: InferenceNet's copies grow with vocabulary x width, not vocabulary
    // squared (a table of the embedding's share of the logits would be 1 GB here), and it still
    // decodes what the op-by-op decoder decodes.
    void largeVocabularyStaysSmall()
    {
        const int vocabulary = 16000;
        Seq2SeqNet net(vocabulary, config(8, 8, 1, true));
        net->eval();
        torch::InferenceMode inference;
        const double before = residentMiB();
        QVERIFY(net->inference());
        const double grown = residentMiB() - before;
        QVERIFY2(grown < 100, qPrintable(QString("InferenceNet took %1 MiB").arg(grown)));
        for (const auto &ids : sentences(vocabulary, 6))
            compareWithOpByOp(net, ids, int(ids.size()) + 4, /*stopAtEos=*/false);
    }

    void followsChangedWeights()
    {
        Seq2SeqNet net(30, config(8, 16, 2, true));
        net->eval();
        const std::vector<int64_t> ids{5, 6, 7, 8, Vocabulary::kEos};
        torch::Tensor before;
        {
            torch::InferenceMode inference;
            before = net->greedy(row(ids), torch::tensor({int64_t(ids.size())}), 8, false).weights.clone();
        }
        {
            torch::NoGradGuard noGrad;
            net->decoder->attention->v->weight.mul_(-3.0);  // in place: same storage, new version
        }
        torch::InferenceMode inference;
        const torch::Tensor after = net->greedy(row(ids), torch::tensor({int64_t(ids.size())}), 8, false).weights;
        QVERIFY(!torch::allclose(before, after));
        compareWithOpByOp(net, ids, 8, false);
    }

    // A snapshot handed to the GUI is prepared on the training thread: its first decode must use
    // that InferenceNet, not build another, and a later weight change must still be followed.
    void preparedBeforeTheFirstDecode()
    {
        const Seq2SeqModel model(config(8, 16, 2, true), Vocabulary::build({}), 3);
        Seq2SeqNet &net = model.net();
        QVERIFY(!net->inferenceIsCurrent());
        model.prepareDecoding();
        QVERIFY(net->inferenceIsCurrent());
        const DecodedSentence prepared = model.decode({"a", "b"});
        QVERIFY(net->inferenceIsCurrent());
        {
            torch::NoGradGuard noGrad;
            net->decoder->attention->v->weight.mul_(-3.0);
        }
        QVERIFY(!net->inferenceIsCurrent());
        model.prepareDecoding();
        QVERIFY(net->inferenceIsCurrent());
        QVERIFY(model.decode({"a", "b"}).attention != prepared.attention);

        ModelConfig luong = config(8, 16, 1, true);
        luong.attention = AttentionKind::LuongDot;
        const Seq2SeqModel other(luong, Vocabulary::build({}), 3);
        other.prepareDecoding();  // nothing to build for a shape InferenceNet does not decode
        QVERIFY(!other.net()->inferenceIsCurrent());
    }

    // Location attention included: its steps read the previous weights, which InferenceNet does not keep.
    void otherAttentionIsNotSupported()
    {
        for (AttentionKind kind : {AttentionKind::LuongDot, AttentionKind::Location}) {
            ModelConfig c = config(8, 16, 1, true);
            c.attention = kind;
            Seq2SeqNet net(30, c);
            QVERIFY(!InferenceNet::supports(*net));
        }
    }
};

ATTNSCOPE_TEST(inferencenet, TestInferenceNet)
#include "tst_inferencenet.moc"
