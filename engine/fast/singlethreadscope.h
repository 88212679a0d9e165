#pragma once

// Runs a scope on one intra-op thread. A few sentences' multiplies are too small to share: with
// OMP_WAIT_POLICY=PASSIVE, waking the second thread cost more than it saved (one sentence,
// 11 steps: 2.0 ms on one thread, 3.1-4.0 ms on two). It sets this thread's OpenMP count, which
// ATen and OpenBLAS both read, rather than the process's (runtime::IntraOpThreads): that also
// rebuilds torch's pthreadpool, ~95 us a pair here, a quarter of a sentence's decode.
class SingleThreadScope
{
public:
    explicit SingleThreadScope(bool active = true);
    ~SingleThreadScope();
    SingleThreadScope(const SingleThreadScope &) = delete;
    SingleThreadScope &operator=(const SingleThreadScope &) = delete;

private:
    int m_previous;
};
