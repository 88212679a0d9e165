#include "tests/common/testregistry.h"
#include "tests/common/workbenchfixture.h"
#include "ui/attention/attentionlab.h"
#include "ui/core/attributionstripsplot.h"
#include "ui/attention/attributionsource.h"
#include "ui/core/contrastbox.h"
#include "ui/core/erasurecurvesplot.h"
#include "ui/core/faithfulnesspage.h"
#include "ui/attention/inferencepanel.h"
#include "ui/attention/methodheatmap.h"
#include "ui/attention/rowattributionview.h"
#include "ui/core/stepscorestable.h"
#include "ui/core/attentionheatmap.h"
#include "ui/workbench/mainwindow.h"

#include <QComboBox>
#include <QFile>
#include <QPushButton>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

namespace {

QStringList csvLines(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

// Two methods measured over three epochs' worth of numbers: agreement 0.5 between them, attention's
// top word right 3 times in 4.
FaithfulnessReport madeUpReport(double attentionComprehensiveness)
{
    FaithfulnessReport report;
    report.sentences = 4;
    report.steps = 20;
    report.methods = {AttributionMethod::Attention, AttributionMethod::Saliency};
    report.agreement = {1, 0.5, 0.5, 1};
    report.topAnswerAgreement = {0.75, 0.5};
    report.answeredSteps = 16;
    const std::size_t k = erasureFractions().size();
    report.curves = {{"attention", std::vector<double>(k, attentionComprehensiveness), std::vector<double>(k, 0.1)},
                     {"saliency", std::vector<double>(k, 0.3), std::vector<double>(k, 0.2)},
                     {"random", std::vector<double>(k, 0.1), std::vector<double>(k, 0.4)}};
    return report;
}

}

// The attribution views of the attention lab, in their window without a worker: the method
// switch of the heatmap, the step scores, the methods of the clicked output word, the contrastive
// box, the Faithfulness page and their exports. The typed sentence is explained by the engine on
// the views' own thread, as in the application.
class TestAttributionViews : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void selectorShowsTheChosenMethodsMap();
    void smallMultiplesShowTheClickedRow();
    void contrastBoxExplainsAgainstTheChosenWord();
    void onlyTheMethodsShownAreComputed();
    void faithfulnessPageFillsFromAReport();
    void exportsWriteARowPerItem();
    void stripWordsTurnWhenTheyWouldOverlap();

private:
    // The quick model on `text`, explained as the views on screen ask.
    bool explain(const QString &text);

    ModelSnapshot m_model;
    MainWindow *m_window = nullptr;
    AttentionLab *m_lab = nullptr;
};

void TestAttributionViews::initTestCase()
{
    useTestSettings(QStringLiteral("tst_attributionviews"));
    m_model = learntQuickModel();
    QVERIFY2(m_model, "the tiny model should learn to reverse six words");
}

void TestAttributionViews::init()
{
    m_window = shownWorkbench();
    m_lab = m_window->lab<AttentionLab>();
    QVERIFY(QTest::qWaitForWindowExposed(m_window));
}

void TestAttributionViews::cleanup()
{
    delete m_window;
    m_window = nullptr;
}

bool TestAttributionViews::explain(const QString &text)
{
    m_lab->inferencePanel()->setModel(m_model, QStringLiteral("tiny test model"));
    m_lab->inferencePanel()->setText(text);
    AttributionSource *source = m_lab->attributionSource();
    return QTest::qWaitFor([source] { return source->hasAttribution() && !source->computing(); }, 20000);
}

