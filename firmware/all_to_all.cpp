// All-to-all personalized communication (total exchange; seed 002 section 5). Node i holds
// p blocks of op.bytes, block j for node j (fw::input_data); node j delivers block i->j of
// every node i in order of i, its own included (fw::expected_delivery).
//  - a2a_1_lev_dir: "each processor simply issues its p - 1 sends and p - 1 receives" (seed 002
//    section 5.3). The seed does not give the order of the sends; ours is ascending
//    destination, skipping itself (RECONSTRUCTED: the plainest reading; an order by (i + k) mod
//    p is the structure of 1-lev-lin, which the seed separates from 1-lev-dir). A node's k-th
//    send is tagged step k, so the operation takes p - 1 steps.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "collective.h"

namespace wormsim::fw {

void run_alltoall_direct(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                         const Deliver& deliver) {
  const NodeId self = rt.id();
  const auto p = static_cast<std::size_t>(rt.nodes());
  const auto block_of = [&](const std::vector<std::uint8_t>& v, std::size_t j) {
    return std::vector<std::uint8_t>(v.begin() + static_cast<std::ptrdiff_t>(j * op.bytes),
                                     v.begin() + static_cast<std::ptrdiff_t>((j + 1) * op.bytes));
  };
  std::uint32_t step = 0;
  for (std::size_t j = 0; j < p; ++j)
    if (j != self) rt.send(static_cast<NodeId>(j), block_of(data, j), ++step);
  std::vector<std::uint8_t> all(p * op.bytes);
  std::vector<bool> have(p, false);
  const std::vector<std::uint8_t> own = block_of(data, self);
  std::copy(own.begin(), own.end(), all.begin() + static_cast<std::ptrdiff_t>(self * op.bytes));
  have[self] = true;
  for (std::size_t k = 1; k < p; ++k) {
    const Message m = rt.receive();
    if (m.src >= p || have[m.src] || m.data.size() != op.bytes)
      throw std::logic_error("a2a_1_lev_dir: unexpected message from node " +
                             std::to_string(m.src));
    std::copy(m.data.begin(), m.data.end(),
              all.begin() + static_cast<std::ptrdiff_t>(m.src * op.bytes));
    have[m.src] = true;
  }
  deliver(all);
}

}  // namespace wormsim::fw
