#include "tests/common/testregistry.h"
#include "tests/common/workbenchfixture.h"

#include "ui/workbench/mainwindow.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractScrollArea>
#include <QApplication>
#include <QDockWidget>
#include <QSet>
#include <QSpinBox>
#include <QTabWidget>
#include <QtTest>

namespace {

QString describe(QWidget *w)
{
    QString text = QString::fromLatin1(w->metaObject()->className());
    if (!w->objectName().isEmpty())
        text += QLatin1Char('#') + w->objectName();
    else if (auto *button = qobject_cast<QAbstractButton *>(w))
        text += QStringLiteral("\"%1\"").arg(button->text());
    else if (!w->accessibleName().isEmpty())
        text += QStringLiteral("[%1]").arg(w->accessibleName());
    return text;
}

bool insideItemView(QWidget *w)
{
    for (QWidget *parent = w->parentWidget(); parent; parent = parent->parentWidget())
        if (qobject_cast<QAbstractItemView *>(parent))
            return true;
    return false;
}

// What Tab should stop at: shown, enabled, taking Tab itself (not through a focus proxy, as a spin
// box's line edit does) and not an item view's cell editor.
bool takesTab(QWidget *w)
{
    return (w->focusPolicy() & Qt::TabFocus) == Qt::TabFocus && w->isVisible() && w->isEnabled()
           && !w->focusProxy() && !insideItemView(w);
}

QList<QWidget *> tabStops(QWidget *area)
{
    QList<QWidget *> stops;
    for (QWidget *w : area->findChildren<QWidget *>())
        if (takesTab(w))
            stops << w;
    return stops;
}

// Presses Tab from the first stop of `area`, and returns the widgets focus visits inside it, each
// once (an item view moves between its cells first; an editor's focus counts as its view's).
QList<QWidget *> tabThrough(QWidget *area)
{
    QWidget *first = nullptr;
    for (QWidget *w = area->nextInFocusChain(); w != area && !first; w = w->nextInFocusChain())
        if (area->isAncestorOf(w) && takesTab(w))
            first = w;
    if (!first)
        return {};
    first->setFocus(Qt::TabFocusReason);
    const auto focused = [] {
        QWidget *w = QApplication::focusWidget();
        for (QWidget *parent = w; parent; parent = parent->parentWidget())
            if (qobject_cast<QAbstractItemView *>(parent))
                return parent;
        return w;
    };
    QList<QWidget *> visited{focused()};
    for (int press = 0; press < 200; ++press) {
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QWidget *now = focused();
        if (now == visited.last())
            continue;
        if (!now || !area->isAncestorOf(now) || visited.contains(now))
            break;
        visited << now;
    }
    return visited;
}

// Where `w` sits in the window's layout, as if no scroll area were scrolled: focus scrolls them.
QRect layoutRect(QWidget *w)
{
    QPoint at;
    for (QWidget *x = w; x && !x->isWindow(); x = x->parentWidget()) {
        QWidget *viewport = x->parentWidget();
        const bool scrolledContent = viewport && qobject_cast<QAbstractScrollArea *>(viewport->parentWidget());
        if (!scrolledContent)
            at += x->pos();
    }
    return QRect(at, w->size());
}

// Reading order: the next stop is not back up the same column nor back left along the same row.
// Moving from the foot of one column to the head of the next, to its right, is allowed.
QString readingOrderProblem(const QList<QWidget *> &stops)
{
    for (int i = 1; i < stops.size(); ++i) {
        const QRect a = layoutRect(stops[i - 1]);
        const QRect b = layoutRect(stops[i]);
        const bool sameColumn = b.left() < a.right() && a.left() < b.right();
        const bool sameRow = b.top() < a.bottom() && a.top() < b.bottom();
        if ((sameColumn && b.bottom() <= a.top()) || (sameRow && !sameColumn && b.right() <= a.left()))
            return QStringLiteral("%1 (at %3,%4) comes after %2 (at %5,%6)")
                .arg(describe(stops[i]), describe(stops[i - 1]))
                .arg(b.left()).arg(b.top()).arg(a.left()).arg(a.top());
    }
    return {};
}

QStringList names(const QList<QWidget *> &widgets)
{
    QStringList list;
    for (QWidget *w : widgets)
        list << describe(w);
    return list;
}

} // namespace

