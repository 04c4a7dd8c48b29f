// Ping-pong between the root and one peer (seed 000 section 5.2: one-way latency = round trip
// / 2, fitted over message sizes to T_s + T_n * L).
#include "collective.h"

namespace wormsim::fw {

void run_ping_pong(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                   const Deliver& deliver) {
  const NodeId peer = op.destinations.at(0);
  if (rt.id() == op.root) {
    rt.send(peer, data, 1);  // tag = message-passing step
    deliver(rt.receive().data);
  } else if (rt.id() == peer) {
    Message m = rt.receive();
    deliver(m.data);
    rt.send(op.root, m.data, 2);
  }
}

}  // namespace wormsim::fw
