// All-to-all broadcast (allgather, MPI_Allgather) around a ring: every node holds one block;
// in step k = 1..p - 1 node i passes the block it got in step k - 1 (its own in step 1) to
// node (i + 1) mod p, so after p - 1 steps every node has every block. p - 1 steps, p(p - 1)
// messages; on a mesh the ring is the node order, so its wrap-around message crosses the
// network. Every node delivers all blocks in node order.
//
// All-to-all broadcast through multicast (allgather_multicast; network.router.multidest path
// or tree): every node multicasts its block to all others at once, as multidestination worms:
// path: one worm per base-routing-conformed path of the other nodes (conforming_paths, BRCP,
// seed 003; as path_multicast), tagged with WormSteps' steps; tree: one worm replicated along
// the dimension-ordered tree, step 1. Then it takes the p - 1 blocks in whatever order they
// arrive, one per other node. p concurrent multicasts: the network carries p(p - 1) block
// deliveries at once, so worms of different roots meet in the routers (issue "Router design
// choices for multidestination under load").
#include <stdexcept>
#include <string>

#include "collective.h"
#include "mailbox.h"

namespace wormsim::fw {

void run_allgather_ring(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                        const Deliver& deliver) {
  const auto p = static_cast<std::uint32_t>(rt.nodes());
  const std::uint32_t self = rt.id();
  std::vector<std::uint8_t> all(static_cast<std::size_t>(p) * op.bytes);
  const auto place = [&](std::uint32_t owner, const std::vector<std::uint8_t>& b) {
    if (b.size() != op.bytes) throw std::logic_error("allgather_ring: block of wrong size");
    std::copy(b.begin(), b.end(), all.begin() + static_cast<std::ptrdiff_t>(owner * op.bytes));
  };
  place(self, data);
  Mailbox box(rt);
  std::vector<std::uint8_t> current = data;
  for (std::uint32_t k = 1; k < p; ++k) {
    rt.send((self + 1) % p, current, k);
    current = box.take((self + p - 1) % p, k).data;
    place((self + p - k) % p, current);
  }
  if (box.unclaimed() > 0) throw std::logic_error("allgather_ring: unexpected messages");
  deliver(all);
}

void run_allgather_multicast(Runtime& rt, const Operation& op,
                             const std::vector<std::uint8_t>& data, const Deliver& deliver,
                             const PortLayout& layout, MultidestMode multidest) {
  const auto p = static_cast<std::uint32_t>(rt.nodes());
  const NodeId self = rt.id();
  std::vector<NodeId> others;
  for (std::uint32_t n = 0; n < p; ++n)
    if (n != self) others.push_back(n);
  if (multidest == MultidestMode::kTree) {
    rt.send_multicast(others, data, 1);
  } else {
    WormSteps steps(layout, 0);
    for (const std::vector<NodeId>& path : rt.conforming_paths(others))
      rt.send_multicast(path, data, steps.next(rt.first_hop(path.front())));
  }
  std::vector<std::uint8_t> all(static_cast<std::size_t>(p) * op.bytes);
  std::vector<bool> have(p, false);
  const auto place = [&](NodeId owner, const std::vector<std::uint8_t>& b) {
    if (owner >= p || have[owner])
      throw std::logic_error("allgather_multicast: a second block from node " +
                             std::to_string(owner));
    if (b.size() != op.bytes) throw std::logic_error("allgather_multicast: block of wrong size");
    have[owner] = true;
    std::copy(b.begin(), b.end(), all.begin() + static_cast<std::ptrdiff_t>(owner * op.bytes));
  };
  place(self, data);
  for (std::uint32_t k = 1; k < p; ++k) {
    const Message m = rt.receive();
    place(m.src, m.data);
  }
  deliver(all);
}

}  // namespace wormsim::fw
