#include "traffic_pattern.h"

#include <algorithm>

namespace wormsim {

DestinationPicker::DestinationPicker(const Topology& topology, const TrafficConfig& config)
    : topology_(topology), config_(config) {}

NodeId DestinationPicker::uniform_other(NodeId src, std::mt19937_64& rng) const {
  std::uniform_int_distribution<NodeId> dist(0, static_cast<NodeId>(topology_.nodes() - 2));
  const NodeId d = dist(rng);
  return d >= src ? d + 1 : d;
}

NodeId DestinationPicker::permutation(NodeId src) const {
  const int n = topology_.dimensions();
  if (topology_.kind() == TopologyKind::kHypercube) {
    const int half = n / 2;
    const NodeId low_mask = (NodeId{1} << half) - 1;
    if (config_.pattern == TrafficPattern::kTranspose)
      return ((src & low_mask) << half) | (src >> half);
    return ~src & ((NodeId{1} << n) - 1);
  }
  std::vector<int> c(static_cast<std::size_t>(n));
  for (int d = 0; d < n; ++d) {
    const int v = topology_.coord(src, d);
    if (config_.pattern == TrafficPattern::kTranspose)
      c[static_cast<std::size_t>(n - 1 - d)] = v;
    else
      c[static_cast<std::size_t>(d)] = topology_.side(d) - 1 - v;
  }
  return topology_.node_at(c);
}

bool DestinationPicker::injects(NodeId src) const {
  if (topology_.nodes() < 2) return false;
  if (config_.pattern == TrafficPattern::kTranspose ||
      config_.pattern == TrafficPattern::kBitComplement)
    return permutation(src) != src;
  return true;
}

NodeId DestinationPicker::pick(NodeId src, std::mt19937_64& rng) const {
  switch (config_.pattern) {
    case TrafficPattern::kUniformRandom: return uniform_other(src, rng);
    case TrafficPattern::kTranspose:
    case TrafficPattern::kBitComplement: {
      const NodeId d = permutation(src);
      return d == src ? kNoNode : d;
    }
    case TrafficPattern::kHotspot: {
      std::bernoulli_distribution hot(config_.hotspot.fraction);
      if (hot(rng)) {
        std::uniform_int_distribution<std::size_t> which(0, config_.hotspot.nodes.size() - 1);
        const NodeId d = config_.hotspot.nodes[which(rng)];
        if (d != src) return d;
      }
      return uniform_other(src, rng);
    }
    case TrafficPattern::kNearestNeighbor: {
      NodeId candidates[32];  // network ports <= 16 (hypercube)
      int count = 0;
      for (int p = 0; p < topology_.network_ports(); ++p) {
        const NodeId nb = topology_.neighbor(src, p);
        // On a side-2 torus the + and - neighbour coincide: count each node once.
        if (nb != kNoNode && nb != src &&
            std::find(candidates, candidates + count, nb) == candidates + count)
          candidates[count++] = nb;
      }
      if (count == 0) return kNoNode;
      std::uniform_int_distribution<int> which(0, count - 1);
      return candidates[which(rng)];
    }
  }
  return kNoNode;
}

}  // namespace wormsim
