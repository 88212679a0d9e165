#include "engine/attention/weighthistory.h"

#include "engine/attention/seq2seqmodel.h"
#include "engine/attention/seq2seqnet.h"
#include "engine/core/binaryio.h"
#include "engine/core/torchapi.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

WeightHistory::WeightHistory(std::size_t budgetBytes) : m_budget(budgetBytes) {}

WeightHistory::Copy WeightHistory::copyOf(int epoch, const Seq2SeqModel &model)
{
    Copy copy;
    copy.epoch = epoch;
    for (const auto &item : model.net()->named_parameters(/*recurse=*/true)) {
        const torch::Tensor half = item.value().detach().to(torch::kHalf).contiguous();
        Tensor t{item.key(), half.sizes().vec(), std::vector<std::uint16_t>(std::size_t(half.numel()))};
        std::memcpy(t.halves.data(), half.data_ptr<at::Half>(), t.halves.size() * sizeof(std::uint16_t));
        copy.tensors.push_back(std::move(t));
    }
    return copy;
}

void WeightHistory::add(Copy copy)
{
    const int epoch = copy.epoch;
    const auto at = std::lower_bound(m_copies.begin(), m_copies.end(), epoch,
                                     [](const Copy &c, int e) { return c.epoch < e; });
    if (at != m_copies.end() && at->epoch == epoch)
        *at = std::move(copy);
    else
        m_copies.insert(at, std::move(copy));
    keepWithinBudget();
}

void WeightHistory::clear()
{
    m_copies.clear();
}

std::vector<int> WeightHistory::epochs() const
{
    std::vector<int> epochs;
    for (const Copy &c : m_copies)
        epochs.push_back(c.epoch);
    return epochs;
}

bool WeightHistory::contains(int epoch) const
{
    return std::any_of(m_copies.begin(), m_copies.end(), [epoch](const Copy &c) { return c.epoch == epoch; });
}

std::size_t WeightHistory::bytesOf(const Copy &copy)
{
    std::size_t bytes = 0;
    for (const Tensor &t : copy.tensors)
        bytes += t.halves.size() * sizeof(std::uint16_t);
    return bytes;
}

std::size_t WeightHistory::bytes() const
{
    std::size_t bytes = 0;
    for (const Copy &c : m_copies)
        bytes += bytesOf(c);
    return bytes;
}

void WeightHistory::keepWithinBudget()
{
    while (m_copies.size() > 2 && bytes() > m_budget) {
        std::size_t drop = 1;
        for (std::size_t i = 2; i + 1 < m_copies.size(); ++i)
            if (m_copies[i + 1].epoch - m_copies[i - 1].epoch < m_copies[drop + 1].epoch - m_copies[drop - 1].epoch)
                drop = i;
        m_copies.erase(m_copies.begin() + std::ptrdiff_t(drop));
    }
}

Seq2SeqModel WeightHistory::modelAt(int epoch, const Seq2SeqModel &like) const
{
    const auto copy = std::find_if(m_copies.begin(), m_copies.end(), [epoch](const Copy &c) { return c.epoch == epoch; });
    if (copy == m_copies.end())
        throw std::out_of_range("no weights are kept for epoch " + std::to_string(epoch));
    if (const std::string problem = mismatch(*copy, like); !problem.empty())
        throw std::invalid_argument(problem);
    Seq2SeqModel model = like.clone();
    const auto named = model.net()->named_parameters(/*recurse=*/true);
    torch::NoGradGuard noGrad;
    for (const Tensor &t : copy->tensors)
        named.find(t.name)->copy_(torch::from_blob(const_cast<std::uint16_t *>(t.halves.data()), t.shape, torch::kHalf));
    model.history.erase(std::remove_if(model.history.begin(), model.history.end(),
                                       [epoch](const EpochStats &e) { return e.epoch > epoch; }),
                        model.history.end());
    return model;
}

std::string WeightHistory::mismatch(const Copy &copy, const Seq2SeqModel &model)
{
    const auto named = model.net()->named_parameters(/*recurse=*/true);
    if (named.size() != copy.tensors.size())
        return "the model has " + std::to_string(named.size()) + " tensors; the copy of epoch "
               + std::to_string(copy.epoch) + " has " + std::to_string(copy.tensors.size());
    for (const Tensor &t : copy.tensors) {
        const torch::Tensor *target = named.find(t.name);
        if (!target || target->sizes().vec() != t.shape)
            return "the copy of epoch " + std::to_string(copy.epoch) + " holds tensor '" + t.name
                   + "', which the model does not have in that shape";
    }
    return {};
}

std::string WeightHistory::mismatch(const Seq2SeqModel &model) const
{
    for (const Copy &copy : m_copies)
        if (std::string problem = mismatch(copy, model); !problem.empty())
            return problem;
    return {};
}

std::string WeightHistory::encode() const
{
    std::size_t size = 4;
    for (const Copy &c : m_copies) {
        size += 8 + 4;
        for (const Tensor &t : c.tensors)
            size += 4 + t.name.size() + 4 + 8 * t.shape.size() + 2 * t.halves.size();
    }
    BinaryWriter w;
    w.reserve(size);  // one allocation: the copies can take hundreds of megabytes
    w.u32(std::uint32_t(m_copies.size()));
    for (const Copy &c : m_copies) {
        w.i64(c.epoch);
        w.u32(std::uint32_t(c.tensors.size()));
        for (const Tensor &t : c.tensors) {
            w.string(t.name);
            w.u32(std::uint32_t(t.shape.size()));
            for (std::int64_t size : t.shape)
                w.i64(size);
            w.u16s(t.halves.data(), t.halves.size());
        }
    }
    return w.release();
}

WeightHistory WeightHistory::decode(const std::string &bytes, std::size_t budgetBytes)
{
    BinaryReader r(bytes.data(), bytes.size());
    WeightHistory history(budgetBytes);
    history.m_copies.resize(r.count(/*itemBytes=*/12, 1u << 20));
    int previous = -1;
    for (Copy &c : history.m_copies) {
        const std::int64_t epoch = r.i64();
        if (epoch <= previous || epoch > (1 << 30))
            throw BinaryFormatError("epochs out of order");
        c.epoch = previous = int(epoch);
        c.tensors.resize(r.count(/*itemBytes=*/8, 4096));
        for (Tensor &t : c.tensors) {
            t.name = r.string(1024);
            t.shape.resize(r.count(/*itemBytes=*/8, 8));
            std::uint64_t elements = 1;
            for (std::int64_t &size : t.shape) {
                size = r.i64();
                if (size < 0 || size > (1ll << 31))
                    throw BinaryFormatError("tensor size out of range");
                elements *= std::uint64_t(size);
                if (elements > r.remaining())
                    throw BinaryFormatError("tensor larger than the data");
            }
            t.halves.resize(std::size_t(elements));
            r.u16s(t.halves.data(), t.halves.size());
        }
    }
    if (!r.atEnd())
        throw BinaryFormatError("unexpected bytes after the last copy");
    return history;
}
