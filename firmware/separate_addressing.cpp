// Separate addressing: the root sends the message to every destination itself, one unicast
// after another (alpha serialised), in dimension-ordered chain order.
#include "collective.h"
#include "tree_forward.h"

namespace wormsim::fw {

void run_separate_addressing(Runtime& rt, const Operation& op,
                             const std::vector<std::uint8_t>& data, const Deliver& deliver,
                             const FirmwareTables& tables) {
  tree_forward(rt, op, data, deliver, [&](NodeId self) {
    if (self != op.root) return SendGroups{};
    return one_per_step(
        dimension_ordered_chain(rt.topology(), tables.resolution_order, op.destinations));
  });
}

}  // namespace wormsim::fw
