#include "tests/common/testregistry.h"
#include "engine/attention/seq2seqmodel.h"
#include "ui/attention/inferencepanel.h"
#include "ui/core/attentionheatmap.h"
#include "ui/core/explanationtext.h"
#include "ui/core/heatmapexplainer.h"
#include "ui/selfattention/selfattentioncontrols.h"
#include "ui/selfattention/selfattentionpanel.h"

#include <QAction>
#include <QDialog>
#include <QLineEdit>
#include <QTextBrowser>
#include <QtTest>

#include <memory>

namespace {

QPoint cellCentre(const AttentionHeatmap &heatmap, int row, int column)
{
    return {qRound(heatmap.xAxis->coordToPixel(column)), qRound(heatmap.yAxis->coordToPixel(row))};
}

QString shown(const HeatmapExplainer *explainer)
{
    return explainer->view()->toPlainText();
}

}

// "Explain this weight" in the attention lab's inference panel and the self-attention explorer:
// what opens it, that a plain click only selects, that the window follows the selection, and that
// it shows the heatmap's own number.
class TestHeatmapExplainer : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void clickSelectsDoubleClickExplains();
    void shortcutOpensAndTheWindowFollowsTheSelection();
    void newSentenceAsksForACell();
    void luongVariantsShowTheirOwnScore_data();
    void luongVariantsShowTheirOwnScore();
    void selfAttentionExplainsOnlyRevealedWeights();

private:
    ModelSnapshot m_model;
};

void TestHeatmapExplainer::initTestCase()
{
    m_model = std::make_shared<const Seq2SeqModel>(
        Seq2SeqModel::load(ATTNSCOPE_SOURCE_DIR "/resources/models/default.ckpt"));
}

void TestHeatmapExplainer::clickSelectsDoubleClickExplains()
{
    InferencePanel panel;
    panel.resize(900, 700);
    panel.setModel(m_model, QStringLiteral("bundled"));
    panel.setText(QStringLiteral("the cat sat on the mat"));
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    AttentionHeatmap *heatmap = panel.heatmap();
    QVERIFY(heatmap->rows() > 3);
    heatmap->replot();

    QTest::mouseClick(heatmap, Qt::LeftButton, {}, cellCentre(*heatmap, 2, 3));
    QCOMPARE(heatmap->selectedRow(), 2);
    QVERIFY(!panel.explainer()->dialog()->isVisible());

    QTest::mouseDClick(heatmap, Qt::LeftButton, {}, cellCentre(*heatmap, 1, 4));
    QCOMPARE(heatmap->selectedRow(), 1);
    QCOMPARE(heatmap->selectedColumn(), 4);
    QVERIFY(panel.explainer()->dialog()->isVisible());
    const QString text = shown(panel.explainer());
    QVERIFY2(text.contains(explanationtext::number(double(heatmap->weight(1, 4)))), qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("tanh")));
    QVERIFY(text.contains(QStringLiteral("“%1”").arg(QString::fromStdString(panel.sentence().outputTokens[1]))));
}

void TestHeatmapExplainer::shortcutOpensAndTheWindowFollowsTheSelection()
{
    InferencePanel panel;
    panel.setModel(m_model, QStringLiteral("bundled"));
    panel.setText(QStringLiteral("a cat and a dog"));
    panel.show();
    panel.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&panel));
    panel.inputField()->setFocus();
    AttentionHeatmap *heatmap = panel.heatmap();
    heatmap->selectCell(0, 4);
    QVERIFY(!panel.explainer()->dialog()->isVisible());

    QTest::keyClick(panel.inputField(), Qt::Key_F1, Qt::ShiftModifier);
    QVERIFY(panel.explainer()->dialog()->isVisible());
    QVERIFY(shown(panel.explainer()).contains(explanationtext::number(double(heatmap->weight(0, 4)))));

    for (int row = 0; row < heatmap->rows(); ++row) {
        heatmap->selectCell(row, row % heatmap->columns());
        const QString text = shown(panel.explainer());
        QVERIFY2(text.contains(explanationtext::number(double(heatmap->weight(row, row % heatmap->columns())))),
                 qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("step t = %1").arg(row + 1)));
    }
}

