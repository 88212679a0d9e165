#include "tests/common/testregistry.h"
#include "tests/common/setupfield.h"
#include "tests/common/tinytransformer.h"
#include "tests/common/workbenchfixture.h"
#include "app/workbench/trainingcontroller.h"
#include "engine/core/corpusdefaults.h"
#include "engine/core/dataset.h"
#include "engine/transformer/transformerattribution.h"
#include "engine/transformer/transformercheckpoint.h"
#include "engine/transformer/transformerfaithfulness.h"
#include "engine/transformer/transformertrainer.h"
#include "ui/core/erasurecurvesplot.h"
#include "ui/core/faithfulnesspage.h"
#include "ui/transformer/transformerjobs.h"
#include "ui/transformer/transformerlab.h"
#include "ui/transformer/transformerresults.h"
#include "ui/transformer/transformersetup.h"
#include "ui/workbench/workbenchfiles.h"

#include <QtTest>

#include <QAction>
#include <QFile>
#include <QProgressBar>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>

#include <cmath>
#include <initializer_list>
#include <optional>
#include <utility>

namespace {

DatasetConfig faithfulnessPageData()
{
    DatasetConfig config;
    config.words = {"red", "green", "blue", "cat", "dog", "sun"};
    config.minLength = 3;
    config.maxLength = 4;
    config.trainSize = 300;
    config.valSize = 30;
    config.testSize = 40;
    config.seed = 5;
    return config;
}

// The worker computes on its own threads: sums may round differently.
bool closeToShown(double shown, double expected)
{
    return std::abs(shown - expected) <= 1e-4 * std::max(1.0, std::abs(expected));
}

}  // namespace

// The Transformer lab's Faithfulness page: a model opened is measured when the page is shown, off
// the GUI thread, and the page shows what measureTransformerFaithfulness gives for the same
// weights and sentences; its exports; and the reports of a run epoch by epoch.
class TestTransformerFaithfulnessPage : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void openedModelIsMeasuredWhenThePageIsShown();
    void epochsFollowOneAnother();
    void trainingMeasuresEveryEpochOnceThePageWasShown();

private:

    QTemporaryDir m_dir;
    QString m_file;
    std::optional<TransformerModel> m_model;
    MainWindow *m_window = nullptr;
    TrainingController *m_controller = nullptr;  // runs the lab's jobs on its worker
    TransformerLab *m_lab = nullptr;
};

void TestTransformerFaithfulnessPage::initTestCase()
{
    useTestSettings(QStringLiteral("tst_transformerfaithfulnesspage"));
    QVERIFY(m_dir.isValid());
    const Dataset data = Dataset::build(faithfulnessPageData());
    m_model.emplace(tinyTransformer(1, 2, 16, 32), vocabularyFor(data, faithfulnessPageData()), Task::Reverse, 2);
    TransformerTrainingConfig training;
    training.epochs = 2;
    training.warmupSteps = 10;
    training.threads = 1;
    TransformerTrainer(*m_model, data, training).run();
    m_file = m_dir.filePath(QStringLiteral("small.ckpt"));
    QFile file(m_file);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray::fromStdString(transformercheckpoint::encode(*m_model, faithfulnessPageData(), training)));
}

void TestTransformerFaithfulnessPage::init()
{
    m_window = shownWorkbench(QStringLiteral("transformer"));
    m_controller = new TrainingController(m_window);
    m_lab = m_window->lab<TransformerLab>();
    QVERIFY(m_lab);
}

void TestTransformerFaithfulnessPage::cleanup()
{
    delete m_controller;
    delete m_window;
    m_window = nullptr;
}

