// All-to-one personalized communication (gather; seed 002 section 4). Every node holds one
// block of op.bytes for the root (fw::input_data); the root delivers all of them, its own
// included, in node order (fw::expected_delivery).
//  - a2o_1_lev_dir: "every processor issues a send to processor P_d (and P_d issues p - 1
//    receives)" (seed 002 section 4). All sends start at once, so each is tagged step 1; the
//    root takes the messages in arrival order and places each by its source.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "collective.h"

namespace wormsim::fw {

void run_gather_direct(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                       const Deliver& deliver) {
  const NodeId self = rt.id();
  if (self != op.root) {
    rt.send(op.root, data, 1);
    return;
  }
  const auto p = static_cast<std::size_t>(rt.nodes());
  std::vector<std::uint8_t> all(p * op.bytes);
  std::vector<bool> have(p, false);
  std::copy(data.begin(), data.end(), all.begin() + static_cast<std::ptrdiff_t>(self * op.bytes));
  have[self] = true;
  for (std::size_t k = 1; k < p; ++k) {
    const Message m = rt.receive();
    if (m.src >= p || have[m.src] || m.data.size() != op.bytes)
      throw std::logic_error("a2o_1_lev_dir: unexpected message from node " +
                             std::to_string(m.src));
    std::copy(m.data.begin(), m.data.end(),
              all.begin() + static_cast<std::ptrdiff_t>(m.src * op.bytes));
    have[m.src] = true;
  }
  deliver(all);
}

}  // namespace wormsim::fw