// Tab through every lab's pages and docks as a keyboard user does.
class TestTabOrder : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void tabFollowsTheLayout_data();
    void tabFollowsTheLayout();
    void tabReachesEveryPane_data();
    void tabReachesEveryPane();

private:
    MainWindow *m_window = nullptr;
};

void TestTabOrder::initTestCase()
{
    useTestSettings(QStringLiteral("tst_taborder"));
    m_window = shownWorkbench();
    m_window->resize(1280, 720);
    QVERIFY(QTest::qWaitForWindowExposed(m_window));
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window));
}

void TestTabOrder::cleanupTestCase()
{
    delete m_window;
}

void TestTabOrder::tabFollowsTheLayout_data()
{
    QTest::addColumn<int>("page");
    QTest::addColumn<int>("beamWidth");
    const QList<LabPage> pages = everyPage(*m_window);
    for (int page = 0; page < pages.size(); ++page)
        QTest::newRow(qPrintable(QString(pages[page].title).remove(QLatin1Char('&')))) << page << 1;
    // A wider beam enables α and shows the n-best list and the steps beneath the heatmap, or in the
    // Transformer's tab under its heads.
    QTest::newRow("Reverse, beam search") << 0 << 3;
    for (int page = 0; page < pages.size(); ++page)
        if (pages[page].widget->objectName() == QStringLiteral("transformerPage"))
            QTest::newRow("Transformer, beam search") << page << 3;
}

void TestTabOrder::tabFollowsTheLayout()
{
    QFETCH(int, page);
    QFETCH(int, beamWidth);
    for (const char *name : {"beamWidth", "transformerBeamWidth"})
        m_window->findChild<QSpinBox *>(QLatin1String(name))->setValue(beamWidth);
    QWidget *shown = everyPage(*m_window).at(page).widget;
    m_window->showPage(shown);
    QCoreApplication::processEvents();
    QList<QWidget *> areas{shown};
    for (QDockWidget *dock : m_window->findChildren<QDockWidget *>())
        if (dock->isVisible())
            areas << dock->widget();
    for (QWidget *area : std::as_const(areas)) {
        const QList<QWidget *> visited = tabThrough(area);
        qInfo().noquote() << describe(area) << ":" << names(visited).join(QStringLiteral(" > "));
        for (QWidget *stop : tabStops(area))
            QVERIFY2(visited.contains(stop), qPrintable(describe(stop) + QStringLiteral(" is never reached")));
        const QString problem = readingOrderProblem(visited);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }
}

void TestTabOrder::tabReachesEveryPane_data()
{
    QTest::addColumn<int>("page");
    const QList<LabPage> pages = everyPage(*m_window);
    for (int page = 0; page < pages.size(); ++page)
        QTest::newRow(qPrintable(QString(pages[page].title).remove(QLatin1Char('&')))) << page;
}

// From the page, Tab goes on into the docks beside it and back: no pane is out of the keyboard's reach.
void TestTabOrder::tabReachesEveryPane()
{
    QFETCH(int, page);
    m_window->showPage(everyPage(*m_window).at(page).widget);
    QCoreApplication::processEvents();
    const QList<QWidget *> stops = tabStops(m_window);
    QVERIFY(!stops.isEmpty());
    stops.first()->setFocus(Qt::TabFocusReason);
    QSet<QWidget *> visited;
    for (int press = 0; press < 4 * stops.size() + 100; ++press) {
        QWidget *now = QApplication::focusWidget();
        for (QWidget *w = now; w; w = w->parentWidget())
            visited.insert(w);
        QTest::keyClick(now, Qt::Key_Tab);
    }
    for (QWidget *stop : stops)
        QVERIFY2(visited.contains(stop), qPrintable(describe(stop) + QStringLiteral(" is never reached")));
}

ATTNSCOPE_TEST(taborder, TestTabOrder)
#include "tst_taborder.moc"