void TestAttributionViews::selectorShowsTheChosenMethodsMap()
{
    QVERIFY(explain(QStringLiteral("red cat dog fish")));
    InferencePanel *panel = m_lab->inferencePanel();
    AttentionHeatmap *heatmap = panel->heatmap();
    const SentenceAttribution &attribution = m_lab->attributionSource()->attribution();
    QCOMPARE(panel->outputText(), QStringLiteral("fish dog cat red"));
    QCOMPARE(heatmap->columns(), 5);  // attention: the four words and <EOS>

    auto *colors = qobject_cast<QCPColorMap *>(heatmap->plottable(0));
    QVERIFY(colors);
    for (const AttributionMethod method : {AttributionMethod::Saliency, AttributionMethod::IntegratedGradients,
                                           AttributionMethod::Occlusion}) {
        m_lab->methodHeatmap()->setMethod(method);
        AttributionSource *source = m_lab->attributionSource();
        QVERIFY(QTest::qWaitFor([source] { return !source->computing(); }, 20000));
        const AttributionMap *map = attribution.map(method);
        QVERIFY(map);
        QCOMPARE(heatmap->rows(), map->rows);
        QCOMPARE(heatmap->columns(), 4);  // the words: a method explains no <EOS> column
        for (int row = 0; row < map->rows; ++row)
            for (int column = 0; column < map->columns; ++column)
                QCOMPARE(heatmap->weight(row, column), float(map->at(row, column)));
        // Saliency is never negative; the signed methods are centred on 0.
        const QCPRange range = colors->dataRange();
        if (isSignedMethod(method))
            QCOMPARE(range.lower, -range.upper);
        else
            QCOMPARE(range.lower, 0.0);
    }
    m_lab->methodHeatmap()->setMethod(AttributionMethod::Attention);
    QCOMPARE(heatmap->columns(), 5);
    QCOMPARE(heatmap->weight(1, 2), panel->sentence().weight(1, 2));
    QCOMPARE(colors->dataRange(), QCPRange(0, 1));

    // The step scores under the heatmap, one column per output step.
    StepScoresTable *steps = m_lab->stepScores();
    QCOMPARE(steps->columnCount(), attribution.sentence.rows());
    QCOMPARE(steps->horizontalHeaderItem(0)->text(), QStringLiteral("fish"));
    QCOMPARE(steps->item(3, 0)->text(), QString::fromStdString(attribution.steps[0].runnerUp));
}

void TestAttributionViews::smallMultiplesShowTheClickedRow()
{
    QVERIFY(explain(QStringLiteral("red cat dog fish")));
    RowAttributionView *view = m_lab->rowAttributionView();
    AttributionSource *source = m_lab->attributionSource();
    const auto settled = [source] { return QTest::qWaitFor([source] { return !source->computing(); }, 20000); };
    QVERIFY(!view->hasRow());
    QVERIFY(!source->attribution().map(AttributionMethod::Saliency));  // no row clicked: no gradients yet
    m_lab->inferencePanel()->heatmap()->selectCell(2, 1);
    QCOMPARE(source->selectedRow(), 2);
    QVERIFY(source->computing());  // the gradient methods, for the clicked row alone
    QVERIFY(!view->hasRow());
    QVERIFY(settled());
    QCOMPARE(source->attribution().gradientRow, 2);
    const SentenceAttribution &attribution = source->attribution();
    AttributionStripsPlot *plot = view->plot();
    QCOMPARE(plot->methodCount(), int(attribution.maps.size()));
    QCOMPARE(plot->words(), (QStringList{"red", "cat", "dog", "fish"}));
    const std::vector<int> top = plot->topWords();
    for (std::size_t m = 0; m < attribution.maps.size(); ++m) {
        QCOMPARE(plot->methods()[m].method, attribution.maps[m].method);
        const std::vector<double> row = attribution.maps[m].row(2);
        QCOMPARE(plot->methods()[m].scores, row);
        // The outlined word is the one with the largest |score|, whatever the sign.
        for (const double score : row)
            QVERIFY(std::abs(score) <= std::abs(row[std::size_t(top[m])]));
        const QString readout = plot->cellReadout(int(m), top[m]);
        QVERIFY2(readout.contains(QString::fromUtf8(attributionMethodTitle(attribution.maps[m].method))),
                 qPrintable(readout));
        QVERIFY2(readout.contains(plot->words()[top[m]]), qPrintable(readout));
    }
    QVERIFY(plot->cellReadout(int(attribution.maps.size()), 0).isEmpty());
    QVERIFY2(view->agreementText().contains(QStringLiteral("<b>cat</b>")), qPrintable(view->agreementText()));
    QCOMPARE(m_lab->stepScores()->selectedItems().first()->column(), 2);

    // Another row, clicked on the step scores, is explained in turn.
    m_lab->stepScores()->cellClicked(0, 0);
    QCOMPARE(source->selectedRow(), 0);
    QVERIFY(settled());
    QCOMPARE(attribution.gradientRow, 0);
    QVERIFY(view->hasRow());
    for (std::size_t m = 0; m < attribution.maps.size(); ++m)
        QCOMPARE(plot->methods()[m].scores, attribution.maps[m].row(0));

    // A gradient method on the heatmap needs every row; clicking rows then computes nothing.
    m_lab->methodHeatmap()->setMethod(AttributionMethod::IntegratedGradients);
    QVERIFY(settled());
    QCOMPARE(attribution.gradientRow, -1);
    m_lab->stepScores()->cellClicked(0, 3);
    QCOMPARE(source->selectedRow(), 3);
    QVERIFY(!source->computing());
    QCOMPARE(plot->methods().back().scores, attribution.maps.back().row(3));
}

