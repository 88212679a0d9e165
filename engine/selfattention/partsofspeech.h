#pragma once

#include "engine/selfattention/matrix.h"

#include <string>
#include <vector>

// Parts of speech for the reflection question "do verbs spread attention differently from nouns?".
enum class PartOfSpeech { Untagged, Noun, Pronoun, Verb, Adverb, Adjective, Other };

// Every part in the order a click cycles through them, Untagged first.
const std::vector<PartOfSpeech> &partsOfSpeech();
const char *partName(PartOfSpeech part);  // "noun", …; "untagged"

// The self-attention exercise's four sentences: I love AI, AI loves me, Birds can fly, Students
// learn quickly.
const std::vector<std::string> &courseSentences();

// The course sentences' words (and "deeply", which the exercise adds), case-insensitive; any other
// word is Untagged until someone tags it.
PartOfSpeech courseTag(const std::string &word);

// How the words of one part give and receive attention.
struct PartAttention {
    PartOfSpeech part = PartOfSpeech::Untagged;
    int words = 0;
    double meanEntropy = 0;   // of their rows, in nats: how widely they spread their attention
    double meanSelf = 0;      // the weight they give themselves
    double meanReceived = 0;  // the mean weight a query gives one of them (column mean)
};

// One entry per part that tags at least one word, in partsOfSpeech() order, Untagged left out.
// Throws std::invalid_argument unless there is one tag per row of a square `weights`.
std::vector<PartAttention> attentionByPart(const Matrix &weights, const std::vector<PartOfSpeech> &tags);
