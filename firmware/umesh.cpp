// U-mesh / recursive doubling forwarding rule and the dimension-ordered chain.
#include <algorithm>

#include "collective.h"

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
struct Send {
  std::size_t target;
  std::size_t lo, hi;  // range the target becomes responsible for
};

// Seed 000 section 3.2.2: the holder at index h of [lo, hi] divides the range in half (the
// lower half has the extra node); in the lower half it sends to the first node of the upper
// half, in the upper half to the last node of the lower half; it keeps its own half.
std::vector<Send> sends_of(std::size_t h, std::size_t lo, std::size_t hi) {
  std::vector<Send> out;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo + 2) / 2;  // first index of the upper half
    if (h < mid) {
      out.push_back({mid, mid, hi});
      hi = mid - 1;
    } else {
      out.push_back({mid - 1, lo, mid - 1});
      lo = mid;
    }
  }
  return out;
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
    for (const Send& s : sends_of(holder, lo, hi)) {
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
  for (const Send& s : sends_of(me, lo, hi)) out.push_back(chain[s.target]);
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
