// EDN broadcast on a 2^k x 2^k all-port mesh (seed 000 section 3.3): two startup steps to the
// four top dominating nodes, then k-1 steps down the levels of extended dominating nodes. On
// 2D and 3D all-port tori, the pattern of seed 000 chapter 4 (fw::EdnTorusPattern).
#include <stdexcept>

#include "collective.h"
#include "tree_forward.h"

namespace wormsim::fw {

void run_edn_broadcast(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                       const Deliver& deliver, const FirmwareTables& tables) {
  if (tables.edn_torus)  // seed 000 chapter 4
    return tree_forward(rt, op, data, deliver,
                        [&](NodeId self) { return tables.edn_torus->children(op.root, self); });
  if (!tables.edn) throw std::logic_error("edn_broadcast: no EDN pattern for this network");
  tree_forward(rt, op, data, deliver,
               [&](NodeId self) { return tables.edn->children(op.root, self); });
}

}  // namespace wormsim::fw
