#include "collective_data.h"

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

}  // namespace

std::vector<std::uint8_t> block(const Operation& op, NodeId from, NodeId to) {
  const std::uint64_t seed = 0x9e3779b97f4a7c15ull * (static_cast<std::uint64_t>(op.index) + 1) ^
                             (static_cast<std::uint64_t>(from) << 32) ^
                             (static_cast<std::uint64_t>(to) * 0xbf58476d1ce4e5b9ull);
  return pattern(seed, op.bytes);
}

std::vector<std::uint8_t> input_data(const Operation& op, NodeId node, int nodes) {
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
  }
  return in;
}

std::optional<std::vector<std::uint8_t>> expected_delivery(const Operation& op, NodeId node,
                                                           int nodes) {
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
  }
  throw std::logic_error("expected_delivery: unknown kind");
}

std::vector<NodeId> receivers(const Operation& op, int nodes) {
  switch (kind_of(op.algorithm)) {
    case CollectiveKind::kPingPong:
    case CollectiveKind::kGather: return {op.root};
    case CollectiveKind::kBroadcast:
    case CollectiveKind::kScatter: return op.destinations;
    case CollectiveKind::kAlltoall:
    case CollectiveKind::kBarrier: break;
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
