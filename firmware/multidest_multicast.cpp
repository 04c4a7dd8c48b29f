// Multicast and broadcast with multidestination worms (network.router.multidest path or tree;
// docs/multidestination.md).
//  - path_multicast: the root splits the destinations into base-routing-conformed paths
//    (BRCP, seed 003; under Hamiltonian-path routing the high and low chains of Lin and
//    McKinley's dual-path scheme, seed 004 section 2.2) and sends one path worm per path;
//    every destination absorbs its copy as the worm passes (intermediate reception).
//  - tree_multicast: the root sends one worm that the routers replicate along the
//    dimension-ordered tree.
// Destinations only receive; nothing is forwarded in software. The tag is the message-passing
// step: one-port roots send one worm per step; an all-port root sends the worms that leave on
// different ports in the same step.
#include "collective.h"
#include "tree_forward.h"

namespace wormsim::fw {

namespace {
void receive_and_deliver(Runtime& rt, const Operation& op, const Deliver& deliver) {
  if (!participates(op, rt.id())) return;
  Message m = rt.receive();
  deliver(m.data);
}
}  // namespace

void run_path_multicast(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                        const Deliver& deliver, const PortLayout& layout) {
  if (rt.id() != op.root) return receive_and_deliver(rt, op, deliver);
  WormSteps steps(layout, 0);
  for (const std::vector<NodeId>& path : rt.conforming_paths(op.destinations))
    rt.send_multicast(path, data, steps.next(rt.first_hop(path.front())));
}

void run_tree_multicast(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                        const Deliver& deliver) {
  if (rt.id() != op.root) return receive_and_deliver(rt, op, deliver);
  rt.send_multicast(op.destinations, data, 1);
}

}  // namespace wormsim::fw
