#include "tests/common/testregistry.h"
#include "engine/fast/vectorsum.h"

#include <QtTest>

#include <cmath>
#include <vector>

// addInPlace adds exactly what a plain loop adds, at every length around the vector widths and
// from any alignment, and writes nothing past the end; sumOfSquares sums what a plain loop sums.
class TestVectorSum : public QObject
{
    Q_OBJECT
private slots:
    void addsEveryElementAndNoMore_data();
    void addsEveryElementAndNoMore();
    void sumOfSquaresMatchesALoop_data();
    void sumOfSquaresMatchesALoop();
};

void TestVectorSum::addsEveryElementAndNoMore_data()
{
    QTest::addColumn<int>("length");
    QTest::addColumn<int>("offset");
    for (int length : {0, 1, 7, 15, 16, 17, 33, 768, 1001})
        for (int offset : {0, 1, 3})
            QTest::addRow("%d from %d", length, offset) << length << offset;
}

void TestVectorSum::addsEveryElementAndNoMore()
{
    QFETCH(int, length);
    QFETCH(int, offset);
    const int guard = 20;
    std::vector<float> to(size_t(offset + length + guard)), from(to.size());
    for (size_t k = 0; k < to.size(); ++k) {
        to[k] = 0.25f * float(k) - 3.0f;
        from[k] = 1.0f / float(k + 1);
    }
    std::vector<float> expected = to;
    for (int k = offset; k < offset + length; ++k)
        expected[size_t(k)] = to[size_t(k)] + from[size_t(k)];

    addInPlace(to.data() + offset, from.data() + offset, length);
    QCOMPARE(to, expected);
}

void TestVectorSum::sumOfSquaresMatchesALoop_data()
{
    addsEveryElementAndNoMore_data();
}

void TestVectorSum::sumOfSquaresMatchesALoop()
{
    QFETCH(int, length);
    QFETCH(int, offset);
    std::vector<float> values(size_t(offset + length + 4));
    for (size_t k = 0; k < values.size(); ++k)
        values[k] = std::sin(float(k)) * 1e3f;
    double expected = 0;
    for (int k = offset; k < offset + length; ++k)
        expected += double(values[size_t(k)]) * double(values[size_t(k)]);
    const double sum = sumOfSquares(values.data() + offset, length);
    QVERIFY2(std::abs(sum - expected) <= 1e-12 * expected,
             qPrintable(QStringLiteral("%1, not %2").arg(sum).arg(expected)));
}

ATTNSCOPE_TEST(vectorsum, TestVectorSum)
#include "tst_vectorsum.moc"
