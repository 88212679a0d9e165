#include "tests/common/testregistry.h"
#include "ui/core/colorgradients.h"

#include <QtTest>

#include <cmath>

namespace {

constexpr int kSamples = 32;

double linear(double channel)  // sRGB decoding
{
    return channel <= 0.04045 ? channel / 12.92 : std::pow((channel + 0.055) / 1.055, 2.4);
}

// CIE L* (0 black .. 100 white) of an sRGB colour, D65 white.
double lightness(const QColor &colour)
{
    const double y = 0.2126 * linear(colour.redF()) + 0.7152 * linear(colour.greenF())
                     + 0.0722 * linear(colour.blueF());
    return y > 216.0 / 24389.0 ? 116 * std::cbrt(y) - 16 : y * 24389.0 / 27.0;
}

QColor sample(QCPColorGradient &gradient, int i)
{
    return QColor::fromRgb(gradient.color(double(i) / (kSamples - 1), QCPRange(0, 1)));
}

} // namespace

class TestColorGradients : public QObject
{
    Q_OBJECT

private slots:
    void viridisLightnessRisesMonotonically();
    void viridisSpansDarkToLight();
    void textContrastsWithEveryColour();
    void divergingIsWhiteAtZeroBlueBelowRedAbove();
};

// Printed in grey or seen without colour vision, the scale must still order the values.
void TestColorGradients::viridisLightnessRisesMonotonically()
{
    QCPColorGradient gradient = viridisGradient();
    double previous = -1;
    for (int i = 0; i < kSamples; ++i) {
        const double l = lightness(sample(gradient, i));
        QVERIFY2(l > previous, qPrintable(QStringLiteral("L* %1 at sample %2 after %3").arg(l).arg(i).arg(previous)));
        previous = l;
    }
}

void TestColorGradients::viridisSpansDarkToLight()
{
    QCPColorGradient gradient = viridisGradient();
    QVERIFY(lightness(sample(gradient, 0)) < 25);
    QVERIFY(lightness(sample(gradient, kSamples - 1)) > 85);
    // Close to perceptually uniform: no step takes much more than its share of the range.
    const double share = (lightness(sample(gradient, kSamples - 1)) - lightness(sample(gradient, 0))) / (kSamples - 1);
    for (int i = 1; i < kSamples; ++i) {
        const double step = lightness(sample(gradient, i)) - lightness(sample(gradient, i - 1));
        QVERIFY2(step < 2 * share, qPrintable(QStringLiteral("step %1 at sample %2").arg(step).arg(i)));
    }
}

void TestColorGradients::textContrastsWithEveryColour()
{
    QCPColorGradient gradient = viridisGradient();
    for (int i = 0; i < kSamples; ++i) {
        const QColor background = sample(gradient, i);
        const double difference = std::abs(lightness(contrastingTextColor(background)) - lightness(background));
        QVERIFY2(difference > 40, qPrintable(QStringLiteral("sample %1: L* difference %2").arg(i).arg(difference)));
    }
}

// A difference reads by its sign (hue) and its size (distance from white), in grey too.
void TestColorGradients::divergingIsWhiteAtZeroBlueBelowRedAbove()
{
    QCPColorGradient gradient = divergingGradient();
    const QCPRange symmetric(-0.5, 0.5);
    const auto at = [&](double value) { return QColor::fromRgb(gradient.color(value, symmetric)); };
    QVERIFY(lightness(at(0)) > 95);
    QVERIFY(at(-0.5).blue() > at(-0.5).red());
    QVERIFY(at(0.5).red() > at(0.5).blue());
    double previousBelow = lightness(at(0)), previousAbove = previousBelow;
    for (int i = 1; i <= kSamples; ++i) {
        const double value = 0.5 * i / kSamples;
        const double below = lightness(at(-value)), above = lightness(at(value));
        QVERIFY2(below <= previousBelow && above <= previousAbove, qPrintable(QString::number(value)));
        previousBelow = below;
        previousAbove = above;
    }
}

ATTNSCOPE_TEST(colorgradients, TestColorGradients)
#include "tst_colorgradients.moc"
