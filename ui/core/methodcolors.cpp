#include "ui/core/methodcolors.h"

#include "ui/core/attentionheatmap.h"
#include "ui/core/colorgradients.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

bool isSignedMethod(AttributionMethod method)
{
    return method != AttributionMethod::Attention && method != AttributionMethod::Saliency &&
           method != AttributionMethod::Rollout;
}

void setMethodColorScale(AttentionHeatmap &heatmap, const AttributionMap &map)
{
    double largest = 0;
    for (const double score : map.scores)
        if (std::isfinite(score))
            largest = std::max(largest, std::abs(score));
    largest = std::max(largest, 1e-6);  // an all-zero map still needs a range
    const QString title = QString::fromUtf8(attributionMethodTitle(map.method)).toLower();
    if (isSignedMethod(map.method))
        heatmap.setColorScale(divergingGradient(), QCPRange(-largest, largest),
                              QCoreApplication::translate("MethodColors", "%1 (nats)").arg(title));
    else
        heatmap.setColorScale(viridisGradient(), QCPRange(0, largest), title);
}
