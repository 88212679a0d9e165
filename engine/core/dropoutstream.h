#pragma once

#include "engine/core/torchapi.h"

#include <cstdint>

// Where a thread's dropout masks come from. LibTorch draws them from its one default generator, so
// threads that train shards of a batch at once take its numbers in whatever order they happen to
// run, and no two runs are alike. While a DropoutStream exists, dropoutFromStream() on its thread
// draws from a generator of the stream's own, seeded from (seed, step, shard): the same masks
// every run, whatever the timing. Streams nest; each ends on the thread it began on.
class DropoutStream
{
public:
    DropoutStream(std::uint64_t seed, std::uint64_t step, std::uint64_t shard);
    ~DropoutStream();
    DropoutStream(const DropoutStream &) = delete;
    DropoutStream &operator=(const DropoutStream &) = delete;

private:
    at::Generator m_generator;
    DropoutStream *m_previous;
    friend torch::Tensor dropoutFromStream(const torch::Tensor &input, double p, bool training);
};

// torch::dropout(input, p, training), the mask drawn from this thread's DropoutStream when one is
// open and from LibTorch's default generator otherwise.
torch::Tensor dropoutFromStream(const torch::Tensor &input, double p, bool training);

// torch::nn::Dropout, drawing its masks through dropoutFromStream().
class StreamDropoutImpl : public torch::nn::Module
{
public:
    explicit StreamDropoutImpl(double p) : m_p(p) {}
    torch::Tensor forward(const torch::Tensor &input) { return dropoutFromStream(input, m_p, is_training()); }

private:
    double m_p;
};
TORCH_MODULE(StreamDropout);
