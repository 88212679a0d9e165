#pragma once

class QWidget;

// Draws a frame in the palette's highlight colour around a plot that has keyboard focus. QCustomPlot
// paints its whole area itself, so a plot that takes focus shows it this way; the style's own focus
// rectangle is drawn by some styles only after a Tab press, and keyboard users need it always.
void paintFocusFrame(QWidget &widget);
