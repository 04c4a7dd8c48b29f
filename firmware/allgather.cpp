// All-to-all broadcast (allgather, MPI_Allgather) around a ring: every node holds one block;
// in step k = 1..p - 1 node i passes the block it got in step k - 1 (its own in step 1) to
// node (i + 1) mod p, so after p - 1 steps every node has every block. p - 1 steps, p(p - 1)
// messages; on a mesh the ring is the node order, so its wrap-around message crosses the
// network. Every node delivers all blocks in node order.
#include <stdexcept>

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

}  // namespace wormsim::fw
