#pragma once

#include <string>

// The lab's built-in training texts.
// A pangram-sized sentence: a model overfits it in seconds and then recites it.
const std::string &builtInShortText();
// A longer text (public-domain prose and verse, some tens of kilobytes): enough to learn words,
// spaces and punctuation, with a validation tail.
const std::string &builtInLongText();
