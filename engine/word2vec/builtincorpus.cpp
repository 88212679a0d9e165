#include "engine/word2vec/builtincorpus.h"

#include "builtincorpustext.h"

const std::string &builtInWordCorpus()
{
    static const std::string text(kBuiltInCorpusText);
    return text;
}

const std::vector<WordCategory> &builtInWordCategories()
{
    static const std::vector<WordCategory> categories = {
        {"animals", {"cat", "dog", "horse", "cow", "sheep", "goat", "pig", "rabbit", "mouse", "fox", "wolf", "bear"}},
        {"foods",
         {"bread", "cheese", "apple", "rice", "soup", "cake", "meat", "egg", "pear", "banana", "butter", "honey"}},
        {"drinks", {"water", "milk", "tea", "coffee", "juice", "wine"}},
        {"countries", {"france", "germany", "italy", "spain", "japan", "china", "egypt", "greece"}},
        {"cities", {"paris", "berlin", "rome", "madrid", "tokyo", "beijing", "cairo", "athens"}},
        {"royalty", {"king", "queen", "prince", "princess"}},
        {"family", {"man", "woman", "boy", "girl", "father", "mother", "son", "daughter"}},
        {"verbs", {"eat", "drink", "run", "walk", "swim", "jump", "sing", "dance", "sleep", "read"}},
        {"colours", {"red", "blue", "green", "yellow", "black", "white", "brown", "grey"}},
        {"numbers", {"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}},
    };
    return categories;
}