void TestHeatmapExplainer::newSentenceAsksForACell()
{
    InferencePanel panel;
    panel.setModel(m_model, QStringLiteral("bundled"));
    panel.setText(QStringLiteral("the cat sat"));
    panel.heatmap()->selectCell(1, 1);
    panel.explainer()->action()->trigger();
    QVERIFY(shown(panel.explainer()).contains(QStringLiteral("softmax")));
    panel.setText(QStringLiteral("a dog ran away"));
    QVERIFY(shown(panel.explainer()).contains(QStringLiteral("Select a cell")));
    QVERIFY(!shown(panel.explainer()).contains(QStringLiteral("softmax")));
}

void TestHeatmapExplainer::luongVariantsShowTheirOwnScore_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("score");
    QTest::newRow("luong-dot") << int(AttentionKind::LuongDot) << QStringLiteral("st · hj");
    QTest::newRow("luong-general") << int(AttentionKind::LuongGeneral) << QStringLiteral("st · (Wa·hj)");
    QTest::newRow("scaled-dot") << int(AttentionKind::ScaledDot) << QStringLiteral("st · (hj / √H)");
}

void TestHeatmapExplainer::luongVariantsShowTheirOwnScore()
{
    QFETCH(int, kind);
    QFETCH(QString, score);
    ModelConfig config;
    config.embedSize = 8;
    config.hiddenSize = 16;
    config.layers = 1;
    config.attention = AttentionKind(kind);
    InferencePanel panel;
    panel.setModel(std::make_shared<const Seq2SeqModel>(config, Vocabulary({"red", "cat", "dog"}), 3),
                   QStringLiteral("untrained"));
    panel.setText(QStringLiteral("red cat dog"));
    const int row = panel.heatmap()->rows() - 1;
    QVERIFY(row >= 0);
    panel.heatmap()->selectCell(row, 1);
    panel.explainer()->action()->trigger();
    const QString text = shown(panel.explainer());
    QVERIFY2(text.contains(QString::fromLatin1(attentionName(AttentionKind(kind)))), qPrintable(text));
    QVERIFY2(text.contains(score), qPrintable(text));
    QVERIFY(!text.contains(QStringLiteral("tanh(Ws")));
    QVERIFY(text.contains(explanationtext::number(double(panel.heatmap()->weight(row, 1)))));
}

void TestHeatmapExplainer::selfAttentionExplainsOnlyRevealedWeights()
{
    SelfAttentionPanel panel;
    panel.controls()->setSentence(QStringLiteral("I love AI"));
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    AttentionHeatmap *heatmap = panel.heatmap();
    heatmap->selectCell(1, 2);
    panel.explainer()->action()->trigger();
    QVERIFY(panel.explainer()->dialog()->isVisible());
    QVERIFY(shown(panel.explainer()).contains(QStringLiteral("Select a cell")));  // hidden until revealed

    panel.revealWithoutPrediction();
    heatmap->selectCell(1, 2);
    const QString text = shown(panel.explainer());
    QVERIFY2(text.contains(explanationtext::number(panel.result().weights.at(1, 2))), qPrintable(text));
    QVERIFY(text.contains(explanationtext::number(panel.result().scores.at(1, 2))));
    QVERIFY(text.contains(QStringLiteral("√3")));

    panel.controls()->setSentence(QStringLiteral("I love AI a lot"));  // hidden again until revealed
    QVERIFY(shown(panel.explainer()).contains(QStringLiteral("Select a cell")));
}

ATTNSCOPE_TEST(heatmapexplainer, TestHeatmapExplainer)
#include "tst_heatmapexplainer.moc"
