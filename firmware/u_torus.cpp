// U-torus multicast and broadcast (seed 000 sections 4.4.1-4.4.2, the baseline of Figs.
// 4.13-4.16; the algorithm is Robinson, McKinley and Cheng's, seed 000 reference [124]): U-mesh's
// recursive halving (section 3.2.2) over the chain of the root and the destinations sorted by
// their addresses relative to the root. ceil(log2 N) steps for N nodes.
#include <algorithm>

#include "collective.h"
#include "tree_forward.h"

namespace wormsim::fw {

std::vector<NodeId> u_torus_chain(const Topology& topology, const std::vector<int>& order,
                                  NodeId root, std::vector<NodeId> nodes) {
  const auto relative = [&](NodeId n, int d) {
    const int k = topology.side(d);
    return (topology.coord(n, d) - topology.coord(root, d) + k) % k;
  };
  std::sort(nodes.begin(), nodes.end(), [&](NodeId a, NodeId b) {
    for (int d : order) {
      const int ra = relative(a, d), rb = relative(b, d);
      if (ra != rb) return ra < rb;
    }
    return false;
  });
  return nodes;
}

void run_u_torus(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                 const Deliver& deliver, const FirmwareTables& tables) {
  std::vector<NodeId> members = op.destinations;
  members.push_back(op.root);
  const std::vector<NodeId> chain =
      u_torus_chain(rt.topology(), tables.resolution_order, op.root, members);
  tree_forward(rt, op, data, deliver,
               [&](NodeId self) { return one_per_step(umesh_children(chain, 0, self)); });
}

}  // namespace wormsim::fw
