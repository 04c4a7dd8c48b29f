// One-to-all personalized communication on the Touchstone Delta's algorithms (seed 002
// section 3, Fig. 1): o2a_1_lev_dir, o2a_1_lev_sys_br, o2a_1_lev_our_br, o2a_2_lev_rec,
// o2a_3_lev_sq, o2a_logp_lev_sq, o2a_logp_lev_rec. The root holds one block of op.bytes per
// destination (fw::input_data: every other node, in id order); each node executes its part of
// the plan of delta_plan.h: it takes its one message, delivers its own block, and issues its
// sends in the plan's order (farthest first, R1), each a non-blocking send (seed 002 section
// 3.2: "We give the performance of the algorithms using nonblocking sends") tagged with its
// superstep. No barriers: a node forwards as soon as its message is in (spec R3; section 3.1:
// "Once a leader received its long message, it initiates a 1-level one-to-all algorithm").
#include <map>
#include <stdexcept>
#include <string>

#include "collective.h"
#include "delta_plan.h"

namespace wormsim::fw {

void run_o2a_plan(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                  const Deliver& deliver) {
  const Topology& t = rt.topology();
  const NodeId self = rt.id();
  const ScatterPlan plan = o2a_plan(t.side(1), t.side(0), op.root, op.algorithm, op.split_gamma);
  std::map<NodeId, std::vector<std::uint8_t>> blocks;
  if (self == op.root) {
    for (NodeId d : op.destinations) blocks[d] = scatter_chunk(op, data, d);
  } else {
    const Message m = rt.receive();
    const std::vector<NodeId>& holds = plan.receives[self];
    if (m.src != plan.parent[self] || m.data.size() != holds.size() * op.bytes)
      throw std::logic_error(to_string(op.algorithm) + ": node " + std::to_string(self) +
                             " expected " + std::to_string(holds.size() * op.bytes) +
                             " bytes from node " + std::to_string(plan.parent[self]) + ", got " +
                             std::to_string(m.data.size()) + " from node " + std::to_string(m.src));
    for (std::size_t i = 0; i < holds.size(); ++i)
      blocks[holds[i]] = {m.data.begin() + static_cast<std::ptrdiff_t>(i * op.bytes),
                          m.data.begin() + static_cast<std::ptrdiff_t>((i + 1) * op.bytes)};
    deliver(blocks.at(self));
  }
  for (const PlanSend& s : plan.sends[self]) {
    std::vector<std::uint8_t> out;
    out.reserve(s.carries.size() * op.bytes);
    for (NodeId n : s.carries) out.insert(out.end(), blocks.at(n).begin(), blocks.at(n).end());
    rt.send(s.to, out, static_cast<std::uint32_t>(s.step));
  }
}

}  // namespace wormsim::fw
