#include "engine/fast/workerpool.h"

struct WorkerPool::Worker {
    std::mutex mutex;
    std::condition_variable changed;
    std::function<void()> task;  // set by the caller, cleared by the worker when done
    bool stop = false;
    std::thread thread{[this] { loop(); }};

    void loop()
    {
        std::unique_lock<std::mutex> lock(mutex);
        for (;;) {
            changed.wait(lock, [this] { return stop || task; });
            if (stop)
                return;
            lock.unlock();
            task();
            lock.lock();
            task = nullptr;
            changed.notify_all();
        }
    }

    void start(std::function<void()> work)
    {
        {
            std::lock_guard<std::mutex> lock(mutex);
            task = std::move(work);
        }
        changed.notify_all();
    }

    void wait()
    {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [this] { return !task; });
    }
};

WorkerPool &WorkerPool::shared()
{
    static WorkerPool pool;
    return pool;
}

WorkerPool::~WorkerPool()
{
    for (const auto &worker : m_workers) {
        {
            std::lock_guard<std::mutex> lock(worker->mutex);
            worker->stop = true;
        }
        worker->changed.notify_all();
        worker->thread.join();
    }
}

WorkerPool::Worker *WorkerPool::borrow()
{
    std::lock_guard<std::mutex> lock(m_mutex);
    if (!m_idle.empty()) {
        Worker *worker = m_idle.back();
        m_idle.pop_back();
        return worker;
    }
    m_workers.push_back(std::make_unique<Worker>());
    return m_workers.back().get();
}

void WorkerPool::giveBack(Worker *worker)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    m_idle.push_back(worker);
}

void WorkerPool::run(int parts, const std::function<void(int)> &job)
{
    std::vector<Worker *> borrowed;
    std::vector<std::exception_ptr> errors(std::size_t(std::max(parts, 1)));
    for (int p = 1; p < parts; ++p) {
        Worker *worker = borrow();
        borrowed.push_back(worker);
        worker->start([&job, &errors, p] {
            try {
                job(p);
            } catch (...) {
                errors[std::size_t(p)] = std::current_exception();
            }
        });
    }
    if (parts > 0) {
        try {
            job(0);
        } catch (...) {
            errors[0] = std::current_exception();
        }
    }
    for (Worker *worker : borrowed) {
        worker->wait();
        giveBack(worker);
    }
    for (const std::exception_ptr &error : errors)
        if (error)
            std::rethrow_exception(error);
}
