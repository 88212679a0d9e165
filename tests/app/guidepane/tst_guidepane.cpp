#include "tests/common/workbenchfixture.h"
#include "ui/attention/attentionlab.h"
#include "ui/charlm/charlmlab.h"
#include "ui/core/guidepane.h"
#include "ui/selfattention/selfattentionlab.h"
#include "ui/word2vec/word2veclab.h"

#include <QAction>
#include <QSet>
#include <QTabWidget>
#include <QTextBrowser>
#include <QtTest>

// View ▸ Guide (F1): one action shows the guide of the lab whose page is on screen, and follows
// the tabs.
class TestGuidePane : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { useTestSettings(QStringLiteral("tst_guidepane")); }
    void everyLabHasItsOwnGuide();
    void f1ShowsTheShownLabsGuide();
};

void TestGuidePane::everyLabHasItsOwnGuide()
{
    QSet<QString> guides;
    for (const char *name : {"attention", "selfattention", "word2vec", "charlm"}) {
        const QString guide = GuidePane::read(QString::fromLatin1(name));
        QVERIFY2(guide.startsWith(QStringLiteral("# ")), name);
        guides << guide;
    }
    QCOMPARE(guides.size(), 4);
    QVERIFY(GuidePane::read(QStringLiteral("no such lab")).isEmpty());
}

void TestGuidePane::f1ShowsTheShownLabsGuide()
{
    Labs labs;
    std::unique_ptr<MainWindow> window(shownWorkbench(&labs));
    window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(window.get()));
    auto *pane = window->findChild<GuidePane *>();
    QVERIFY(pane);
    QVERIFY(!pane->isVisible());

    QTest::keyClick(window.get(), Qt::Key_F1);
    QVERIFY(pane->isVisible());
    QCOMPARE(window->centralTabs()->currentIndex(), 0);
    QCOMPARE(pane->guide(), labs.attention->guide());

    const QList<Lab *> each{labs.attention, labs.selfAttention, labs.word2vec, labs.charLm};
    for (Lab *lab : each) {
        for (const LabPage &page : lab->pages()) {
            window->centralTabs()->setCurrentWidget(page.widget);
            QCOMPARE(pane->guide(), lab->guide());
            const QString title = lab->guide().section(QLatin1Char('\n'), 0, 0).mid(2);
            QVERIFY2(pane->view()->toPlainText().startsWith(title), qPrintable(title));
        }
    }

    QTest::keyClick(window.get(), Qt::Key_F1);
    QVERIFY(!pane->isVisible());
}

QTEST_MAIN(TestGuidePane)
#include "tst_guidepane.moc"
