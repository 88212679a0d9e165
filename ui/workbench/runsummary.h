#pragma once

#include <QString>

// What a lab says when its training run ends: "Stopped after 3 of 10 epochs." when the user stopped
// it, otherwise "Trained 10 epochs at 1,234 words/s." (`unit` per second).
QString runSummary(int epochsDone, int epochs, double ratePerSecond, const QString &unit);