// With the Methods dock away only attention and the heatmap's method are computed; showing the
// dock brings every method for the clicked row.
void TestAttributionViews::onlyTheMethodsShownAreComputed()
{
    auto *dock = m_window->findChild<QDockWidget *>(QStringLiteral("attributionDock"));
    QVERIFY(dock);
    dock->hide();
    QVERIFY(explain(QStringLiteral("red cat dog fish")));
    AttributionSource *source = m_lab->attributionSource();
    const auto computed = [source] {
        std::vector<AttributionMethod> methods;
        for (const AttributionMap &map : source->attribution().maps)
            methods.push_back(map.method);
        return methods;
    };
    const auto settled = [source] { return QTest::qWaitFor([source] { return !source->computing(); }, 20000); };
    QCOMPARE(computed(), std::vector<AttributionMethod>{AttributionMethod::Attention});
    QCOMPARE(m_lab->stepScores()->columnCount(), source->attribution().sentence.rows());

    m_lab->methodHeatmap()->setMethod(AttributionMethod::Occlusion);
    QVERIFY(settled());
    QCOMPARE(computed(), (std::vector<AttributionMethod>{AttributionMethod::Attention, AttributionMethod::Occlusion}));
    QCOMPARE(m_lab->inferencePanel()->heatmap()->columns(), 4);  // occlusion's map is on the heatmap

    dock->show();
    QVERIFY(settled());
    // No output word clicked: the dock has no row to compare the methods on yet.
    QCOMPARE(computed(), (std::vector<AttributionMethod>{AttributionMethod::Attention, AttributionMethod::Occlusion}));
    m_lab->inferencePanel()->heatmap()->selectCell(1, 0);
    QVERIFY(settled());
    QCOMPARE(computed(), allAttributionMethods());
    QCOMPARE(source->attribution().gradientRow, 1);
    m_lab->methodHeatmap()->setMethod(AttributionMethod::Attention);
    QVERIFY(!source->computing());  // nothing new needed
}

