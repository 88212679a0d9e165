#include "tests/common/testregistry.h"
#include "ui/core/exportdialog.h"

#include <QFileDialog>
#include <QLineEdit>
#include <QMainWindow>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <functional>

namespace {

// Runs `answer` on the next modal dialog once it is open (QFileDialog and QMessageBox block).
void whenModalOpens(std::function<void(QWidget *)> answer)
{
    QTimer::singleShot(0, [answer] {
        QWidget *modal = QApplication::activeModalWidget();
        if (!modal) {
            whenModalOpens(answer);
            return;
        }
        answer(modal);
    });
}

} // namespace

class TestExportDialog : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void suffixFromFilter_data();
    void suffixFromFilter();
    void sizeKeepsShapeAndPrintsWell_data();
    void sizeKeepsShapeAndPrintsWell();
    void askRemembersFolderAndAddsSuffix();
    void cancelGivesNoPath();
    void successGoesToStatusBar();
    void failureShowsTheReason();

private:
    QTemporaryDir m_dir;
};

void TestExportDialog::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);  // QSettings in a test location
    QSettings().remove(QStringLiteral("exportDirectory"));
}

void TestExportDialog::suffixFromFilter_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("filter");
    QTest::addColumn<QString>("expected");
    QTest::newRow("filter's suffix") << "/tmp/plot" << "PDF document (*.pdf)" << "/tmp/plot.pdf";
    QTest::newRow("first of several") << "/tmp/plot" << "JPEG image (*.jpg *.jpeg)" << "/tmp/plot.jpg";
    QTest::newRow("own suffix kept") << "/tmp/plot.png" << "PDF document (*.pdf)" << "/tmp/plot.png";
    QTest::newRow("no filter: default's suffix") << "/tmp/loss" << "" << "/tmp/loss.csv";
}

void TestExportDialog::suffixFromFilter()
{
    QFETCH(QString, path);
    QFETCH(QString, filter);
    QFETCH(QString, expected);
    QCOMPARE(withFilterSuffix(path, filter, "default.csv"), expected);
    QCOMPARE(withFilterSuffix("/tmp/x", QString(), "no-suffix"), QString("/tmp/x"));
}

void TestExportDialog::sizeKeepsShapeAndPrintsWell_data()
{
    QTest::addColumn<QSize>("onScreen");
    QTest::addColumn<QSize>("expected");
    QTest::newRow("small: scaled up to 1200 wide") << QSize(400, 300) << QSize(1200, 900);
    QTest::newRow("wide enough: as on screen") << QSize(1500, 1000) << QSize(1500, 1000);
    QTest::newRow("very flat: 2:1") << QSize(2000, 300) << QSize(2000, 1000);
    QTest::newRow("very tall: 1:2") << QSize(320, 1800) << QSize(1200, 2400);
}

void TestExportDialog::sizeKeepsShapeAndPrintsWell()
{
    QFETCH(QSize, onScreen);
    QFETCH(QSize, expected);
    QWidget widget;
    widget.resize(onScreen);
    QCOMPARE(exportSize(&widget), expected);
}

void TestExportDialog::askRemembersFolderAndAddsSuffix()
{
    QDir(m_dir.path()).mkdir("plots");
    const QString folder = m_dir.filePath("plots");
    QString startedIn;
    whenModalOpens([&](QWidget *modal) {
        auto *dialog = qobject_cast<QFileDialog *>(modal);
        QVERIFY(dialog);
        startedIn = dialog->directory().absolutePath();
        dialog->selectNameFilter("PDF document (*.pdf)");
        dialog->selectFile(folder + "/loss");
        static_cast<QDialog *>(dialog)->accept();  // QFileDialog makes accept() protected
    });
    QWidget parent;
    const QString path = askExportPath(&parent, "Export", "loss.png", "PNG image (*.png);;PDF document (*.pdf)");
    QCOMPARE(path, folder + "/loss.pdf");
    QCOMPARE(QSettings().value("exportDirectory").toString(), folder);

    // The next export starts where this one went.
    whenModalOpens([&](QWidget *modal) {
        startedIn = qobject_cast<QFileDialog *>(modal)->directory().absolutePath();
        modal->close();
    });
    askExportPath(&parent, "Export", "loss.png", "PNG image (*.png)");
    QCOMPARE(startedIn, folder);
}

void TestExportDialog::cancelGivesNoPath()
{
    QSettings().setValue("exportDirectory", m_dir.path());
    whenModalOpens([](QWidget *modal) { qobject_cast<QFileDialog *>(modal)->reject(); });
    QWidget parent;
    QVERIFY(askExportPath(&parent, "Export", "heatmap.png", "PNG image (*.png)").isEmpty());
    QCOMPARE(QSettings().value("exportDirectory").toString(), m_dir.path());
}

void TestExportDialog::successGoesToStatusBar()
{
    QMainWindow window;
    auto *panel = new QWidget;
    window.setCentralWidget(panel);
    reportExport(panel, true, "/tmp/heatmap.png", QString());
    QCOMPARE(window.statusBar()->currentMessage(), QString("Exported /tmp/heatmap.png."));
}

void TestExportDialog::failureShowsTheReason()
{
    QMainWindow window;
    QString shown;
    whenModalOpens([&](QWidget *modal) {
        auto *box = qobject_cast<QMessageBox *>(modal);
        QVERIFY(box);
        shown = box->text();
        box->accept();
    });
    reportExport(&window, false, "/tmp/heatmap.png", "Folder does not exist: /tmp/x");
    QCOMPARE(shown, QString("Folder does not exist: /tmp/x"));
    QVERIFY(window.statusBar()->currentMessage().isEmpty());
}

ATTNSCOPE_TEST(exportdialog, TestExportDialog)
#include "tst_exportdialog.moc"
