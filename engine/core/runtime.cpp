#include "engine/core/runtime.h"

#include "engine/core/torchapi.h"

#include <atomic>
#include <cstdlib>
#include <malloc.h>
#include <omp.h>
#include <unistd.h>

namespace {

// The default set by the innermost IntraOpThreads; 0 while there is none.
std::atomic<int> g_defaultThreads{0};

// libgomp spin-waits between parallel regions; with the GUI thread or another process on the
// same cores that collapses training ~20x. It reads its wait policy once, when it loads before
// main(), so the process starts over with the policy set.
void waitPassively(char **argv)
{
    if (std::getenv("OMP_WAIT_POLICY"))
        return;
    setenv("OMP_WAIT_POLICY", "PASSIVE", 1);
    execv("/proc/self/exe", argv);
}

// Every training step allocates and frees tensors of a few hundred KiB. glibc serves those with
// mmap and returns them on free, so each one came back as fresh pages to fault in and zero: 8% of
// a training run in the kernel. Keeping freed memory in the heap costs no more than the peak.
void keepFreedMemory()
{
    mallopt(M_MMAP_THRESHOLD, 256 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    mallopt(M_TOP_PAD, 64 << 20);
}

}

void runtime::startProcess(char **argv)
{
    waitPassively(argv);
    keepFreedMemory();
}

// torch::get_num_threads() before setting: it sets up this thread's count on first use.
runtime::IntraOpThreads::IntraOpThreads(int threads)
    : m_previousDefault(g_defaultThreads.exchange(threads))
    , m_previousHere(torch::get_num_threads())
{
    torch::set_num_threads(threads);
}

// A thread that has never run an op takes at::intraop_default_num_threads() when no default is set.
runtime::IntraOpThreads::~IntraOpThreads()
{
    g_defaultThreads = m_previousDefault;
    torch::set_num_threads(m_previousDefault > 0 ? m_previousDefault : at::intraop_default_num_threads());
    omp_set_num_threads(m_previousHere);
}
