#include "ui/core/colorgradients.h"

#include <initializer_list>

namespace {

// Evenly spaced stops; RGB interpolation between close stops stays within a shade of the original.
QCPColorGradient gradientOf(std::initializer_list<const char *> stops)
{
    QCPColorGradient gradient;
    gradient.clearColorStops();
    int i = 0;
    for (const char *stop : stops)
        gradient.setColorStopAt(double(i++) / (int(stops.size()) - 1), QColor(stop));
    gradient.setColorInterpolation(QCPColorGradient::ciRGB);
    gradient.setLevelCount(256);
    return gradient;
}

}

QCPColorGradient viridisGradient()
{
    // matplotlib's viridis sampled at 0, 0.1, ..., 1.
    return gradientOf({"#440154", "#482475", "#414487", "#355f8d", "#2a788e", "#21918c", "#22a884", "#44bf70",
                       "#7ad151", "#bddf26", "#fde725"});
}

QCPColorGradient divergingGradient()
{
    // ColorBrewer's RdBu with 7 classes, blue end first.
    return gradientOf({"#2166ac", "#67a9cf", "#d1e5f0", "#f7f7f7", "#fddbc7", "#ef8a62", "#b2182b"});
}

QColor contrastingTextColor(const QColor &background)
{
    // Relative luminance (Rec. 709 weights); viridis turns light a little above the middle.
    const double luminance = 0.2126 * background.redF() + 0.7152 * background.greenF()
                             + 0.0722 * background.blueF();
    return luminance > 0.45 ? QColor(Qt::black) : QColor(Qt::white);
}
