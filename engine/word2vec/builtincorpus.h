#pragma once

#include <string>
#include <vector>

// The lab's built-in corpus: the material's toy sentences widened so that categories exist
// (animals, foods, places, verbs, ...), a few hundred short lines, one sentence a line.
const std::string &builtInWordCorpus();

// The categories its words were written in, so that a test (and a curious user) can check that
// neighbours stay within them.
struct WordCategory {
    std::string name;
    std::vector<std::string> words;
};
const std::vector<WordCategory> &builtInWordCategories();
