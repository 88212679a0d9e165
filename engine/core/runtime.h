#pragma once

// The settings of the runtime under the engine that hold for a whole process: OpenMP's wait
// policy, glibc's allocator and LibTorch's intra-op thread count. startProcess() sets the first two
// once; the thread count is changed only for a scope (IntraOpThreads here, SingleThreadScope on a
// hot path), which puts back what it found.
namespace runtime {

// The first call in main(). It may start the process over (see runtime.cpp), so nothing before it
// may have effects that matter.
void startProcess(char **argv);

// LibTorch's intra-op thread count for a scope: this thread's, and the default that any thread
// takes when it first runs an op (parallelFor's threads, say). It rebuilds torch's thread pool, so
// it is for whole runs, not steps. The default is one value for the process: scopes on different
// threads must end in the reverse order they began.
class IntraOpThreads
{
public:
    explicit IntraOpThreads(int threads);
    ~IntraOpThreads();
    IntraOpThreads(const IntraOpThreads &) = delete;
    IntraOpThreads &operator=(const IntraOpThreads &) = delete;

private:
    int m_previousDefault;  // 0: LibTorch's own
    int m_previousHere;
};

}
