#pragma once

#include <atomic>

// While one is alive, Ctrl+C asks the command's run to stop at its next batch (the engine reads
// flag()) instead of killing the process, so what was trained so far is written; afterwards Ctrl+C
// kills as usual.
class InterruptScope
{
public:
    InterruptScope();
    ~InterruptScope();
    InterruptScope(const InterruptScope &) = delete;
    InterruptScope &operator=(const InterruptScope &) = delete;

    const std::atomic<bool> *flag() const;
    bool interrupted() const { return flag()->load(); }
};
