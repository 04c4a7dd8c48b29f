// SLD broadcast on a 2D mesh (seed 000 section 3.2, Fig. 3.3): U-mesh from the root to the
// dominating nodes, then each dominating node to its assigned neighbours; the steps by the
// port model (fw::SldPattern).
#include <stdexcept>

#include "collective.h"
#include "tree_forward.h"

namespace wormsim::fw {

void run_sld_broadcast(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                       const Deliver& deliver, const FirmwareTables& tables) {
  if (!tables.sld) throw std::logic_error("sld_broadcast: no SLD pattern for this network");
  tree_forward(rt, op, data, deliver, [&](NodeId self) {
    return tables.sld->children(op.root, self, tables.layout.model);
  });
}

}  // namespace wormsim::fw
