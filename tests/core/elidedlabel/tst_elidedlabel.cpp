#include "tests/common/testregistry.h"
#include "ui/core/elidedlabel.h"

#include <QtTest>

// A description that does not fit ends in "…" with the whole of it in the tooltip, and never asks
// for the width that would widen the window.
class TestElidedLabel : public QObject
{
    Q_OBJECT
private slots:
    void longTextEndsInAnEllipsisWithTheWholeInTheTooltip();
};

void TestElidedLabel::longTextEndsInAnEllipsisWithTheWholeInTheTooltip()
{
    const QString text = QStringLiteral("bundled default model — 413,606 parameters, 38 words, hidden size 128, "
                                        "2 layer(s); best of 12 epoch(s): validation exact match 100.0 %");
    ElidedLabel label;
    label.setFullText(text);
    label.show();  // a hidden widget hears of its size only when shown
    QVERIFY(QTest::qWaitForWindowExposed(&label));
    QCOMPARE(label.minimumSizeHint().width(), 0);
    QCOMPARE(label.sizeHint().height(), label.fontMetrics().height());

    label.resize(120, label.sizeHint().height());
    QCOMPARE(label.fullText(), text);
    QVERIFY2(label.text().endsWith(QChar(0x2026)), qPrintable(label.text()));
    QVERIFY(label.text().size() < text.size());
    QVERIFY(label.fontMetrics().horizontalAdvance(label.text()) <= 120);
    QCOMPARE(label.toolTip(), text);

    label.resize(label.fontMetrics().horizontalAdvance(text) + 20, label.height());
    QCOMPARE(label.text(), text);
    QVERIFY(label.toolTip().isEmpty());

    label.setFullText(QStringLiteral("none yet"));
    QCOMPARE(label.text(), QStringLiteral("none yet"));
}

ATTNSCOPE_TEST(elidedlabel, TestElidedLabel)
#include "tst_elidedlabel.moc"
