#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

// A second thread that takes parts of a short loop off the calling thread, for work too fine for
// OpenMP's pool: one decode step's matrix-vector products take 10-40 us, about what waking a
// PASSIVE OpenMP thread costs. Between loops the helper spins while they come close together and
// sleeps after a while without work, so it costs nothing when idle. Parts are claimed, not
// assigned: when the helper is asleep or busy elsewhere the caller simply runs them all.
class HelperThread
{
public:
    // The process's helper. One caller uses it at a time; another caller meanwhile runs alone.
    static HelperThread &shared();
    ~HelperThread();
    HelperThread(const HelperThread &) = delete;
    HelperThread &operator=(const HelperThread &) = delete;

    // Runs job(0) ... job(parts - 1), each exactly once, on this thread and the helper; returns
    // when all have finished. An exception from a part is rethrown here once none is running.
    void run(int parts, const std::function<void(int)> &job);

    // While one exists, run() runs every part on the caller. Training holds one: with every core
    // busy, a helper preempted in the middle of a part would keep the caller waiting for a whole
    // scheduler slice, long enough to stall the GUI's event loop.
    class Standby
    {
    public:
        Standby();
        ~Standby();
        Standby(const Standby &) = delete;
        Standby &operator=(const Standby &) = delete;
    };

private:
    HelperThread();
    void loop();
    // Claims and runs parts of `generation` until none are left.
    void work(std::uint64_t generation);
    // Runs one part; the first exception of a loop is kept for its caller.
    void runPart(int part);

    std::mutex m_caller;
    std::uint64_t m_generation = 0;           // the caller's count of loops, under m_caller
    std::atomic<std::uint64_t> m_claim{0};    // generation << 32 | next unclaimed part
    std::atomic<int> m_remaining{0};          // parts of the current loop not finished yet
    std::atomic<int> m_parts{0};
    const std::function<void(int)> *m_job = nullptr;
    std::atomic<bool> m_failed{false};        // m_error holds a part's exception
    std::exception_ptr m_error;
    std::atomic<int> m_standby{0};
    std::atomic<bool> m_sleeping{false};
    std::atomic<bool> m_stop{false};
    std::mutex m_sleep;
    std::condition_variable m_wake;
    std::thread m_thread;
};
