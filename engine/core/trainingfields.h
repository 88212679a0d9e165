#pragma once

#include "engine/core/configfield.h"

// The fields every lab's training has, with one key, label and range in every lab's table; each
// lab's help says what they do there.
constexpr double kMaxThreads = 1024;
constexpr double kMaxEpochs = 100000;
constexpr double kMaxSeed = 2147483647;  // the largest int: seeds are typed into spin boxes

// 0 stands for every core: resolvedThreads() says how many that is.
template <auto Member>
auto threadsField(const char *help)
{
    return integerField<Member>("threads", "threads", 0, kMaxThreads, help, "all cores");
}

template <auto Member>
auto epochsField(const char *help)
{
    return integerField<Member>("epochs", "epochs", 1, kMaxEpochs, help);
}

template <auto Member>
auto seedField(const char *help)
{
    return integerField<Member>("seed", "seed", 0, kMaxSeed, help);
}

// The threads a run trains on for a threads field's value: the value, or every core when it is 0.
int resolvedThreads(int threads);
