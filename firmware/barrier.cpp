// Barrier by dissemination (Hensgen, Finkel and Manber, "Two algorithms for barrier
// synchronization", Int. J. Parallel Programming 17(1), 1988; docs/references.md): in round
// k = 0, 1, ..., ceil(log2 p) - 1 node i sends a one-byte token to (i + 2^k) mod p and waits
// for the token from (i - 2^k) mod p. After the last round every node has heard, directly or
// through others, from every node, so none leaves before all have entered; p need not be a
// power of two. Seed 002 assumes "a barrier-style synchronization mechanism" between the
// phases of its algorithms (section 1) without giving one; this is the standard choice.
// Each node first enters after fw::barrier_arrival cycles (staggered, so the harness can check
// that nobody leaves early). Round k's tokens are tagged step k + 1.
#include <stdexcept>
#include <string>

#include "collective.h"
#include "collective_data.h"
#include "mailbox.h"

namespace wormsim::fw {

void run_barrier_dissemination(Runtime& rt, const Operation& op, const Deliver& deliver) {
  const auto p = static_cast<std::uint32_t>(rt.nodes());
  const std::uint32_t self = rt.id();
  rt.compute(barrier_arrival(op, self));
  Mailbox box(rt);
  std::uint32_t round = 0;
  for (std::uint32_t dist = 1; dist < p; dist *= 2, ++round) {
    rt.send((self + dist) % p, {1}, round + 1);
    box.take((self + p - dist) % p, round + 1);
  }
  if (box.unclaimed() > 0)
    throw std::logic_error("barrier_dissemination: node " + std::to_string(self) + " got " +
                           std::to_string(box.unclaimed()) + " tokens it did not expect");
  deliver({});
}

}  // namespace wormsim::fw
