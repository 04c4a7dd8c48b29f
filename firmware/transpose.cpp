// Matrix transpose on an n x n mesh or torus, the first permutation (seed 000 section 3.6):
// node (x, y) holds one block for node (y, x) and delivers the block (y, x) holds for it; the
// diagonal keeps its own.
//  - direct_transpose: every off-diagonal node sends its block straight to its partner, all
//    at once: 1 step, n(n - 1) messages. Under XY routing the messages share links (seed 000
//    section 3.6 counts the contention of the direct transpose); the harness reports it.
//  - edn_transpose (seed 000 section 3.6, Fig. 3.28; 2^k x 2^k all-port mesh, XY): the k steps
//    of fw::EdnTranspose (computed once per run in FirmwareTables), each message the
//    concatenated blocks it carries in ascending origin order (the receiver knows which from
//    the pattern), tagged with its step. A node sends a step's messages, then takes that
//    step's receives by source and step (fw::Mailbox); it finally delivers the block of its
//    transposed node, which it then holds alone.
#include <map>
#include <stdexcept>
#include <string>

#include "collective.h"
#include "mailbox.h"

namespace wormsim::fw {

void run_direct_transpose(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                          const Deliver& deliver) {
  (void)op;
  const NodeId self = rt.id();
  const Topology& t = rt.topology();
  const NodeId partner = t.node_at({t.coord(self, 1), t.coord(self, 0)});
  if (partner == self) {
    deliver(data);
    return;
  }
  rt.send(partner, data, 1);
  const Message m = rt.receive();
  deliver(m.data);
}

void run_edn_transpose(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                       const Deliver& deliver, const FirmwareTables& tables) {
  if (!tables.edn_transpose)
    throw std::logic_error("edn_transpose: no EDN transpose pattern for this network");
  const EdnTranspose& pattern = *tables.edn_transpose;
  const NodeId self = rt.id();
  const EdnTranspose::Role role = pattern.role(self);
  Mailbox box(rt);
  std::map<NodeId, std::vector<std::uint8_t>> blocks{{self, data}};
  auto send = role.sends.begin();
  auto receive = role.receives.begin();
  for (int step = 1; step <= pattern.steps(); ++step) {
    for (; send != role.sends.end() && send->step == step; ++send) {
      std::vector<std::uint8_t> out;
      out.reserve(send->carries.size() * op.bytes);
      for (NodeId n : send->carries) {
        const auto it = blocks.find(n);
        if (it == blocks.end())
          throw std::logic_error("edn_transpose: node " + std::to_string(self) +
                                 " lacks the block of node " + std::to_string(n));
        out.insert(out.end(), it->second.begin(), it->second.end());
        blocks.erase(it);
      }
      rt.send(send->to, out, static_cast<std::uint32_t>(step));
    }
    for (; receive != role.receives.end() && receive->step == step; ++receive) {
      const Message got = box.take(receive->from, static_cast<std::uint32_t>(step));
      if (got.data.size() != receive->carries.size() * op.bytes)
        throw std::logic_error("edn_transpose: node " + std::to_string(receive->from) + " sent " +
                               std::to_string(got.data.size()) + " bytes for " +
                               std::to_string(receive->carries.size()) + " blocks");
      for (std::size_t i = 0; i < receive->carries.size(); ++i) {
        const auto at = got.data.begin() + static_cast<std::ptrdiff_t>(i * op.bytes);
        if (!blocks.emplace(receive->carries[i], std::vector<std::uint8_t>(at, at + op.bytes))
                 .second)
          throw std::logic_error("edn_transpose: block of node " +
                                 std::to_string(receive->carries[i]) + " received twice");
      }
    }
  }
  if (box.unclaimed() > 0) throw std::logic_error("edn_transpose: unexpected messages");
  const NodeId partner = pattern.transposed(self);
  if (blocks.size() != 1 || blocks.count(partner) == 0)
    throw std::logic_error("edn_transpose: node " + std::to_string(self) + " ends with " +
                           std::to_string(blocks.size()) + " blocks, not just node " +
                           std::to_string(partner) + "'s");
  deliver(blocks.begin()->second);
}

}  // namespace wormsim::fw
