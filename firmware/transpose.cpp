// Matrix transpose on an n x n mesh or torus, the first permutation (seed 000 section 3.6):
// node (x, y) holds one block for node (y, x) and delivers the block (y, x) holds for it; the
// diagonal keeps its own. direct_transpose: every off-diagonal node sends its block straight
// to its partner, all at once: 1 step, n(n - 1) messages. Under XY routing the messages share
// links (seed 000 section 3.6 counts the contention of the direct transpose); the harness
// reports it.
#include "collective.h"

namespace wormsim::fw {

void run_direct_transpose(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                          const Deliver& deliver) {
  (void)op;
  const NodeId self = rt.id();
  const Topology& t = rt.topology();
  const NodeId partner = t.node_at({t.coord(self, 1), t.coord(self, 0)});
  if (partner == self) {
    deliver(data);
    return;
  }
  rt.send(partner, data, 1);
  const Message m = rt.receive();
  deliver(m.data);
}

}  // namespace wormsim::fw
