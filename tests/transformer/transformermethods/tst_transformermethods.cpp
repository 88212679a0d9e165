#include "tests/common/testregistry.h"
#include "tests/common/tinytransformer.h"
#include "tests/common/workbenchfixture.h"
#include "engine/transformer/transformerattribution.h"
#include "ui/core/attentionheatmap.h"
#include "ui/core/attributionstripsplot.h"
#include "ui/core/beamview.h"
#include "ui/core/contrastbox.h"
#include "ui/core/heatmapexplainer.h"
#include "ui/core/methodcolors.h"
#include "ui/core/rowagreementtext.h"
#include "ui/core/stepscorestable.h"
#include "ui/transformer/headgrid.h"
#include "ui/transformer/transformerbeambox.h"
#include "ui/transformer/transformercontrast.h"
#include "ui/transformer/transformerlab.h"
#include "ui/transformer/transformermethodview.h"
#include "ui/transformer/transformerresults.h"
#include "ui/transformer/transformerreversepanel.h"

#include <QtTest>

#include <QAction>
#include <QComboBox>
#include <QPushButton>
#include <QFile>
#include <QLabel>
#include <QTemporaryDir>

#include <cmath>
#include <optional>

namespace {

// The weights are the same, but the view's thread computes on one core: sums may round differently.
bool shownCloseTo(double shown, double expected)
{
    return std::abs(shown - expected) <= 1e-4 * std::max(1.0, std::abs(expected));
}

// Every method the Transformer is explained with, rollout included, on every row.
AttributionOptions everyTransformerMethod()
{
    AttributionOptions options;
    options.methods = transformerAttributionMethods();
    return options;
}

}  // namespace

// The Transformer lab's "Explain by": each attribution method's map in place of the head, the step
// scores under it and every method's row for the clicked output word, all equal to what
// attributeTransformer gives for the same sentence and weights; their exports and the choice kept
// in the settings.
class TestTransformerMethods : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void methodMapReplacesTheHead();
    void stepScoresAndSmallMultiplesMatchTheEngine();
    void beamHypothesisIsNotExplained();
    void exportsTheStepScoresAndTheRow();
    void contrastBoxShowsTheEnginesContrast();
    void choiceIsKept();

private:
    // Untrained weights of a small model, shown with `sentence`; waits for the explanation.
    bool explain(const QString &sentence);
    bool waitForExplanation();

    QTemporaryDir m_dir;
    MainWindow *m_window = nullptr;
    TransformerLab *m_lab = nullptr;
    std::optional<TransformerModel> m_model;
    const std::vector<std::string> m_words{"the", "red", "cat", "sat"};
};

void TestTransformerMethods::initTestCase()
{
    useTestSettings(QStringLiteral("tst_transformermethods"));
    QVERIFY(m_dir.isValid());
    m_model.emplace(tinyTransformer(2, 4, 16, 24), Vocabulary({"the", "cat", "sat", "on", "mat", "red"}),
                    Task::Reverse, 3);
}

void TestTransformerMethods::init()
{
    m_window = shownWorkbench(QStringLiteral("transformer"));
    m_lab = m_window->lab<TransformerLab>();
    QVERIFY(m_lab);
}

void TestTransformerMethods::cleanup()
{
    delete m_window;
    m_window = nullptr;
}

bool TestTransformerMethods::waitForExplanation()
{
    TransformerMethodView *view = m_lab->reversePanel()->methodView();
    return QTest::qWaitFor([view] { return view->hasAttribution() && !view->computing(); }, 20000);
}

bool TestTransformerMethods::explain(const QString &sentence)
{
    m_lab->reversePanel()->setSnapshot(transformerSnapshotOf(*m_model, 4));
    m_lab->reversePanel()->setText(sentence);
    return waitForExplanation();
}

