// Helpers shared by the topology, routing and traffic unit tests. The coordinate helpers are
// written independently of Topology (plain division), so tests can check Topology against them.
#pragma once

#include <utility>
#include <vector>

#include "topology.h"

namespace wormsim::testing {

inline Topology make_grid(TopologyKind kind, std::vector<int> dims) {
  TopologyConfig c;
  c.kind = kind;
  c.dims = std::move(dims);
  return Topology(c);
}

inline Topology make_hypercube(int n) {
  TopologyConfig c;
  c.kind = TopologyKind::kHypercube;
  c.dims.clear();
  c.hypercube_dimension = n;
  return Topology(c);
}

// Coordinates by division: dimension 0 varies fastest.
inline std::vector<int> coords_of(int n, const std::vector<int>& sides) {
  std::vector<int> c;
  for (int s : sides) {
    c.push_back(n % s);
    n /= s;
  }
  return c;
}

inline int id_of(const std::vector<int>& c, const std::vector<int>& sides) {
  int id = 0;
  int stride = 1;
  for (std::size_t d = 0; d < sides.size(); ++d) {
    id += c[d] * stride;
    stride *= sides[d];
  }
  return id;
}

// Directed links of the XY route a -> b on a mesh `side` nodes wide, written independently of
// RouteCompute: (node, direction) with direction 0..3 = +x, -x, +y, -y; x = id % side is
// resolved first.
inline std::vector<std::pair<int, int>> xy_links(int side, NodeId a, NodeId b) {
  std::vector<std::pair<int, int>> out;
  int x = static_cast<int>(a) % side, y = static_cast<int>(a) / side;
  const int tx = static_cast<int>(b) % side, ty = static_cast<int>(b) / side;
  for (; x != tx; x += tx > x ? 1 : -1) out.emplace_back(x + y * side, tx > x ? 0 : 1);
  for (; y != ty; y += ty > y ? 1 : -1) out.emplace_back(x + y * side, ty > y ? 2 : 3);
  return out;
}

}  // namespace wormsim::testing
