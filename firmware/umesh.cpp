// U-mesh / recursive doubling forwarding rule and the dimension-ordered chain.
#include <algorithm>

#include "collective.h"
#include "software_multicast.h"

namespace wormsim::fw {

SendGroups one_per_step(const std::vector<NodeId>& sends) {
  SendGroups g;
  for (NodeId n : sends) g.push_back({n});
  return g;
}

std::vector<NodeId> dimension_ordered_chain(const Topology& topology, const std::vector<int>& order,
                                            std::vector<NodeId> nodes) {
  std::sort(nodes.begin(), nodes.end(), [&](NodeId a, NodeId b) {
    for (int d : order) {
      const int ca = topology.coord(a, d);
      const int cb = topology.coord(b, d);
      if (ca != cb) return ca < cb;
    }
    return false;
  });
  return nodes;
}

namespace {
// Seed 000 section 3.2.2: the holder at index h of [lo, hi] divides the range in half (the
// lower half has the extra node); in the lower half it sends to the first node of the upper
// half, in the upper half to the last node of the lower half; it keeps its own half. One
// definition with the synthetic terminals' software multicast (ni/software_multicast.h).
std::vector<SoftwareSend> sends_of(std::size_t h, std::size_t lo, std::size_t hi) {
  return software_sends(SoftwareMulticastScheme::kBinomialTree, static_cast<std::uint32_t>(h),
                        static_cast<std::uint32_t>(lo), static_cast<std::uint32_t>(hi));
}
}  // namespace

std::vector<NodeId> umesh_children(const std::vector<NodeId>& chain, std::size_t root_index,
                                   NodeId self) {
  const auto it = std::find(chain.begin(), chain.end(), self);
  if (it == chain.end() || chain.empty()) return {};
  const std::size_t me = static_cast<std::size_t>(it - chain.begin());
  std::size_t holder = root_index, lo = 0, hi = chain.size() - 1;
  while (holder != me) {
    bool found = false;
    for (const SoftwareSend& s : sends_of(holder, lo, hi)) {
      if (me < s.lo || me > s.hi) continue;
      holder = s.target;
      lo = s.lo;
      hi = s.hi;
      found = true;
      break;
    }
    if (!found) return {};  // unreachable: every index is in some send's range
  }
  std::vector<NodeId> out;
  for (const SoftwareSend& s : sends_of(me, lo, hi)) out.push_back(chain[s.target]);
  return out;
}

std::vector<NodeId> dimensional_children(const Topology& topology, const std::vector<int>& order,
                                         NodeId root, NodeId self) {
  const int dims = topology.dimensions();
  // Phase of self: the last dimension (in resolution order) in which it differs from root.
  int phase = -1;
  for (int q = 0; q < dims; ++q)
    if (topology.coord(self, order[static_cast<std::size_t>(q)]) !=
        topology.coord(root, order[static_cast<std::size_t>(q)]))
      phase = q;
  std::vector<NodeId> out;
  std::vector<int> coords(static_cast<std::size_t>(dims));
  for (int q = std::max(phase, 0); q < dims; ++q) {
    const int d = order[static_cast<std::size_t>(q)];
    for (int i = 0; i < dims; ++i) coords[static_cast<std::size_t>(i)] = topology.coord(self, i);
    std::vector<NodeId> line;
    for (int c = 0; c < topology.side(d); ++c) {
      coords[static_cast<std::size_t>(d)] = c;
      line.push_back(topology.node_at(coords));
    }
    // The line's holder at the start of phase q has root's coordinate in dimension d.
    const std::size_t line_root = static_cast<std::size_t>(topology.coord(root, d));
    if (q > phase && phase >= 0 && line[line_root] != self) continue;  // not a holder
    for (NodeId c : umesh_children(line, line_root, self)) out.push_back(c);
  }
  return out;
}

}  // namespace wormsim::fw
