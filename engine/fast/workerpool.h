#pragma once

#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

// Threads kept between parallel loops, for parts of a millisecond or more: a kept thread finds
// its memory already mapped, where a new one's first pass over a model's buffers waits on page
// faults. Any number of callers at once: each borrows idle workers and starts more when none is.
class WorkerPool
{
public:
    static WorkerPool &shared();
    ~WorkerPool();
    WorkerPool(const WorkerPool &) = delete;
    WorkerPool &operator=(const WorkerPool &) = delete;

    // Runs job(1) ... job(parts - 1) on borrowed workers while the caller runs job(0); returns when
    // all have finished. The first part's exception, or else the lowest other part's, is rethrown.
    void run(int parts, const std::function<void(int)> &job);

private:
    struct Worker;
    WorkerPool() = default;
    Worker *borrow();
    void giveBack(Worker *worker);

    std::mutex m_mutex;
    std::vector<std::unique_ptr<Worker>> m_workers;  // every worker, for the destructor
    std::vector<Worker *> m_idle;
};
