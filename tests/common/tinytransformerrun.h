#pragma once

#include <QString>
#include <QStringList>

// The options of a Transformer that `attnscope train --architecture transformer` trains in a second
// or two: one layer of two heads, 8 wide, on sentences of 2 to 4 of the words in `wordsFile`.
inline QStringList tinyRun(const QString &wordsFile)
{
    return {"--words-file", wordsFile, "--min-len", "2", "--max-len", "4", "--train", "200", "--val", "20",
            "--test", "20", "--layers", "1", "--heads", "2", "--d-model", "8", "--feed-forward", "16",
            "--batch", "32", "--threads", "1"};
}
