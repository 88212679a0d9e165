#include "engine/fast/helperthread.h"

#include <chrono>
#include <utility>

#include <omp.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace {

// How long the helper waits for the next loop before it sleeps: a decode's loops come every
// 10-50 us; a sleeping helper takes ~50 us to wake.
constexpr auto kSpin = std::chrono::microseconds(500);

inline void relax()
{
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#endif
}

std::uint64_t generationOf(std::uint64_t claim)
{
    return claim >> 32;
}

}

HelperThread &HelperThread::shared()
{
    static HelperThread helper;
    return helper;
}

HelperThread::HelperThread()
    : m_thread([this] {
        omp_set_num_threads(1);  // its parts are already a share of the work: BLAS must not split them again
        loop();
    })
{
}

HelperThread::~HelperThread()
{
    {
        std::lock_guard<std::mutex> lock(m_sleep);
        m_stop = true;
    }
    m_wake.notify_one();
    m_thread.join();
}

void HelperThread::run(int parts, const std::function<void(int)> &job)
{
    thread_local bool running = false;  // a part that calls run() again runs the inner loop alone
    std::unique_lock<std::mutex> caller(m_caller, std::defer_lock);
    if (parts <= 1 || running || m_standby.load(std::memory_order_relaxed) > 0 || !caller.try_lock()) {
        for (int p = 0; p < parts; ++p)
            job(p);
        return;
    }
    running = true;
    m_job = &job;
    m_parts.store(parts, std::memory_order_relaxed);
    m_remaining.store(parts, std::memory_order_relaxed);
    const std::uint64_t generation = ++m_generation;
    m_claim.store(generation << 32);  // publishes the job; seq_cst, ordered before reading m_sleeping
    if (m_sleeping.load()) {
        std::lock_guard<std::mutex> lock(m_sleep);
        m_wake.notify_one();
    }
    work(generation);
    while (m_remaining.load(std::memory_order_acquire) != 0)
        relax();
    running = false;
    if (m_failed.load(std::memory_order_relaxed)) {
        m_failed.store(false, std::memory_order_relaxed);
        std::rethrow_exception(std::exchange(m_error, nullptr));
    }
}

HelperThread::Standby::Standby()
{
    ++shared().m_standby;
}

HelperThread::Standby::~Standby()
{
    --shared().m_standby;
}

void HelperThread::work(std::uint64_t generation)
{
    std::uint64_t claim = m_claim.load(std::memory_order_acquire);
    for (;;) {
        // A claim only succeeds while the loop is current, so m_job and m_parts are its own.
        if (generationOf(claim) != generation || int(claim & 0xffffffffu) >= m_parts.load(std::memory_order_relaxed))
            return;
        if (m_claim.compare_exchange_weak(claim, claim + 1, std::memory_order_acq_rel)) {
            runPart(int(claim & 0xffffffffu));
            m_remaining.fetch_sub(1, std::memory_order_release);
            claim = m_claim.load(std::memory_order_acquire);
        }
    }
}

void HelperThread::runPart(int part)
{
    try {
        (*m_job)(part);
    } catch (...) {
        if (!m_failed.exchange(true))
            m_error = std::current_exception();
    }
}

void HelperThread::loop()
{
    std::uint64_t seen = 0;
    while (!m_stop.load(std::memory_order_relaxed)) {
        const auto deadline = std::chrono::steady_clock::now() + kSpin;
        std::uint64_t generation = generationOf(m_claim.load(std::memory_order_acquire));
        for (int spins = 0; generation == seen; ++spins) {
            relax();
            generation = generationOf(m_claim.load(std::memory_order_acquire));
            if (generation == seen && spins % 64 == 0 && std::chrono::steady_clock::now() > deadline)
                break;
        }
        if (generation == seen) {
            std::unique_lock<std::mutex> lock(m_sleep);
            m_sleeping = true;  // seq_cst: either run() sees it and notifies, or we see its claim
            m_wake.wait(lock, [&] { return m_stop.load() || generationOf(m_claim.load()) != seen; });
            m_sleeping = false;
            continue;
        }
        seen = generation;
        work(generation);
    }
}
