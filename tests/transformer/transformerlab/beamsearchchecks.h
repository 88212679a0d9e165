#pragma once

#include "engine/core/tokenizer.h"
#include "engine/transformer/attentionrollout.h"
#include "ui/core/attentionheatmap.h"
#include "ui/core/beamview.h"
#include "ui/core/explanationtext.h"
#include "ui/core/heatmapexplainer.h"
#include "ui/transformer/headgrid.h"
#include "ui/transformer/transformerbeambox.h"
#include "ui/transformer/transformerresults.h"
#include "ui/transformer/transformerreversepanel.h"

#include <QtTest>

#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QTreeWidget>

// The Transformer panel's beam search on the sentence typed in `panel`, held to the engine's own
// beamDecodeWords() and decodeWords(): the n-best list, the steps, the winner shown first, another
// hypothesis shown with its own attention when chosen, and width 1 as greedy decoding was.
inline void checkBeamSearchOfThePanel(TransformerReversePanel *panel)
{
    const TransformerSnapshot &snapshot = *panel->snapshot();
    const std::vector<std::string> words = tokenize(panel->text().toStdString());
    TransformerBeamBox *box = panel->beamBox();
    BeamView *view = box->view();
    box->setOptions(BeamOptions{});  // greedy, whatever a test before left
    // The hypotheses are a tab under the grid while the beam is wider than 1, shown when it widens.
    auto *underGrid = panel->findChild<QTabWidget *>(QStringLiteral("transformerUnderGrid"));
    QCOMPARE(underGrid->indexOf(view), -1);
    // Alt+B and Alt+P reach the width and α from the keyboard.
    auto *width = box->findChild<QSpinBox *>(QStringLiteral("transformerBeamWidth"));
    auto *alpha = box->findChild<QDoubleSpinBox *>(QStringLiteral("transformerBeamAlpha"));
    auto *sentence = panel->findChild<QLineEdit *>(QStringLiteral("transformerSentence"));
    panel->window()->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(panel->window()));
    sentence->setFocus();
    QTest::keyClick(sentence, Qt::Key_B, Qt::AltModifier);
    QCOMPARE(QApplication::focusWidget(), width);
    QVERIFY(!alpha->isEnabled());  // no α for greedy decoding
    BeamOptions beam;
    beam.width = 4;
    beam.alpha = 0.8;
    box->setOptions(beam);
    QVERIFY(alpha->isEnabled());
    QTest::keyClick(width, Qt::Key_P, Qt::AltModifier);
    QCOMPARE(QApplication::focusWidget(), alpha);
    beam.nbest = 4;
    const TransformerBeamOutput expected = beamDecodeWords(*snapshot.inference, snapshot.vocabulary, words, beam);
    QCOMPARE(int(expected.nbest.size()), 4);
    QCOMPARE(underGrid->currentWidget(), view);
    QVERIFY(view->isVisible());
    QCOMPARE(panel->output().outputTokens, expected.nbest[0].output.outputTokens);
    QCOMPARE(panel->output().cross.weights, expected.nbest[0].output.cross.weights);
    auto *outputLabel = panel->findChild<QLabel *>(QStringLiteral("transformerOutput"));
    QVERIFY2(outputLabel->text().contains(QStringLiteral("best of 4 hypotheses")), qPrintable(outputLabel->text()));

    QTableWidget *nbest = view->nbestTable();
    QCOMPARE(nbest->rowCount(), 4);
    const QLocale locale;
    for (int row = 0; row < 4; ++row) {
        const ScoredTransformerOutput &h = expected.nbest[std::size_t(row)];
        QStringList output;
        for (const std::string &word : h.output.outputTokens)
            output << QString::fromStdString(word);
        QCOMPARE(nbest->item(row, 1)->text(), output.join(QLatin1Char(' ')));
        QCOMPARE(nbest->item(row, 2)->text(), locale.toString(h.logProb, 'f', 3));
        QCOMPARE(nbest->item(row, 3)->text(), locale.toString(h.score, 'f', 3));
    }
    // Every step kept the winner's first tokens, one longer each step.
    QCOMPARE(view->stepsTree()->topLevelItemCount(), int(expected.steps.size()));
    QCOMPARE(view->winnerPathLength(), int(expected.nbest[0].tokens.size()));

    // The third hypothesis chosen: its output, its heads, its weights explained and rolled out.
    panel->setKind(TransformerReversePanel::Kind::Cross);
    panel->headGrid()->select(1, 2);
    nbest->setFocus();
    QTest::keyClick(nbest, Qt::Key_Down);
    QTest::keyClick(nbest, Qt::Key_Down);
    QCOMPARE(view->selectedHypothesis(), 2);
    const TransformerOutput &third = expected.nbest[2].output;
    QCOMPARE(panel->output().outputTokens, third.outputTokens);
    QVERIFY(panel->output().outputTokens != expected.nbest[0].output.outputTokens);
    QVERIFY2(outputLabel->text().contains(QStringLiteral("hypothesis 3 of 4")), qPrintable(outputLabel->text()));
    AttentionHeatmap *heatmap = panel->heatmap();
    QCOMPARE(heatmap->rows(), int(third.outputTokens.size()));
    const int columns = int(third.sourceTokens.size());
    for (int i = 0; i < heatmap->rows(); ++i)
        for (int j = 0; j < columns; ++j)
            QCOMPARE(heatmap->weight(i, j), third.cross.weights[1][2][std::size_t(i * columns + j)]);
    heatmap->selectCell(1, 0);
    panel->explainer()->action()->trigger();
    const QString text = panel->explainer()->view()->toPlainText();
    QVERIFY2(text.contains(explanationtext::number(double(third.cross.weights[1][2][std::size_t(columns)]))),
             qPrintable(text));
    panel->explainer()->dialog()->close();
    panel->setRolledOut(true);
    const RolloutMatrix rollout = crossAttentionRollout(third.encoderSelf, third.decoderSelf, third.cross);
    QCOMPARE(heatmap->rows(), rollout.rows);
    QCOMPARE(heatmap->weight(rollout.rows - 1, 0), rollout.at(rollout.rows - 1, 0));
    heatmap->selectCell(rollout.rows - 1, 0);
    panel->explainer()->action()->trigger();
    const QString rolled = panel->explainer()->view()->toPlainText();
    QVERIFY2(rolled.contains(QStringLiteral("Attention rollout"))
                 && rolled.contains(locale.toString(double(rollout.at(rollout.rows - 1, 0)), 'f', 3)),
             qPrintable(rolled));
    panel->explainer()->dialog()->close();
    panel->setRolledOut(false);

    // Width 1: the greedy output, as before there was a beam.
    beam.width = 1;
    box->setOptions(beam);
    QCOMPARE(underGrid->indexOf(view), -1);
    QVERIFY(!view->isVisible());
    QVERIFY(box->hypotheses().empty());
    const TransformerOutput greedy = decodeWords(*snapshot.inference, snapshot.vocabulary, words);
    QCOMPARE(panel->output().outputTokens, greedy.outputTokens);
    QCOMPARE(panel->output().cross.weights, greedy.cross.weights);
    QCOMPARE(outputLabel->text(), QStringLiteral("<b>%1</b>").arg(panel->outputText().toHtmlEscaped()));
}
