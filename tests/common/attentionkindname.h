#pragma once

#include "engine/attention/modelconfig.h"

#include <QString>
#include <QtGlobal>

// The attention variant a test's data row names, as the command line spells it; a name the engine
// does not know stops the test program, since the row itself is wrong.
inline AttentionKind kindOf(const QString &name)
{
    AttentionKind kind = AttentionKind::Bahdanau;
    if (!parseAttention(name.toStdString(), &kind))
        qFatal("unknown attention variant %s", qPrintable(name));
    return kind;
}
