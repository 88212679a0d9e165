#include "engine/attention/datasetconfig.h"

#include <sstream>

const char *taskName(Task task)
{
    return task == Task::Copy ? "copy" : "reverse";
}

bool parseTask(const std::string &name, Task *task)
{
    if (name == "reverse")
        *task = Task::Reverse;
    else if (name == "copy")
        *task = Task::Copy;
    else
        return false;
    return true;
}

std::vector<std::string> DatasetConfig::defaultWords()
{
    return {"the",  "cat",   "sat",   "dog",  "ran",   "big",    "small", "red",   "blue",
            "on",   "in",    "mat",   "hat",  "house", "car",    "tree",  "bird",  "fish",
            "quick", "lazy", "brown", "fox",  "jumps", "over",   "eats",  "drinks", "happy",
            "sad",  "fast",  "slow",  "old",  "new",   "hot",    "cold"};
}

std::string validate(const DatasetConfig &c)
{
    std::ostringstream out;
    if (c.corpusPath.empty() && c.words.empty())
        out << "the word list is empty";
    else if (c.minLength < 1)
        out << "minimum length must be at least 1 (got " << c.minLength << ")";
    else if (c.maxLength < c.minLength)
        out << "maximum length " << c.maxLength << " is below the minimum length " << c.minLength;
    else if (c.maxLength > 100)
        out << "maximum length must be at most 100 (got " << c.maxLength << ")";
    else if (c.corpusPath.empty() && (c.trainSize < 1 || c.valSize < 1 || c.testSize < 1))
        out << "train, validation and test sizes must each be at least 1";
    else if (c.trainSize > 10000000 || c.valSize > 10000000 || c.testSize > 10000000)
        out << "split sizes must be at most 10,000,000";
    else if (!c.corpusPath.empty()
             && !(c.valFraction > 0 && c.testFraction > 0 && c.valFraction + c.testFraction < 1))  // NaN too
        out << "validation and test fractions must be positive and leave some training data";
    else if (c.maxVocabulary < 0)
        out << "maximum vocabulary size cannot be negative";
    else if (c.minCount < 1)
        out << "minimum word count must be at least 1";
    return out.str();
}