void TestTransformerMethods::methodMapReplacesTheHead()
{
    QVERIFY(explain(QStringLiteral("the red cat sat")));
    TransformerReversePanel *panel = m_lab->reversePanel();
    TransformerMethodView *view = panel->methodView();
    AttentionHeatmap *heatmap = panel->heatmap();
    QVERIFY(!view->showsMethod());
    QCOMPARE(heatmap->columns(), 5);  // the head: the four words and <EOS>
    const TransformerAttribution expected = attributeTransformer(*m_model, m_words, everyTransformerMethod());
    QCOMPARE(panel->output().outputTokens, expected.outputTokens);

    auto *colors = qobject_cast<QCPColorMap *>(heatmap->plottable(0));
    QVERIFY(colors);
    for (const AttributionMethod method : {AttributionMethod::Rollout, AttributionMethod::Saliency,
                                           AttributionMethod::InputTimesGradient,
                                           AttributionMethod::IntegratedGradients, AttributionMethod::Occlusion}) {
        view->setMethod(method);
        QVERIFY(waitForExplanation());
        const AttributionMap *map = expected.map(method);
        QVERIFY(map);
        QCOMPARE(heatmap->rows(), map->rows);
        QCOMPARE(heatmap->columns(), 4);  // a method explains no <EOS> column
        for (int row = 0; row < map->rows; ++row)
            for (int column = 0; column < map->columns; ++column)
                QVERIFY2(shownCloseTo(heatmap->weight(row, column), map->at(row, column)),
                         qPrintable(QStringLiteral("%1 at %2, %3").arg(attributionMethodName(method)).arg(row).arg(column)));
        const QCPRange range = colors->dataRange();
        if (isSignedMethod(method))
            QCOMPARE(range.lower, -range.upper);
        else
            QCOMPARE(range.lower, 0.0);
        QVERIFY(!view->caption()->text().isEmpty());
        QVERIFY(!panel->explainer()->action()->isEnabled());  // a method's score is no head's weight
        heatmap->selectCell(1, 2);
        QVERIFY2(panel->cellText().contains(QStringLiteral("<b>cat</b>")), qPrintable(panel->cellText()));
    }
    // The self-attentions have no method maps: the selector waits for the cross-attention.
    panel->setKind(TransformerReversePanel::Kind::EncoderSelf);
    QCOMPARE(heatmap->columns(), 5);
    QVERIFY(!view->selector()->isEnabled());
    panel->setKind(TransformerReversePanel::Kind::Cross);
    QVERIFY(view->selector()->isEnabled());
    QCOMPARE(heatmap->columns(), 4);

    // Back to the head's weights, on attention's colour scale.
    view->setMethod(std::nullopt);
    panel->headGrid()->select(1, 2);
    QCOMPARE(heatmap->columns(), 5);
    QCOMPARE(heatmap->weight(1, 3), panel->output().cross.weights[1][2][1 * 5 + 3]);
    QCOMPARE(colors->dataRange(), QCPRange(0, 1));
    QVERIFY(panel->explainer()->action()->isEnabled());
}

void TestTransformerMethods::stepScoresAndSmallMultiplesMatchTheEngine()
{
    QVERIFY(explain(QStringLiteral("the red cat sat")));
    TransformerReversePanel *panel = m_lab->reversePanel();
    TransformerMethodView *view = panel->methodView();
    const TransformerAttribution expected = attributeTransformer(*m_model, m_words, everyTransformerMethod());

    StepScoresTable *steps = view->stepScores();
    QCOMPARE(steps->columnCount(), int(expected.outputTokens.size()));
    const QLocale locale;
    for (int step = 0; step < steps->columnCount(); ++step) {
        const StepScore &score = expected.steps[std::size_t(step)];
        QCOMPARE(steps->horizontalHeaderItem(step)->text(), QString::fromStdString(expected.outputTokens[std::size_t(step)]));
        QCOMPARE(steps->item(0, step)->text(), locale.toString(score.logProb, 'f', 2));
        QCOMPARE(steps->item(1, step)->text(), locale.toString(score.entropy, 'f', 2));
        QCOMPARE(steps->item(2, step)->text(), locale.toString(score.margin, 'f', 2));
        QCOMPARE(steps->item(3, step)->text(), QString::fromStdString(score.runnerUp));
    }

    // No row clicked: no gradients computed, the small multiples say what to do.
    AttributionStripsPlot *strips = view->smallMultiples();
    QCOMPARE(strips->methodCount(), 0);
    QCOMPARE(view->attribution().map(AttributionMethod::IntegratedGradients), nullptr);

    // A click on output word 2: every method's row for it, the gradients for that row alone.
    panel->heatmap()->selectCell(1, 0);
    QCOMPARE(view->selectedRow(), 1);
    QVERIFY(QTest::qWaitFor([strips] { return strips->methodCount() > 0; }, 20000));
    QCOMPARE(view->attribution().gradientRow, 1);
    QCOMPARE(strips->methodCount(), int(transformerAttributionMethods().size()));
    QCOMPARE(strips->words().size(), 4);
    for (const MethodScores &shown : strips->methods()) {
        const std::vector<double> row = expected.map(shown.method)->row(1);
        QCOMPARE(shown.scores.size(), row.size());
        for (std::size_t i = 0; i < row.size(); ++i)
            QVERIFY2(shownCloseTo(shown.scores[i], row[i]), attributionMethodName(shown.method));
    }
    // Over the strips, how far the methods agree on that word, as the RNN's views say it.
    const RowAgreementText agreement = rowAgreementText(expected, 1);
    QCOMPARE(view->agreementLine()->text(), agreement.line);
    QVERIFY2(agreement.line.contains(QStringLiteral("mean ρ over the")), qPrintable(agreement.line));
    for (std::size_t m = 0; m < strips->methods().size(); ++m)
        QCOMPARE(strips->methods()[m].note, agreement.notes[int(m)]);
    QCOMPARE(steps->selectedItems().value(0)->column(), 1);

    // Clicking a step in the scores selects its row in the heatmap, and the small multiples follow.
    emit steps->stepClicked(2);
    QCOMPARE(panel->heatmap()->selectedRow(), 2);
    QVERIFY(QTest::qWaitFor([view] { return view->attribution().gradientRow == 2; }, 20000));
    QVERIFY(shownCloseTo(strips->methods().back().scores[0], expected.map(strips->methods().back().method)->at(2, 0)));
}

