#include "communicator.h"

#include <stdexcept>
#include <string>

namespace wormsim::fw {

namespace {

ReduceType type_of_width(int element_bytes) {
  if (element_bytes == 4) return ReduceType::kInt32;
  if (element_bytes == 8) return ReduceType::kInt64;
  throw std::invalid_argument("a user reduction operator takes elements of 4 or 8 bytes, not " +
                              std::to_string(element_bytes));
}

std::vector<std::uint8_t> slice(const std::vector<std::uint8_t>& v, std::size_t block,
                                std::size_t bytes) {
  if (v.size() < (block + 1) * bytes)
    throw std::invalid_argument("a buffer of " + std::to_string(v.size()) + " bytes has no block " +
                                std::to_string(block) + " of " + std::to_string(bytes) + " bytes");
  return {v.begin() + static_cast<std::ptrdiff_t>(block * bytes),
          v.begin() + static_cast<std::ptrdiff_t>((block + 1) * bytes)};
}

}  // namespace

Operation Communicator::operation(const char* call, CollectiveKind kind, CollectiveAlgorithm alg,
                                  NodeId root, std::uint32_t bytes) {
  if (kind_of(alg) != kind)
    throw std::invalid_argument(std::string(call) + ": " + to_string(alg) + " is a " +
                                to_string(kind_of(alg)) + " algorithm, not a " + to_string(kind) +
                                " one");
  if (root >= static_cast<NodeId>(size()))
    throw std::invalid_argument(std::string(call) + ": root " + std::to_string(root) +
                                " is not a rank (" + std::to_string(size()) + " ranks)");
  Operation op;
  op.index = next_index_++;
  op.algorithm = alg;
  op.root = root;
  op.bytes = bytes;
  for (int n = 0; n < size(); ++n)
    if (static_cast<NodeId>(n) != root) op.destinations.push_back(static_cast<NodeId>(n));
  return op;
}

std::vector<std::uint8_t> Communicator::run(const Operation& op,
                                            const std::vector<std::uint8_t>& data,
                                            std::vector<std::uint8_t> fallback) {
  std::vector<std::uint8_t> result = std::move(fallback);
  run_collective(
      rt_, op, data, [&](const std::vector<std::uint8_t>& d) { result = d; }, tables_);
  return result;
}

std::vector<std::uint8_t> Communicator::bcast(const std::vector<std::uint8_t>& data, NodeId root,
                                              CollectiveAlgorithm alg) {
  const Operation op = operation("bcast", CollectiveKind::kBroadcast, alg, root,
                                 static_cast<std::uint32_t>(data.size()));
  return run(op, data, rt_.id() == root ? data : std::vector<std::uint8_t>{});
}

std::vector<std::uint8_t> Communicator::scatter(const std::vector<std::uint8_t>& sendbuf,
                                                std::uint32_t block_bytes, NodeId root,
                                                CollectiveAlgorithm alg) {
  const Operation op = operation("scatter", CollectiveKind::kScatter, alg, root, block_bytes);
  if (rt_.id() != root) return run(op, {}, {});
  // The algorithms take the destinations' blocks in op.destinations order (the root's own
  // block stays here).
  std::vector<std::uint8_t> others;
  for (NodeId d : op.destinations) {
    const std::vector<std::uint8_t> b = slice(sendbuf, d, block_bytes);
    others.insert(others.end(), b.begin(), b.end());
  }
  return run(op, others, slice(sendbuf, root, block_bytes));
}

std::vector<std::uint8_t> Communicator::gather(const std::vector<std::uint8_t>& block, NodeId root,
                                               CollectiveAlgorithm alg) {
  const Operation op = operation("gather", CollectiveKind::kGather, alg, root,
                                 static_cast<std::uint32_t>(block.size()));
  return run(op, block, {});
}

std::vector<std::uint8_t> Communicator::reduce(const std::vector<std::uint8_t>& data, NodeId root,
                                               ReduceOp rop, ReduceType type,
                                               CollectiveAlgorithm alg) {
  Operation op = operation("reduce", CollectiveKind::kReduce, alg, root,
                           static_cast<std::uint32_t>(data.size()));
  op.reduce_op = rop;
  op.reduce_type = type;
  return run(op, data, {});
}

std::vector<std::uint8_t> Communicator::reduce(const std::vector<std::uint8_t>& data, NodeId root,
                                               const Combine& combine, int element_bytes) {
  Operation op = operation("reduce", CollectiveKind::kReduce, CollectiveAlgorithm::kReduceBinomial,
                           root, static_cast<std::uint32_t>(data.size()));
  op.reduce_type = type_of_width(element_bytes);
  std::vector<std::uint8_t> result;
  reduce_binomial(
      rt_, op, data, [&](const std::vector<std::uint8_t>& d) { result = d; }, combine,
      tables_.combine_cycles_per_element);
  return result;
}

std::vector<std::uint8_t> Communicator::allreduce(const std::vector<std::uint8_t>& data,
                                                  ReduceOp rop, ReduceType type,
                                                  CollectiveAlgorithm alg) {
  Operation op = operation("allreduce", CollectiveKind::kAllreduce, alg, 0,
                           static_cast<std::uint32_t>(data.size()));
  op.reduce_op = rop;
  op.reduce_type = type;
  return run(op, data, {});
}

std::vector<std::uint8_t> Communicator::allreduce(const std::vector<std::uint8_t>& data,
                                                  const Combine& combine, int element_bytes) {
  Operation op = operation("allreduce", CollectiveKind::kAllreduce,
                           CollectiveAlgorithm::kAllreduceRecursiveDoubling, 0,
                           static_cast<std::uint32_t>(data.size()));
  op.reduce_type = type_of_width(element_bytes);
  std::vector<std::uint8_t> result;
  allreduce_recursive_doubling(
      rt_, op, data, [&](const std::vector<std::uint8_t>& d) { result = d; }, combine,
      tables_.combine_cycles_per_element);
  return result;
}

std::vector<std::uint8_t> Communicator::allgather(const std::vector<std::uint8_t>& block,
                                                  CollectiveAlgorithm alg) {
  const Operation op = operation("allgather", CollectiveKind::kAllgather, alg, 0,
                                 static_cast<std::uint32_t>(block.size()));
  return run(op, block, {});
}

std::vector<std::uint8_t> Communicator::alltoall(const std::vector<std::uint8_t>& sendbuf,
                                                 std::uint32_t block_bytes,
                                                 CollectiveAlgorithm alg) {
  const Operation op = operation("alltoall", CollectiveKind::kAlltoall, alg, 0, block_bytes);
  if (sendbuf.size() != static_cast<std::size_t>(size()) * block_bytes)
    throw std::invalid_argument("alltoall: sendbuf holds " + std::to_string(sendbuf.size()) +
                                " bytes, not " + std::to_string(size()) + " blocks of " +
                                std::to_string(block_bytes));
  return run(op, sendbuf, {});
}

void Communicator::barrier(CollectiveAlgorithm alg) {
  run(operation("barrier", CollectiveKind::kBarrier, alg, 0, 0), {}, {});
}

}  // namespace wormsim::fw
