#include "engine/fast/parallelfor.h"

#include "engine/fast/helperthread.h"
#include "engine/fast/singlethreadscope.h"

#include <future>
#include <vector>

void parallelFor(int parts, const std::function<void(int)> &body, Workers workers)
{
    if (workers == Workers::Helper) {
        HelperThread::shared().run(parts, body);
        return;
    }
    const bool singleThreadedOps = workers == Workers::StartedSingleThreadedOps && parts > 1;
    const auto part = [&](int p) {
        const SingleThreadScope singleThread(singleThreadedOps);  // OpenMP's count is per thread
        body(p);
    };
    // A future of std::async waits for its thread when destroyed, so a throw leaves none running.
    std::vector<std::future<void>> others;
    for (int p = 1; p < parts; ++p)
        others.push_back(std::async(std::launch::async, part, p));
    if (parts > 0)
        part(0);
    for (auto &f : others)
        f.get();
}
