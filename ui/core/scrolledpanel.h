#pragma once

class QScrollArea;
class QWidget;

// `widget` in a frameless area that scrolls up and down when the space given is shorter than it,
// and is never narrower than the widget's controls (without a sideways scroll bar they would be
// cut off).
QScrollArea *scrolledPanel(QWidget *widget);
