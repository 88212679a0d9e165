#pragma once

#include <QColor>

// Okabe and Ito's colours for categories: people with the common colour-vision deficiencies tell
// them apart, and several differ in lightness too. Constants, so file-scope copies are safe.
namespace okabeito {
inline constexpr QColor blue(0, 114, 178);
inline constexpr QColor orange(230, 159, 0);
inline constexpr QColor bluishGreen(0, 158, 115);
inline constexpr QColor reddishPurple(204, 121, 167);
inline constexpr QColor skyBlue(86, 180, 233);
inline constexpr QColor vermillion(213, 94, 0);
inline constexpr QColor black(0, 0, 0);
inline constexpr QColor yellow(240, 228, 66);
}