void TestAttributionViews::contrastBoxExplainsAgainstTheChosenWord()
{
    QVERIFY(explain(QStringLiteral("red cat dog fish")));
    ContrastBox *box = m_lab->rowAttributionView()->contrastBox();
    QVERIFY(!box->compareButton()->isEnabled());
    m_lab->inferencePanel()->heatmap()->selectCell(0, 3);
    const SentenceAttribution &attribution = m_lab->attributionSource()->attribution();
    QVERIFY(box->compareButton()->isEnabled());
    QCOMPARE(box->alternativeChoice()->itemText(0), QString::fromStdString(attribution.steps[0].runnerUp));
    QVERIFY(box->alternativeChoice()->findText(QStringLiteral("fish")) < 0);  // the output itself is no alternative

    box->alternativeChoice()->setEditText(QStringLiteral("cat"));
    AttributionSource *source = m_lab->attributionSource();
    QVERIFY(source->computing());  // the clicked row's gradients
    box->compare();
    QVERIFY(source->contrastWaiting());  // after them, not instead of them
    QVERIFY(QTest::qWaitFor([source] { return source->hasContrast(); }, 20000));
    QVERIFY(!source->contrastWaiting());
    QCOMPARE(source->attribution().gradientRow, 0);
    QCOMPARE(source->contrastResult().alternative, std::string("cat"));
    QCOMPARE(source->contrastResult().row, 0);
    QCOMPARE(box->plot()->methodCount(), int(source->contrastResult().maps.size()));
    QVERIFY2(box->status().contains(QStringLiteral("<b>cat</b>")), qPrintable(box->status()));

    // A word the model cannot write is refused, with the engine's reason.
    box->alternativeChoice()->setEditText(QStringLiteral("zebra"));
    box->compare();
    QVERIFY(QTest::qWaitFor([box] { return box->status().startsWith(QStringLiteral("Cannot compare")); }, 20000));
    QVERIFY(box->compareButton()->isEnabled());
}

void TestAttributionViews::faithfulnessPageFillsFromAReport()
{
    FaithfulnessPage *page = m_lab->faithfulnessPage();
    QVERIFY(!page->hasReport());
    // As the training job reports them, epoch after epoch.
    m_lab->receiveResult(QVariant::fromValue(FaithfulnessProgress{3, 1, 4}));
    QVERIFY(!page->progressBar()->isHidden());
    QCOMPARE(page->progressBar()->value(), 1);
    m_lab->receiveResult(QVariant::fromValue(FaithfulnessMeasured{3, madeUpReport(0.2), 16}));
    QVERIFY(page->hasReport());
    QVERIFY(page->progressBar()->isHidden());
    QVERIFY(page->heading().contains(QStringLiteral("16 steps")));

    QTableWidget *table = page->agreementTable();
    QCOMPARE(table->rowCount(), 2);
    QCOMPARE(table->columnCount(), 3);
    QCOMPARE(table->item(0, 1)->text(), QLocale().toString(0.5, 'f', 2));
    QCOMPARE(table->item(0, 2)->text(), QStringLiteral("75%"));
    QCOMPARE(page->curvesPlot()->curveCount(), 3);
    QCOMPARE(page->curvesPlot()->graphCount(), 6);  // each curve on both charts
    QCOMPARE(page->curvesPlot()->graph(0)->dataCount(), int(erasureFractions().size()));
    QVERIFY(page->trend().isEmpty());  // one epoch is no trend

    m_lab->receiveResult(QVariant::fromValue(FaithfulnessMeasured{4, madeUpReport(0.5), 16}));
    const QLocale locale;
    QVERIFY2(page->trend().contains(QStringLiteral("3: %1").arg(locale.toString(0.1, 'f', 2)))
                 && page->trend().contains(QStringLiteral("4: %1").arg(locale.toString(0.4, 'f', 2))),
             qPrintable(page->trend()));
}