void TestTransformerMethods::beamHypothesisIsNotExplained()
{
    QVERIFY(explain(QStringLiteral("the red cat sat")));
    TransformerReversePanel *panel = m_lab->reversePanel();
    TransformerMethodView *view = panel->methodView();
    view->setMethod(AttributionMethod::Occlusion);
    QVERIFY(waitForExplanation());
    panel->beamBox()->setOptions(BeamOptions{3, 0.0, 3});
    QVERIFY(waitForExplanation());
    const std::vector<ScoredTransformerOutput> &found = panel->beamBox()->hypotheses();
    int other = -1;  // a hypothesis that is not the greedy output
    for (std::size_t i = 0; i < found.size(); ++i)
        if (found[i].output.outputTokens != view->attribution().outputTokens)
            other = int(i);
    QVERIFY(other >= 0);
    panel->beamBox()->view()->selectHypothesis(other);
    QCOMPARE(panel->heatmap()->rows(), 0);  // a message, not a map of another output
    QVERIFY(view->stepScores()->toolTip().contains(QStringLiteral("greedy")));
    QVERIFY(view->caption()->text().contains(QStringLiteral("greedy")));  // said under the heatmap
    view->setMethod(std::nullopt);  // the heads are this output's own; the note stays for the step scores
    QVERIFY(panel->heatmap()->rows() > 0);
    QVERIFY(view->caption()->text().contains(QStringLiteral("greedy")));
}

void TestTransformerMethods::exportsTheStepScoresAndTheRow()
{
    QVERIFY(explain(QStringLiteral("the red cat sat")));
    TransformerReversePanel *panel = m_lab->reversePanel();
    TransformerMethodView *view = panel->methodView();
    QAction *stepsCsv = nullptr;
    QAction *rowCsv = nullptr;
    for (QAction *action : m_lab->exportActions()) {
        if (action->objectName() == QLatin1String("exportTransformerStepScoresCsv"))
            stepsCsv = action;
        if (action->objectName() == QLatin1String("exportTransformerMethodsRowCsv"))
            rowCsv = action;
    }
    QVERIFY(stepsCsv && rowCsv);
    QVERIFY(stepsCsv->isEnabled());
    QVERIFY(!rowCsv->isEnabled());
    panel->heatmap()->selectCell(0, 0);
    QVERIFY(QTest::qWaitFor([rowCsv] { return rowCsv->isEnabled(); }, 20000));

    QString error;
    const QString steps = m_dir.filePath(QStringLiteral("steps.csv"));
    QVERIFY2(view->stepScores()->exportCsv(steps, &error), qPrintable(error));
    QFile stepsFile(steps);
    QVERIFY(stepsFile.open(QIODevice::ReadOnly));
    QCOMPARE(stepsFile.readAll().trimmed().split('\n').size(), 1 + view->stepScores()->columnCount());
    const QString row = m_dir.filePath(QStringLiteral("row.csv"));
    QVERIFY2(view->smallMultiples()->exportCsv(row, &error), qPrintable(error));
    QFile rowFile(row);
    QVERIFY(rowFile.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = rowFile.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 1 + 4);  // a header, then a line per word
    QCOMPARE(lines[0], QByteArray("word,attention,saliency,inputxgrad,ig,occlusion,rollout"));
    const QString image = m_dir.filePath(QStringLiteral("row.png"));
    QVERIFY2(view->smallMultiples()->exportImage(image, 600, 300, &error), qPrintable(error));
    QVERIFY(!QImage(image).isNull());
}

