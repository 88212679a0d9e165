#pragma once

#include <QString>

#include <string>

// A text the character model reads (UTF-32) as a QString.
inline QString fromUcs4(const std::u32string &text)
{
    return QString::fromUcs4(text.data(), qsizetype(text.size()));
}
