#include "engine/core/dropoutstream.h"

#include <ATen/CPUGeneratorImpl.h>

namespace {

thread_local DropoutStream *t_stream = nullptr;

// SplitMix64's finaliser: nearby steps and shards give unrelated seeds.
std::uint64_t mixed(std::uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

}

DropoutStream::DropoutStream(std::uint64_t seed, std::uint64_t step, std::uint64_t shard)
    : m_generator(at::make_generator<at::CPUGeneratorImpl>(mixed(mixed(mixed(seed) ^ step) ^ shard)))
    , m_previous(t_stream)
{
    t_stream = this;
}

DropoutStream::~DropoutStream()
{
    t_stream = m_previous;
}

torch::Tensor dropoutFromStream(const torch::Tensor &input, double p, bool training)
{
    if (!t_stream || !training || p <= 0 || p >= 1)
        return torch::dropout(input, p, training);
    // torch::dropout's arithmetic: kept values scaled by 1 / (1 - p), the mask a constant.
    const torch::Tensor mask = torch::empty_like(input).bernoulli_(1 - p, t_stream->m_generator).div_(1 - p);
    return input * mask;
}
