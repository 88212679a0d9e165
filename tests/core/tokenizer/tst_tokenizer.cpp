#include "tests/common/testregistry.h"
#include "engine/core/tokenizer.h"

#include <QtTest>

class TestTokenizer : public QObject
{
    Q_OBJECT
private slots:
    void splits_data();
    void splits();
};

void TestTokenizer::splits_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("lowercase");
    QTest::addColumn<QStringList>("tokens");
    QTest::newRow("words") << "the cat sat" << true << QStringList{"the", "cat", "sat"};
    QTest::newRow("whitespace") << "  the\tcat \n sat  " << true << QStringList{"the", "cat", "sat"};
    QTest::newRow("punctuation") << "Hello, world!" << true << QStringList{"hello", ",", "world", "!"};
    QTest::newRow("keep case") << "The Cat" << false << QStringList{"The", "Cat"};
    QTest::newRow("empty") << "" << true << QStringList{};
    QTest::newRow("only spaces") << "   " << true << QStringList{};
    QTest::newRow("utf-8 untouched") << QStringLiteral("Café ÉTÉ 猫") << true << QStringList{QStringLiteral("café"), QStringLiteral("ÉtÉ"), QStringLiteral("猫")};
    QTest::newRow("apostrophe") << "don't" << true << QStringList{"don", "'", "t"};
}

void TestTokenizer::splits()
{
    QFETCH(QString, text);
    QFETCH(bool, lowercase);
    QFETCH(QStringList, tokens);
    QStringList got;
    for (const auto &t : tokenize(text.toStdString(), lowercase))
        got << QString::fromStdString(t);
    QCOMPARE(got, tokens);
    QCOMPARE(QString::fromStdString(joinTokens(tokenize(text.toStdString(), lowercase))), tokens.join(' '));
}

ATTNSCOPE_TEST(tokenizer, TestTokenizer)
#include "tst_tokenizer.moc"
