#include "engine/core/trainingfields.h"

#include <algorithm>
#include <thread>

int resolvedThreads(int threads)
{
    return threads > 0 ? threads : int(std::max(1u, std::thread::hardware_concurrency()));
}
