// Reduction to a root and allreduce with any element-wise operator (the personalized-
// collectives issue; MPI_Reduce and MPI_Allreduce semantics). The built-in operators: sum,
// max and min over little-endian int32, int64, float32 and float64 vectors.
//  - reduce_binomial: binomial tree over ranks relative to the root (rank r = (node - root)
//    mod p): in round k a node whose rank has bit k as its lowest set bit sends its partial
//    result to rank r - 2^k and is done; a node with rank r + 2^k < p receives from it and
//    combines. ceil(log2 p) rounds, tagged 1..ceil(log2 p); p - 1 messages.
//  - allreduce_recursive_doubling: Thakur, Rabenseifner and Gropp, "Optimization of collective
//    communication operations in MPICH", IJHPCA 19(1), 2005, section 4.4 (recursive doubling
//    with the non-power-of-two fold): with p' = 2^floor(log2 p) and r = p - p', nodes 2i and
//    2i + 1 (i < r) first fold into 2i + 1; the p' remaining nodes exchange with the partner
//    whose (new) rank differs in bit k in round k and combine (the lower rank's vector first,
//    so every node computes the same result for any operator); then 2i + 1 returns the result
//    to 2i. log2 p' steps, plus 2 when p is not a power of two.
// Combining costs (op.bytes / element size) x combine_cycles cycles of processor time after
// each received vector.
#include <cstring>
#include <stdexcept>
#include <string>

#include "collective.h"
#include "mailbox.h"

namespace wormsim::fw {

namespace {

template <typename T>
void combine_as(ReduceOp op, std::vector<std::uint8_t>& acc, const std::vector<std::uint8_t>& in) {
  if (acc.size() != in.size() || acc.size() % sizeof(T) != 0)
    throw std::logic_error("combine: vectors of " + std::to_string(acc.size()) + " and " +
                           std::to_string(in.size()) + " bytes");
  for (std::size_t i = 0; i < acc.size(); i += sizeof(T)) {
    T a;
    T b;
    std::memcpy(&a, acc.data() + i, sizeof(T));
    std::memcpy(&b, in.data() + i, sizeof(T));
    const T r = op == ReduceOp::kSum   ? static_cast<T>(a + b)
                : op == ReduceOp::kMax ? (b > a ? b : a)
                                       : (b < a ? b : a);
    std::memcpy(acc.data() + i, &r, sizeof(T));
  }
}

void charge(Runtime& rt, const Operation& op, Cycle combine_cycles) {
  const auto elements =
      static_cast<Cycle>(op.bytes) / static_cast<Cycle>(element_bytes(op.reduce_type));
  if (combine_cycles > 0) rt.compute(elements * combine_cycles);
}

}  // namespace

Combine builtin_combine(ReduceOp op, ReduceType type) {
  switch (type) {
    case ReduceType::kInt32:
      return [op](auto& acc, const auto& in) { combine_as<std::int32_t>(op, acc, in); };
    case ReduceType::kInt64:
      return [op](auto& acc, const auto& in) { combine_as<std::int64_t>(op, acc, in); };
    case ReduceType::kFloat32:
      return [op](auto& acc, const auto& in) { combine_as<float>(op, acc, in); };
    case ReduceType::kFloat64:
      return [op](auto& acc, const auto& in) { combine_as<double>(op, acc, in); };
  }
  throw std::logic_error("builtin_combine: unknown type");
}

void reduce_binomial(Runtime& rt, const Operation& op, std::vector<std::uint8_t> data,
                     const Deliver& deliver, const Combine& combine, Cycle combine_cycles) {
  const auto p = static_cast<std::uint32_t>(rt.nodes());
  const std::uint32_t rank = (rt.id() + p - op.root) % p;
  const auto node = [&](std::uint32_t r) { return static_cast<NodeId>((r + op.root) % p); };
  Mailbox box(rt);
  std::uint32_t round = 1;
  for (std::uint32_t mask = 1; mask < p; mask <<= 1, ++round) {
    if (rank & mask) {
      rt.send(node(rank - mask), data, round);
      return;
    }
    if (rank + mask < p) {
      combine(data, box.take(node(rank + mask), round).data);
      charge(rt, op, combine_cycles);
    }
  }
  if (box.unclaimed() > 0) throw std::logic_error("reduce_binomial: unexpected messages");
  deliver(data);
}

void allreduce_recursive_doubling(Runtime& rt, const Operation& op, std::vector<std::uint8_t> data,
                                  const Deliver& deliver, const Combine& combine,
                                  Cycle combine_cycles) {
  const auto p = static_cast<std::uint32_t>(rt.nodes());
  const std::uint32_t self = rt.id();
  std::uint32_t p2 = 1;
  while (p2 * 2 <= p) p2 *= 2;
  const std::uint32_t extra = p - p2;  // nodes 0..2 extra - 1 fold pairwise
  Mailbox box(rt);
  std::uint32_t tag = 0;
  // `first` (op) `second`, whichever this node holds.
  const auto merge = [&](std::vector<std::uint8_t>& mine, std::vector<std::uint8_t> theirs,
                         bool mine_first) {
    if (mine_first) {
      combine(mine, theirs);
    } else {
      combine(theirs, mine);
      mine = std::move(theirs);
    }
    charge(rt, op, combine_cycles);
  };
  if (extra > 0) {
    ++tag;
    if (self < 2 * extra && self % 2 == 0) {  // folds into self + 1, waits for the result
      rt.send(self + 1, data, tag);
      std::uint32_t rounds = 0;
      for (std::uint32_t m = 1; m < p2; m <<= 1) ++rounds;
      deliver(box.take(self + 1, tag + rounds + 1).data);
      return;
    }
    if (self < 2 * extra) merge(data, box.take(self - 1, tag).data, false);
  }
  const std::uint32_t rank = self < 2 * extra ? self / 2 : self - extra;
  const auto node = [&](std::uint32_t r) { return r < extra ? 2 * r + 1 : r + extra; };
  for (std::uint32_t mask = 1; mask < p2; mask <<= 1) {
    ++tag;
    const std::uint32_t partner = rank ^ mask;
    rt.send(node(partner), data, tag);
    merge(data, box.take(node(partner), tag).data, rank < partner);
  }
  if (extra > 0 && self < 2 * extra) rt.send(self - 1, data, tag + 1);
  if (box.unclaimed() > 0)
    throw std::logic_error("allreduce_recursive_doubling: unexpected messages");
  deliver(data);
}

}  // namespace wormsim::fw