void TestAttributionViews::exportsWriteARowPerItem()
{
    QVERIFY(explain(QStringLiteral("red cat dog fish")));
    m_lab->inferencePanel()->heatmap()->selectCell(1, 0);
    AttributionSource *source = m_lab->attributionSource();
    QVERIFY(QTest::qWaitFor([source] { return !source->computing(); }, 20000));  // the row's gradients
    m_lab->receiveResult(QVariant::fromValue(FaithfulnessMeasured{1, madeUpReport(0.2), 16}));
    const SentenceAttribution &attribution = source->attribution();
    QTemporaryDir dir;
    QString error;

    const QString steps = dir.filePath(QStringLiteral("steps.csv"));
    QVERIFY2(m_lab->stepScores()->exportCsv(steps, &error), qPrintable(error));
    QStringList lines = csvLines(steps);
    QCOMPARE(lines.size(), 1 + attribution.sentence.rows());
    QCOMPARE(lines[1].section(QLatin1Char(','), 0, 1), QStringLiteral("1,fish"));

    const QString row = dir.filePath(QStringLiteral("row.csv"));
    QVERIFY2(m_lab->rowAttributionView()->plot()->exportCsv(row, &error), qPrintable(error));
    lines = csvLines(row);
    QCOMPARE(lines.size(), 1 + 4);
    QCOMPARE(lines[0].split(QLatin1Char(',')).size(), 1 + int(attribution.maps.size()));
    QVERIFY(lines[1].startsWith(QStringLiteral("red,")));
    const double written = lines[1].split(QLatin1Char(','))[1].toDouble();
    const double score = attribution.maps[0].at(1, 0);  // written to 8 significant digits
    QVERIFY2(std::abs(written - score) <= 1e-7 * std::max(1e-12, std::abs(score)), qPrintable(lines[1]));

    FaithfulnessPage *page = m_lab->faithfulnessPage();
    const QString curves = dir.filePath(QStringLiteral("curves.csv"));
    QVERIFY2(page->curvesPlot()->exportCsv(curves, &error), qPrintable(error));
    QCOMPARE(csvLines(curves).size(), 1 + 3 * int(erasureFractions().size()));
    const QString agreement = dir.filePath(QStringLiteral("agreement.csv"));
    QVERIFY2(page->exportAgreementCsv(agreement, &error), qPrintable(error));
    lines = csvLines(agreement);
    QCOMPARE(lines.size(), 1 + 2);
    QCOMPARE(lines[1], QStringLiteral("attention,1,0.5,0.75"));

    // Every view as a drawing too; a contrast not yet computed has nothing to write.
    for (const QString &name : {QStringLiteral("steps.svg"), QStringLiteral("row.pdf"), QStringLiteral("curves.png")}) {
        const QString path = dir.filePath(name);
        const bool written = name.startsWith(QStringLiteral("steps"))
                                 ? m_lab->stepScores()->exportImage(path, 600, 200, &error)
                             : name.startsWith(QStringLiteral("row"))
                                 ? m_lab->rowAttributionView()->plot()->exportImage(path, 600, 400, &error)
                                 : page->curvesPlot()->exportImage(path, 800, 400, &error);
        QVERIFY2(written && QFile(path).size() > 0, qPrintable(name + QLatin1Char(' ') + error));
    }
    QVERIFY(!m_lab->rowAttributionView()->contrastBox()->plot()->exportCsv(dir.filePath(QStringLiteral("c.csv")), &error));
    QVERIFY(error.contains(QStringLiteral("click")));
}

ATTNSCOPE_TEST(attributionviews, TestAttributionViews)
void TestAttributionViews::stripWordsTurnWhenTheyWouldOverlap()
{
    AttributionStripsPlot plot;
    const QStringList words{"elephants", "giraffes", "crocodiles", "hippopotamus", "zebras"};
    plot.setScores(QStringLiteral("strips"), words,
                   {{AttributionMethod::Saliency, {1, 2, 3, 4, 5}, {}}, {AttributionMethod::Occlusion, {5, 4, 3, 2, 1}, {}}});
    plot.resize(1200, 200);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    QCOMPARE(plot.xAxis->tickLabelRotation(), 0.0);
    // Too narrow for level words, wide enough for slanted ones; then too narrow for those.
    const int slanted = plot.width() - plot.axisRect()->width()
                        + 5 * int(QFontMetrics(plot.xAxis->tickLabelFont()).height() * 1.414 + 12);
    plot.resize(slanted, 200);
    QCoreApplication::processEvents();
    QCOMPARE(plot.xAxis->tickLabelRotation(), -45.0);
    plot.resize(plot.width() - plot.axisRect()->width() + 5 * QFontMetrics(plot.xAxis->tickLabelFont()).height(), 200);
    QCoreApplication::processEvents();
    QCOMPARE(plot.xAxis->tickLabelRotation(), -90.0);
    plot.resize(1200, 200);
    QCoreApplication::processEvents();
    QCOMPARE(plot.xAxis->tickLabelRotation(), 0.0);
}

#include "tst_attributionviews.moc"
