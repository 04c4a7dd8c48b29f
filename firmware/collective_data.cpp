#include "collective_data.h"

#include <cstring>
#include <stdexcept>

namespace wormsim::fw {

namespace {

std::vector<std::uint8_t> pattern(std::uint64_t seed, std::size_t n) {
  std::vector<std::uint8_t> d(n);
  std::uint64_t x = seed | 1;
  for (auto& b : d) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    b = static_cast<std::uint8_t>(x);
  }
  return d;
}

void append(std::vector<std::uint8_t>& to, const std::vector<std::uint8_t>& bytes) {
  to.insert(to.end(), bytes.begin(), bytes.end());
}

// A vector of op.bytes / element size small integers (-1000..1000; floating point: -100..100,
// so every partial sum of up to 65536 of them is exact and any reduction order gives the same
// bits), derived from block(op, node, kNoNode).
template <typename T>
std::vector<std::uint8_t> integers_as(const std::vector<std::uint8_t>& raw, int range) {
  std::vector<std::uint8_t> out(raw.size());
  for (std::size_t i = 0; i + sizeof(T) <= raw.size(); i += sizeof(T)) {
    std::uint32_t h = 0;
    for (std::size_t b = 0; b < sizeof(T); ++b) h = h * 257u + raw[i + b];
    const T v =
        static_cast<T>(static_cast<int>(h % static_cast<std::uint32_t>(2 * range + 1)) - range);
    std::memcpy(out.data() + i, &v, sizeof(T));
  }
  return out;
}

std::vector<std::uint8_t> reduction_input(const Operation& op, NodeId node) {
  const std::vector<std::uint8_t> raw = block(op, node, kNoNode);
  switch (op.reduce_type) {
    case ReduceType::kInt32: return integers_as<std::int32_t>(raw, 1000);
    case ReduceType::kInt64: return integers_as<std::int64_t>(raw, 1000);
    case ReduceType::kFloat32: return integers_as<float>(raw, 100);
    case ReduceType::kFloat64: return integers_as<double>(raw, 100);
  }
  throw std::logic_error("reduction_input: unknown type");
}

// The partner of node n in the transpose: the node at (y, x).
NodeId transposed(const Topology& t, NodeId n) { return t.node_at({t.coord(n, 1), t.coord(n, 0)}); }

}  // namespace

std::vector<std::uint8_t> block(const Operation& op, NodeId from, NodeId to) {
  const std::uint64_t seed = 0x9e3779b97f4a7c15ull * (static_cast<std::uint64_t>(op.index) + 1) ^
                             (static_cast<std::uint64_t>(from) << 32) ^
                             (static_cast<std::uint64_t>(to) * 0xbf58476d1ce4e5b9ull);
  return pattern(seed, op.bytes);
}

std::vector<std::uint8_t> input_data(const Operation& op, NodeId node, const Topology& topology) {
  const int nodes = topology.nodes();
  std::vector<std::uint8_t> in;
  switch (kind_of(op.algorithm)) {
    case CollectiveKind::kPingPong:
    case CollectiveKind::kBroadcast:
      if (node == op.root) in = block(op, op.root, kNoNode);
      break;
    case CollectiveKind::kScatter:
      if (node == op.root)
        for (NodeId d : op.destinations) append(in, block(op, op.root, d));
      break;
    case CollectiveKind::kGather: in = block(op, node, op.root); break;
    case CollectiveKind::kAlltoall:
      for (int j = 0; j < nodes; ++j) append(in, block(op, node, static_cast<NodeId>(j)));
      break;
    case CollectiveKind::kBarrier: break;
    case CollectiveKind::kReduce:
    case CollectiveKind::kAllreduce: in = reduction_input(op, node); break;
    case CollectiveKind::kAllgather: in = block(op, node, kNoNode); break;
    case CollectiveKind::kTranspose: in = block(op, node, transposed(topology, node)); break;
  }
  return in;
}

std::optional<std::vector<std::uint8_t>> expected_delivery(const Operation& op, NodeId node,
                                                           const Topology& topology) {
  const int nodes = topology.nodes();
  const auto is_destination = [&] {
    for (NodeId d : op.destinations)
      if (d == node) return true;
    return false;
  };
  std::vector<std::uint8_t> out;
  switch (kind_of(op.algorithm)) {
    case CollectiveKind::kPingPong:  // the peer delivers the ping, the root the echo
      if (node != op.root && !is_destination()) return std::nullopt;
      return block(op, op.root, kNoNode);
    case CollectiveKind::kBroadcast:
      if (!is_destination()) return std::nullopt;
      return block(op, op.root, kNoNode);
    case CollectiveKind::kScatter:
      if (!is_destination()) return std::nullopt;
      return block(op, op.root, node);
    case CollectiveKind::kGather:
      if (node != op.root) return std::nullopt;
      for (int i = 0; i < nodes; ++i) append(out, block(op, static_cast<NodeId>(i), op.root));
      return out;
    case CollectiveKind::kAlltoall:
      for (int i = 0; i < nodes; ++i) append(out, block(op, static_cast<NodeId>(i), node));
      return out;
    case CollectiveKind::kBarrier: return out;
    case CollectiveKind::kReduce:
    case CollectiveKind::kAllreduce: {
      if (kind_of(op.algorithm) == CollectiveKind::kReduce && node != op.root) return std::nullopt;
      const Combine combine = builtin_combine(op.reduce_op, op.reduce_type);
      out = reduction_input(op, 0);
      for (int i = 1; i < nodes; ++i) combine(out, reduction_input(op, static_cast<NodeId>(i)));
      return out;
    }
    case CollectiveKind::kAllgather:
      for (int i = 0; i < nodes; ++i) append(out, block(op, static_cast<NodeId>(i), kNoNode));
      return out;
    case CollectiveKind::kTranspose: return block(op, transposed(topology, node), node);
  }
  throw std::logic_error("expected_delivery: unknown kind");
}

std::vector<NodeId> receivers(const Operation& op, const Topology& topology) {
  const int nodes = topology.nodes();
  switch (kind_of(op.algorithm)) {
    case CollectiveKind::kPingPong:
    case CollectiveKind::kGather:
    case CollectiveKind::kReduce: return {op.root};
    case CollectiveKind::kBroadcast:
    case CollectiveKind::kScatter: return op.destinations;
    case CollectiveKind::kAlltoall:
    case CollectiveKind::kBarrier:
    case CollectiveKind::kAllreduce:
    case CollectiveKind::kAllgather:
    case CollectiveKind::kTranspose: break;
  }
  std::vector<NodeId> all;
  for (int n = 0; n < nodes; ++n) all.push_back(static_cast<NodeId>(n));
  return all;
}

Cycle barrier_arrival(const Operation& op, NodeId node) {
  const std::uint64_t h = (static_cast<std::uint64_t>(node) + 1) * 0x9e3779b97f4a7c15ull ^
                          (static_cast<std::uint64_t>(op.index) + 1) * 0xbf58476d1ce4e5b9ull;
  return static_cast<Cycle>((h >> 33) % 100) * 10;
}

}  // namespace wormsim::fw