void TestTransformerFaithfulnessPage::openedModelIsMeasuredWhenThePageIsShown()
{
    FaithfulnessPage *page = m_lab->faithfulnessPage();
    QString error;
    QVERIFY2(m_window->files()->openFile(m_file, &error), qPrintable(error));
    QVERIFY(!page->hasReport());  // nobody looks at the page yet: nothing is measured
    QVERIFY(!m_window->findChild<QAction *>(QStringLiteral("exportTransformerAgreementCsv"))->isEnabled());
    m_window->showPage(page);
    QVERIFY(QTest::qWaitFor([page] { return page->hasReport(); }, 60000));
    QVERIFY(page->heading().contains(QStringLiteral("first %1 sentences").arg(kTransformerFaithfulnessSentences)));

    // The same sentences and options measured here, on the GUI thread.
    const std::vector<SentencePair> test = Dataset::build(faithfulnessPageData()).test;
    AttributionOptions options;
    options.methods = transformerAttributionMethods();
    options.integrationSteps = kTransformerFaithfulnessIntegrationSteps;
    const FaithfulnessReport expected = measureTransformerFaithfulness(
        *m_model, {test.begin(), test.begin() + kTransformerFaithfulnessSentences}, Task::Reverse, options);
    const FaithfulnessReport &shown = page->report();
    QCOMPARE(shown.sentences, expected.sentences);
    QCOMPARE(shown.steps, expected.steps);
    QCOMPARE(shown.methods, expected.methods);

    const int n = int(expected.methods.size());
    QTableWidget *table = page->agreementTable();
    QCOMPARE(table->rowCount(), n);
    QCOMPARE(table->columnCount(), n + 1);
    QCOMPARE(table->verticalHeaderItem(n - 1)->text(), QString::fromUtf8(attributionMethodTitle(AttributionMethod::Rollout)));
    const QLocale locale;
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            const std::size_t k = std::size_t(i * n + j);
            QVERIFY(closeToShown(shown.agreement[k], expected.agreement[k]));
            QCOMPARE(table->item(i, j)->text(), locale.toString(shown.agreement[k], 'f', 2));
        }
        QCOMPARE(shown.topAnswerAgreement[std::size_t(i)], expected.topAnswerAgreement[std::size_t(i)]);
        QCOMPARE(table->item(i, n)->text(),
                 locale.toString(100 * expected.topAnswerAgreement[std::size_t(i)], 'f', 0) + QLatin1Char('%'));
    }
    const std::vector<ErasureCurve> &curves = page->curvesPlot()->curves();
    QCOMPARE(curves.size(), expected.curves.size());
    for (std::size_t c = 0; c < curves.size(); ++c) {
        QCOMPARE(curves[c].name, expected.curves[c].name);
        for (std::size_t f = 0; f < erasureFractions().size(); ++f) {
            QVERIFY2(closeToShown(curves[c].comprehensiveness[f], expected.curves[c].comprehensiveness[f]), curves[c].name.c_str());
            QVERIFY2(closeToShown(curves[c].sufficiency[f], expected.curves[c].sufficiency[f]), curves[c].name.c_str());
        }
    }

    // Exported as the RNN's page exports them.
    QAction *agreementCsv = m_window->findChild<QAction *>(QStringLiteral("exportTransformerAgreementCsv"));
    QVERIFY(agreementCsv->isEnabled());
    QVERIFY(m_window->findChild<QAction *>(QStringLiteral("exportTransformerFaithfulness"))->isEnabled());
    const QString csv = m_dir.filePath(QStringLiteral("agreement.csv"));
    QVERIFY2(page->exportAgreementCsv(csv, &error), qPrintable(error));
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), n + 1);
    QCOMPARE(lines.first(), QByteArray("method,attention,saliency,inputxgrad,ig,occlusion,rollout,top_answer_agreement"));
    QVERIFY(lines.last().startsWith("rollout,"));
    const QString curvesCsv = m_dir.filePath(QStringLiteral("curves.csv"));
    QVERIFY2(page->curvesPlot()->exportCsv(curvesCsv, &error), qPrintable(error));
    const QString svg = m_dir.filePath(QStringLiteral("curves.svg"));
    QVERIFY2(page->curvesPlot()->exportImage(svg, 600, 300, &error), qPrintable(error));
    QVERIFY(QFileInfo(svg).size() > 0);
}

// As a run reports them: the progress, then each epoch's figures, with the trend line over epochs.
void TestTransformerFaithfulnessPage::epochsFollowOneAnother()
{
    FaithfulnessPage *page = m_lab->faithfulnessPage();
    AttributionOptions options;
    options.methods = {AttributionMethod::Attention, AttributionMethod::Rollout};
    const std::vector<SentencePair> test = Dataset::build(faithfulnessPageData()).test;
    const FaithfulnessReport report =
        measureTransformerFaithfulness(*m_model, {test.begin(), test.begin() + 4}, Task::Reverse, options);
    m_lab->receiveResult(QVariant::fromValue(TransformerFaithfulnessProgress{1, 2, 4}));
    QVERIFY(!page->progressBar()->isHidden());
    QCOMPARE(page->progressBar()->value(), 2);
    m_lab->receiveResult(QVariant::fromValue(TransformerFaithfulnessMeasured{1, report, {}}));
    QVERIFY(page->hasReport());
    QVERIFY(page->progressBar()->isHidden());
    QCOMPARE(page->agreementTable()->rowCount(), 2);
    QVERIFY(page->trend().isEmpty());  // one epoch is no trend
    m_lab->receiveResult(QVariant::fromValue(TransformerFaithfulnessMeasured{2, report, {}}));
    QVERIFY2(page->trend().contains(QStringLiteral("1: ")) && page->trend().contains(QStringLiteral("2: ")),
             qPrintable(page->trend()));
    m_lab->receiveResult(QVariant::fromValue(TransformerFaithfulnessMeasured{3, {}, QStringLiteral("Cannot measure")}));
    QVERIFY(!page->hasReport());
}

// The page shown before a run: each epoch measured on the worker as it ends, the last one's report
// on the page and the line following attention over the epochs.
void TestTransformerFaithfulnessPage::trainingMeasuresEveryEpochOnceThePageWasShown()
{
    for (const auto &[key, value] : std::initializer_list<std::pair<const char *, double>>{
             {"train", 300}, {"val", 30}, {"test", 30}, {"max-len", 4}, {"layers", 1}, {"heads", 2},
             {"d-model", 16}, {"feed-forward", 32}, {"epochs", 2}, {"warmup", 10}, {"threads", 1}})
        setNumberField(m_lab->setup(), key, value);
    QVERIFY2(m_lab->trainProblem().isEmpty(), qPrintable(m_lab->trainProblem()));
    FaithfulnessPage *page = m_lab->faithfulnessPage();
    m_window->showPage(page);
    m_window->train();
    QVERIFY(m_window->runState()->isTraining());
    QTRY_VERIFY_WITH_TIMEOUT(m_window->runState()->isQuiet(), 120000);
    QCOMPARE(int(m_lab->history().size()), 2);
    QVERIFY(page->hasReport());
    QCOMPARE(page->report().sentences, kTransformerFaithfulnessSentences);
    QCOMPARE(page->report().methods, transformerAttributionMethods());
    QVERIFY2(page->trend().contains(QStringLiteral("1: ")) && page->trend().contains(QStringLiteral("2: ")),
             qPrintable(page->trend()));
}

ATTNSCOPE_TEST(transformerfaithfulnesspage, TestTransformerFaithfulnessPage)
#include "tst_transformerfaithfulnesspage.moc"
