// All-to-one personalized communication (gather; seed 002 section 4). Every node holds one
// block of op.bytes for the root (fw::input_data); the root delivers all of them, its own
// included, in node order (fw::expected_delivery).
//  - a2o_1_lev_dir: "every processor issues a send to processor P_d (and P_d issues p - 1
//    receives)" (seed 002 section 4). All sends start at once, so each is tagged step 1; the
//    root takes the messages in arrival order and places each by its source.
//  - a2o_2_lev_rec, a2o_3_lev_sq, a2o_logp_lev_sq, a2o_logp_lev_rec: the plans of
//    delta_plan.h, "one-to-all algorithms with the role of the sends and receives reversed"
//    (seed 002 section 4.1), and logp-lev-rec's split around the destination for gamma < 0.5
//    (section 4). A node takes its children's messages in arrival order ("the arbitrary
//    arrival of messages", section 4.1), places each block by the plan, and once all are in
//    sends its own block and theirs to its parent as one non-blocking send (data-driven, no
//    barrier: spec R3). The root delivers every node's block in node order.
#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>

#include "collective.h"
#include "delta_plan.h"

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
  std::copy(data.begin(), data.end(),
            all.begin() + static_cast<std::ptrdiff_t>(std::size_t{self} * op.bytes));
  have[self] = true;
  for (std::size_t k = 1; k < p; ++k) {
    const Message m = rt.receive();
    if (m.src >= p || have[m.src] || m.data.size() != op.bytes)
      throw std::logic_error("a2o_1_lev_dir: unexpected message from node " +
                             std::to_string(m.src));
    std::copy(m.data.begin(), m.data.end(),
              all.begin() + static_cast<std::ptrdiff_t>(std::size_t{m.src} * op.bytes));
    have[m.src] = true;
  }
  deliver(all);
}

void run_a2o_plan(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                  const Deliver& deliver) {
  const Topology& t = rt.topology();
  const NodeId self = rt.id();
  const GatherPlan plan = a2o_plan(t.side(1), t.side(0), op.root, op.algorithm, op.split_gamma);
  std::map<NodeId, std::vector<std::uint8_t>> blocks{{self, data}};
  const std::vector<NodeId>& children = plan.children[self];
  std::vector<bool> heard(children.size(), false);
  for (std::size_t k = 0; k < children.size(); ++k) {
    const Message m = rt.receive();
    const auto it = std::lower_bound(children.begin(), children.end(), m.src);
    const std::size_t c = static_cast<std::size_t>(it - children.begin());
    if (it == children.end() || *it != m.src || heard[c] ||
        m.data.size() != plan.carries[m.src].size() * op.bytes)
      throw std::logic_error(to_string(op.algorithm) + ": node " + std::to_string(self) +
                             " got an unexpected message of " + std::to_string(m.data.size()) +
                             " bytes from node " + std::to_string(m.src));
    heard[c] = true;
    const std::vector<NodeId>& holds = plan.carries[m.src];
    for (std::size_t i = 0; i < holds.size(); ++i)
      blocks[holds[i]] = {m.data.begin() + static_cast<std::ptrdiff_t>(i * op.bytes),
                          m.data.begin() + static_cast<std::ptrdiff_t>((i + 1) * op.bytes)};
  }
  if (self == op.root) {
    std::vector<std::uint8_t> all;
    all.reserve(blocks.size() * op.bytes);
    for (int n = 0; n < rt.nodes(); ++n) {
      const std::vector<std::uint8_t>& b = blocks.at(static_cast<NodeId>(n));
      all.insert(all.end(), b.begin(), b.end());
    }
    deliver(all);
    return;
  }
  std::vector<std::uint8_t> out;
  out.reserve(plan.carries[self].size() * op.bytes);
  for (NodeId n : plan.carries[self])
    out.insert(out.end(), blocks.at(n).begin(), blocks.at(n).end());
  rt.send(plan.parent[self], out, static_cast<std::uint32_t>(plan.step[self]));
}

}  // namespace wormsim::fw
