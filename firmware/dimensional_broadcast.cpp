// Dimensional broadcast (seed 000 section 5.3, Fig. 5.5; Barnett et al.): recursive halving
// along the root's row, then every node of that row along its column (and so on in 3D).
// sum over dimensions of ceil(log2 side) steps.
#include "collective.h"
#include "tree_forward.h"

namespace wormsim::fw {

void run_dimensional_broadcast(Runtime& rt, const Operation& op,
                               const std::vector<std::uint8_t>& data, const Deliver& deliver,
                               const FirmwareTables& tables) {
  tree_forward(rt, op, data, deliver, [&](NodeId self) {
    return one_per_step(
        dimensional_children(rt.topology(), tables.resolution_order, op.root, self));
  });
}

}  // namespace wormsim::fw
