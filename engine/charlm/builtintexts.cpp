#include "engine/charlm/builtintexts.h"

#include "builtinlongtext.h"

const std::string &builtInShortText()
{
    static const std::string text = "The quick brown fox jumps over the lazy dog.";
    return text;
}

const std::string &builtInLongText()
{
    static const std::string text(kBuiltInLongText);
    return text;
}
