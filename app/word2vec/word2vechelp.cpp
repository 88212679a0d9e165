#include "app/word2vec/word2vechelp.h"

#include "app/core/helpformat.h"
#include "engine/word2vec/word2vecconfig.h"

std::string word2vecHelp()
{
    std::string text = R"(Usage: attnscope word2vec --corpus FILE --out DIR [--analogies FILE] [--similarity FILE]
                          [options]

Trains skip-gram (or CBOW) with negative sampling on a text file, one sentence or paragraph a
line, read as lower-cased runs of a-z. It writes DIR/vectors.txt (the word2vec text format, which
gensim's KeyedVectors.load_word2vec_format reads), metrics.json (the settings, loss and words/s per
epoch, corpus counts, peak memory, and the evaluation: --analogies FILE in the questions-words
format, --similarity FILE of "word1 word2 score" lines, Spearman), pca.png (the 100 most frequent
words on two principal components) and neighbours.txt (the 50 most frequent words, each with its
10 nearest by cosine). Ctrl+C stops after the current batch and writes what was trained.

Corpus options:
)";
    text += fieldLines(corpusFields());
    text += "Word2vec options:\n" + fieldLines(word2vecFields());
    text += optionLine("--analogies FILE", "Analogy questions in the questions-words format (\": section\" lines, "
                                           "then \"a b c d\" lines).");
    text += optionLine("--similarity FILE", "Word pairs with a human score, \"word1 word2 score\" a line.");
    return text + kExitCodes;
}

std::string neighboursHelp()
{
    return std::string(R"(Usage: attnscope neighbours --vectors FILE [--top N] word ...

Prints each word's nearest words by cosine in a vectors file (the word2vec text or binary format,
as word2vec writes it and gensim reads it), --top N of them (default 10).
)") + kExitCodes;
}

std::string analogyHelp()
{
    return std::string(R"(Usage: attnscope analogy --vectors FILE [--top N] a b c

Answers a : b :: c : ? in a vectors file: the words nearest to b - a + c, the three inputs excluded,
as gensim's most_similar does; --top N of them (default 5).
)") + kExitCodes;
}
