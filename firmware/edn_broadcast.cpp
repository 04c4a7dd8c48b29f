// EDN broadcast on an all-port mesh (seed 000 sections 3.3-3.4): startup steps to the top
// dominating nodes, then down the levels of extended dominating nodes. 2^k x 2^k squares use
// the Appendix A pattern (EdnPattern: two startup steps, k - 1 levels); other 2D and 3D meshes
// the general construction (EdnMesh). On 2D and 3D all-port tori, the pattern of seed 000
// chapter 4 (fw::EdnTorusPattern).
#include <stdexcept>

#include "collective.h"
#include "tree_forward.h"

namespace wormsim::fw {

void run_edn_broadcast(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                       const Deliver& deliver, const FirmwareTables& tables) {
  if (tables.edn_torus)  // seed 000 chapter 4
    tree_forward(rt, op, data, deliver,
                 [&](NodeId self) { return tables.edn_torus->children(op.root, self); });
  else if (tables.edn)
    tree_forward(rt, op, data, deliver,
                 [&](NodeId self) { return tables.edn->children(op.root, self); });
  else if (tables.edn_mesh)
    tree_forward(rt, op, data, deliver,
                 [&](NodeId self) { return tables.edn_mesh->children(op.root, self); });
  else
    throw std::logic_error("edn_broadcast: no EDN pattern for this network");
}

}  // namespace wormsim::fw
