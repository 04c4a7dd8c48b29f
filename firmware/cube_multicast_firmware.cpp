// U-cube, Maxport, Combine and W-sort as node firmware (seed 001 section 4): every
// participant computes the multicast's tree (fw::CubeMulticast, a pure function of the root,
// the destinations and the routing's resolution order, as a real node would from the address
// field D it receives), then stores and forwards along it; a node's sends go out in the steps
// of the seed's all-port model, one per outgoing channel per step.
#include "collective.h"
#include "cube_multicast.h"
#include "tree_forward.h"

namespace wormsim::fw {

namespace {
CubeAlgorithm cube_algorithm(CollectiveAlgorithm a) {
  switch (a) {
    case CollectiveAlgorithm::kMaxport: return CubeAlgorithm::kMaxport;
    case CollectiveAlgorithm::kCombine: return CubeAlgorithm::kCombine;
    case CollectiveAlgorithm::kWSort: return CubeAlgorithm::kWSort;
    default: return CubeAlgorithm::kUCube;
  }
}
}  // namespace

void run_cube_multicast(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                        const Deliver& deliver, const FirmwareTables& tables) {
  if (!participates(op, rt.id())) return;
  const CubeMulticast tree(cube_algorithm(op.algorithm), tables.resolution_order, op.root,
                           op.destinations, tables.layout.model);
  tree_forward(rt, op, data, deliver, [&](NodeId self) { return tree.groups(self); });
}

}  // namespace wormsim::fw
