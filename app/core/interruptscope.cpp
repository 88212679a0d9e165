#include "app/core/interruptscope.h"

#include <csignal>

namespace {

std::atomic<bool> g_interrupted{false};

}

InterruptScope::InterruptScope()
{
    g_interrupted = false;
    std::signal(SIGINT, [](int) { g_interrupted = true; });
}

InterruptScope::~InterruptScope()
{
    std::signal(SIGINT, SIG_DFL);
}

const std::atomic<bool> *InterruptScope::flag() const
{
    return &g_interrupted;
}
