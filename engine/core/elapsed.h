#pragma once

#include <chrono>

// Seconds on the steady clock since `start`: what the trainers and the benches time with.
inline double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
