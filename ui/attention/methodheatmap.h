#pragma once

#include "engine/attention/attribution.h"
#include "ui/core/methodcolors.h"

#include <QObject>

class AttributionSource;
class InferencePanel;
class QComboBox;

// The method selector beside the Reverse page's heatmap: attention shows the decoder's weights as
// the panel draws them; every other method replaces the cells with its own map of the same output
// steps over the source words, on viridis from 0 for saliency (never negative) and on a diverging
// scale centred on 0 for the signed methods. The map follows the sentence as it is explained.
class MethodHeatmap : public QObject
{
    Q_OBJECT
public:
    MethodHeatmap(InferencePanel *inference, AttributionSource *source, QObject *parent = nullptr);

    QComboBox *selector() const { return m_selector; }  // for the panel's row above the heatmap
    AttributionMethod method() const;
    void setMethod(AttributionMethod method);

signals:
    void methodChanged(AttributionMethod method);

private:
    void update();
    void showAttention();
    void showMap(const AttributionMap &map);

    InferencePanel *m_inference;
    AttributionSource *m_source;
    QComboBox *m_selector;
    bool m_showingMap = false;    // the heatmap holds a method's map or message, not the panel's attention
    bool m_methodColors = false;  // the colour scale is a method's, not attention's 0..1
};
