#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

class Seq2SeqModel;

// The weights of one training run after each of its epochs, in half precision (half the bytes of
// the model's own floats), so the run can be replayed epoch by epoch. Held within a byte budget:
// past it, the copy whose neighbours lie closest together is dropped, never the first or the
// latest, so a long run keeps a spread of epochs.
class WeightHistory
{
public:
    static constexpr std::size_t kDefaultBudgetBytes = std::size_t(256) << 20;
    explicit WeightHistory(std::size_t budgetBytes = kDefaultBudgetBytes);

    struct Tensor {
        std::string name;
        std::vector<std::int64_t> shape;
        std::vector<std::uint16_t> halves;  // IEEE-754 binary16
    };
    struct Copy {
        int epoch = 0;
        std::vector<Tensor> tensors;
    };
    // `model`'s weights after `epoch`, made where the model trains so that keeping them costs the
    // window's thread no conversion.
    static Copy copyOf(int epoch, const Seq2SeqModel &model);
    // Keeps `copy` as the weights after its epoch, in place of an earlier copy of that epoch.
    void add(Copy copy);
    void add(int epoch, const Seq2SeqModel &model) { add(copyOf(epoch, model)); }
    void clear();
    std::vector<int> epochs() const;  // ascending
    bool contains(int epoch) const;
    bool empty() const { return m_copies.empty(); }
    std::size_t bytes() const;        // the copies' weights
    std::size_t budgetBytes() const { return m_budget; }

    // A copy of `like` (configuration, vocabulary, dataset) with the weights after `epoch` and
    // its history cut to that epoch. Throws std::out_of_range for an epoch not kept and
    // std::invalid_argument when `like`'s tensors are not the ones copied.
    Seq2SeqModel modelAt(int epoch, const Seq2SeqModel &like) const;
    // Empty when every copy holds exactly `model`'s tensors, by name and shape; otherwise what
    // differs, for a message. Checks shapes only: no weights are copied.
    std::string mismatch(const Seq2SeqModel &model) const;

    // The copies as bytes, for project files, and back. decode() checks every count and length
    // against what is there and throws BinaryFormatError on damage.
    std::string encode() const;
    static WeightHistory decode(const std::string &bytes, std::size_t budgetBytes = kDefaultBudgetBytes);

private:
    static std::size_t bytesOf(const Copy &copy);
    static std::string mismatch(const Copy &copy, const Seq2SeqModel &model);
    void keepWithinBudget();

    std::vector<Copy> m_copies;  // ascending epoch
    std::size_t m_budget;
};
