#pragma once

// Runs a scope on one intra-op thread. A few sentences' multiplies are too small to share: with
// OMP_WAIT_POLICY=PASSIVE, waking the second thread costs more than it saves. It sets this
// thread's OpenMP count, which ATen and OpenBLAS both read, rather than the process's
// (runtime::IntraOpThreads): that also rebuilds torch's pthreadpool, which takes a sizeable
// share of a sentence's decode.
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
