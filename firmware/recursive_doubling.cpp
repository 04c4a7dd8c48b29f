// Recursive doubling / U-mesh multicast and broadcast (seed 000 sections 3.2.2 and 3.3.3):
// the root and destinations sorted along the dimension-ordered chain; each holder halves its
// range and sends to the nearest node of the other half. ceil(log2 N) steps for N nodes.
#include <algorithm>

#include "collective.h"
#include "tree_forward.h"

namespace wormsim::fw {

void run_recursive_doubling(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                            const Deliver& deliver, const FirmwareTables& tables) {
  std::vector<NodeId> members = op.destinations;
  members.push_back(op.root);
  const std::vector<NodeId> chain =
      dimension_ordered_chain(rt.topology(), tables.resolution_order, members);
  const std::size_t root_index =
      static_cast<std::size_t>(std::find(chain.begin(), chain.end(), op.root) - chain.begin());
  tree_forward(rt, op, data, deliver,
               [&](NodeId self) { return one_per_step(umesh_children(chain, root_index, self)); });
}

}  // namespace wormsim::fw
