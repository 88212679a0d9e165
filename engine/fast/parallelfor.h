#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <vector>

// Who runs parallelFor's parts after the first; the first always runs on the calling thread.
enum class Workers {
    // Threads of the process's WorkerPool, kept between loops and woken for each (~50 us), for
    // parts of a millisecond or more.
    Pooled,
    // As Pooled, and every part, the caller's too, runs its ops on one intra-op thread
    // (SingleThreadScope): on this model's small multiplies whole parts side by side gain more than
    // splitting each op again.
    PooledSingleThreadedOps,
    // HelperThread, which spins between loops, for parts of microseconds, where waking a sleeping
    // thread costs as much as the work; while it is busy or on standby the caller runs every part.
    Helper,
};

// Runs body(0) ... body(parts - 1), each exactly once, on this thread and `workers`, and returns
// when all have finished. When a part throws, its exception is rethrown here once no part is
// running (the lowest part's when several throw with Pooled); parts not begun may be skipped.
void parallelFor(int parts, const std::function<void(int)> &body, Workers workers);

// Below this many values, a pass over floats (an optimiser's step, a sum) is not worth waking a
// worker (~50 us).
constexpr int64_t kValuesPerWorker = 64 * 1024;

// How many parts `work` items make when every part should have at least `minPerPart` of them:
// at least one, at most `maxParts`.
inline int partsFor(int64_t work, int64_t minPerPart, int maxParts)
{
    return int(std::max<int64_t>(1, std::min<int64_t>(maxParts, work / minPerPart)));
}

template <typename Count>
struct PartRange {
    Count begin, end;
};

// The items [begin, end) of part `part` when `count` items are cut into `parts` runs in order,
// whose sizes differ by at most one.
template <typename Count>
PartRange<Count> partRange(Count count, int part, int parts)
{
    return {count * part / parts, count * (part + 1) / parts};
}

// Runs shard(begin, end) over `rows` rows of a batch split into up to `workers` slices of at least
// `minRows` rows, each on its own thread running single-threaded ops: on this project's small
// multiplies, intra-op threads cost more than they bring, whole slices in parallel do not. Returns
// the shards' results in order.
template <typename Shard, typename Result = std::invoke_result_t<Shard, int64_t, int64_t>>
std::vector<Result> overShards(int64_t rows, int64_t minRows, int workers, const Shard &shard)
{
    const int shards = partsFor(rows, minRows, workers);
    std::vector<Result> results(static_cast<std::size_t>(shards));
    parallelFor(
        shards,
        [&](int s) {
            const auto [begin, end] = partRange(rows, s, shards);
            results[std::size_t(s)] = shard(begin, end);
        },
        Workers::PooledSingleThreadedOps);
    return results;
}
