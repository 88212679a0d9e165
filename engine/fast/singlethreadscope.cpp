#include "engine/fast/singlethreadscope.h"

#include "engine/core/torchapi.h"

#include <omp.h>

// torch::get_num_threads() first: it sets up this thread's OpenMP count on first use, which
// would otherwise undo ours.
SingleThreadScope::SingleThreadScope(bool active) : m_previous(active ? torch::get_num_threads() : 0)
{
    if (m_previous > 1)
        omp_set_num_threads(1);
}

SingleThreadScope::~SingleThreadScope()
{
    if (m_previous > 1)
        omp_set_num_threads(m_previous);
}
