#include "ui/workbench/labinfo.h"

QString FileType::filter() const
{
    QStringList patterns;
    for (const QString &suffix : suffixes)
        patterns << QStringLiteral("*.") + suffix;
    return QStringLiteral("%1 (%2)").arg(description, patterns.join(QLatin1Char(' ')));
}
