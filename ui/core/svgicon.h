#pragma once

#include <QIcon>
#include <QString>

// An icon drawn from an SVG resource at the sizes toolbars ask for. QIcon reads SVG only through
// an icon-engine plugin that a desktop may lack; QSvgRenderer is in the library the program links.
QIcon svgIcon(const QString &resource);
