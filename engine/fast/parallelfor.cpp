#include "engine/fast/parallelfor.h"

#include "engine/fast/helperthread.h"
#include "engine/fast/singlethreadscope.h"
#include "engine/fast/workerpool.h"

void parallelFor(int parts, const std::function<void(int)> &body, Workers workers)
{
    if (workers == Workers::Helper) {
        HelperThread::shared().run(parts, body);
        return;
    }
    const bool singleThreadedOps = workers == Workers::PooledSingleThreadedOps && parts > 1;
    const auto part = [&](int p) {
        const SingleThreadScope singleThread(singleThreadedOps);  // OpenMP's count is per thread
        body(p);
    };
    WorkerPool::shared().run(parts, part);
}
