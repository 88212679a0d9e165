#pragma once

#include <QCoreApplication>
#include <QString>

#include <cstddef>

// What a view that explains the typed sentence says while it has fewer than the two words an
// explanation compares.
inline QString tooFewWordsToExplain(std::size_t words)
{
    return words == 0 ? QCoreApplication::translate("ExplainHint", "Type a sentence above.")
                      : QCoreApplication::translate(
                            "ExplainHint", "Type at least two words: removing the only word leaves nothing to compare.");
}