// A clicked output word and another word: each method's row of log P(y_t) - log P(y') is what
// attributeTransformerContrast gives for the lab's explanation; a word the model cannot write gets
// the engine's reason; the contrast is exported.
void TestTransformerMethods::contrastBoxShowsTheEnginesContrast()
{
    QVERIFY(explain(QStringLiteral("the red cat sat")));
    TransformerReversePanel *panel = m_lab->reversePanel();
    TransformerMethodView *view = panel->methodView();
    TransformerContrast *contrast = panel->contrast();
    ContrastBox *box = contrast->box();
    QVERIFY(!box->compareButton()->isEnabled());  // no output word clicked yet
    panel->heatmap()->selectCell(1, 0);
    QVERIFY(box->compareButton()->isEnabled());
    const std::string output = view->attribution().outputTokens[1];
    QCOMPARE(box->alternativeChoice()->itemText(0), QString::fromStdString(view->attribution().steps[1].runnerUp));
    QVERIFY(box->alternativeChoice()->findText(QString::fromStdString(output)) < 0);  // the output is no alternative
    QVERIFY(box->alternativeChoice()->findText(QStringLiteral("<PAD>")) < 0);
    const std::string alternative = output == "mat" ? "on" : "mat";

    QVERIFY(view->computing());  // the clicked word's gradients
    box->alternativeChoice()->setEditText(QString::fromStdString(alternative));
    box->compare();
    QVERIFY(contrast->waiting());  // after them, not instead of them
    QVERIFY(QTest::qWaitFor([contrast] { return contrast->hasContrast(); }, 20000));
    QVERIFY(!contrast->waiting());
    QCOMPARE(view->attribution().gradientRow, 1);
    const ContrastiveAttribution expected =
        attributeTransformerContrast(*m_model, attributeTransformer(*m_model, m_words, everyTransformerMethod()), 1,
                                     alternative);
    QCOMPARE(contrast->contrast().row, 1);
    QCOMPARE(contrast->contrast().alternative, alternative);
    AttributionStripsPlot *plot = box->plot();
    QCOMPARE(plot->methodCount(), int(expected.maps.size()));
    for (std::size_t m = 0; m < expected.maps.size(); ++m) {
        const MethodScores &shown = plot->methods()[m];
        QCOMPARE(shown.method, expected.maps[m].method);
        for (int i = 0; i < expected.maps[m].columns; ++i)
            QVERIFY2(shownCloseTo(shown.scores[std::size_t(i)], expected.maps[m].at(0, i)), attributionMethodName(shown.method));
    }
    const QString difference = QLocale().toString(expected.logProbDifference, 'f', 2);
    QVERIFY2(box->status().contains(QStringLiteral("<b>%1</b> nats").arg(difference)), qPrintable(box->status()));
    QVERIFY2(box->status().contains(QStringLiteral("<b>%1</b>").arg(QString::fromStdString(alternative))),
             qPrintable(box->status()));

    QAction *csv = nullptr;
    for (QAction *action : m_lab->exportActions())
        if (action->objectName() == QLatin1String("exportTransformerContrastCsv"))
            csv = action;
    QVERIFY(csv && csv->isEnabled());
    QString error;
    const QString path = m_dir.filePath(QStringLiteral("contrast.csv"));
    QVERIFY2(plot->exportCsv(path, &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll().trimmed().split('\n').size(), 1 + 4);  // a header, then a line per word

    // A word the model cannot write is refused, with the engine's reason; nothing stale is shown.
    box->alternativeChoice()->setEditText(QStringLiteral("zebra"));
    box->compare();
    QVERIFY(QTest::qWaitFor([box] { return box->status().startsWith(QStringLiteral("Cannot compare")); }, 20000));
    QVERIFY2(box->status().contains(QStringLiteral("vocabulary")), qPrintable(box->status()));
    QVERIFY(box->plot()->isHidden());
    // Another output word: the contrast shown no longer holds.
    panel->heatmap()->selectCell(2, 0);
    QVERIFY(!contrast->hasContrast());
    QVERIFY(!csv->isEnabled());
}

void TestTransformerMethods::choiceIsKept()
{
    m_lab->reversePanel()->methodView()->setMethod(AttributionMethod::IntegratedGradients);
    m_window->close();  // saves the settings
    MainWindow *other = new MainWindow;
    addRegisteredLabs(other);
    TransformerMethodView *view = other->lab<TransformerLab>()->reversePanel()->methodView();
    QVERIFY(view->showsMethod());
    QCOMPARE(view->method(), AttributionMethod::IntegratedGradients);
    QCOMPARE(view->methodName(), QStringLiteral("ig"));
    view->setMethodName(QStringLiteral("no such method"));  // a damaged setting changes nothing
    QCOMPARE(view->method(), AttributionMethod::IntegratedGradients);
    view->setMethodName(QStringLiteral("heads"));
    QVERIFY(!view->showsMethod());
    delete other;
}

ATTNSCOPE_TEST(transformermethods, TestTransformerMethods)
#include "tst_transformermethods.moc"
