// Recursive doubling / U-mesh multicast and broadcast (seed 000 sections 3.2.2 and 3.3.3):
// the root and destinations sorted along the dimension-ordered chain; each holder halves its
// range and sends to the nearest node of the other half. ceil(log2 N) steps for N nodes.
// recursive_doubling_rotated: the same over the chain rotated to start at the root, so the
// root always halves forward ("the source successively divides the list in half", the list
// relative to the source as U-cube's chain is, seed 001 section 4.1). Our reconstruction of
// the RD behind seed 000's path lengths (section 3.3.5: 4.16 hops on 32x32; the plain chain
// gives 2.63, this one 4.05 to 4.31 depending on the source; docs/collectives.md).
#include <algorithm>

#include "collective.h"
#include "tree_forward.h"

namespace wormsim::fw {

void run_recursive_doubling(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                            const Deliver& deliver, const FirmwareTables& tables) {
  std::vector<NodeId> members = op.destinations;
  members.push_back(op.root);
  std::vector<NodeId> chain =
      dimension_ordered_chain(rt.topology(), tables.resolution_order, members);
  std::size_t root_index =
      static_cast<std::size_t>(std::find(chain.begin(), chain.end(), op.root) - chain.begin());
  if (op.algorithm == CollectiveAlgorithm::kRecursiveDoublingRotated) {
    std::rotate(chain.begin(), chain.begin() + static_cast<std::ptrdiff_t>(root_index),
                chain.end());
    root_index = 0;
  }
  tree_forward(rt, op, data, deliver,
               [&](NodeId self) { return one_per_step(umesh_children(chain, root_index, self)); });
}

}  // namespace wormsim::fw
