// EDN reduction and gather on an all-port 2D mesh under XY routing (seed 000 section 3.5,
// Fig. 3.26, Tables 3.6-3.7): the rotated, reversed EDN tree (k - 1 steps on 2^k x 2^k), then
// the completion steps to the root (fw::EdnReduction, computed once per run in FirmwareTables). Every node but the
// root sends exactly one message, after taking every message its role lists (by source and
// step, fw::Mailbox), tagged with its step.
//  - edn_reduce: each message is the element-wise reduction of its sender's subtree, combined
//    with the configured operator at every receiver (the combine cost is processor time, as
//    in reduce_binomial); the root delivers the reduction of all nodes' vectors.
//  - edn_gather: each message is the blocks of the nodes it carries, in ascending node order
//    (the receiver knows which from the pattern); the root delivers every node's block in node
//    order. The seed is silent on gather message sizes; this sends whole subtrees.
// The root sends nothing: it keeps its data and what its tree children send it, and its
// ancestors forward their subtrees without the root's.
#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>

#include "collective.h"
#include "mailbox.h"

namespace wormsim::fw {

namespace {

const EdnReduction& pattern_of(const FirmwareTables& tables, const char* name) {
  if (!tables.edn_reduction)
    throw std::logic_error(std::string(name) + ": no EDN reduction pattern for this network");
  return *tables.edn_reduction;
}

// Every receive, then the send.
template <typename Take, typename Send>
void walk(const EdnReduction::Role& role, Take take, Send send) {
  for (const EdnSend& m : role.receives) take(m);
  for (const EdnSend& s : role.sends) send(s);
}

}  // namespace

void run_edn_reduce(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                    const Deliver& deliver, const FirmwareTables& tables) {
  const EdnReduction::Role role = pattern_of(tables, "edn_reduce").role(op.root, rt.id());
  const Combine combine = builtin_combine(op.reduce_op, op.reduce_type);
  const Cycle combine_cost = static_cast<Cycle>(op.bytes) /
                             static_cast<Cycle>(element_bytes(op.reduce_type)) *
                             tables.combine_cycles_per_element;
  Mailbox box(rt);
  std::vector<std::uint8_t> acc = data;
  walk(
      role,
      [&](const EdnSend& m) {
        const Message got = box.take(m.from, static_cast<std::uint32_t>(m.step));
        combine(acc, got.data);
        if (combine_cost > 0) rt.compute(combine_cost);
      },
      [&](const EdnSend& s) { rt.send(s.to, acc, static_cast<std::uint32_t>(s.step)); });
  if (box.unclaimed() > 0) throw std::logic_error("edn_reduce: unexpected messages");
  if (rt.id() == op.root) deliver(acc);
}

void run_edn_gather(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                    const Deliver& deliver, const FirmwareTables& tables) {
  const NodeId self = rt.id();
  const EdnReduction::Role role = pattern_of(tables, "edn_gather").role(op.root, self);
  Mailbox box(rt);
  std::map<NodeId, std::vector<std::uint8_t>> blocks{{self, data}};
  walk(
      role,
      [&](const EdnSend& m) {
        const Message got = box.take(m.from, static_cast<std::uint32_t>(m.step));
        if (got.data.size() != m.carries.size() * op.bytes)
          throw std::logic_error("edn_gather: node " + std::to_string(m.from) + " sent " +
                                 std::to_string(got.data.size()) + " bytes for " +
                                 std::to_string(m.carries.size()) + " blocks");
        for (std::size_t i = 0; i < m.carries.size(); ++i) {
          const auto at = got.data.begin() + static_cast<std::ptrdiff_t>(i * op.bytes);
          if (!blocks.emplace(m.carries[i], std::vector<std::uint8_t>(at, at + op.bytes)).second)
            throw std::logic_error("edn_gather: block of node " + std::to_string(m.carries[i]) +
                                   " received twice");
        }
      },
      [&](const EdnSend& s) {
        std::vector<std::uint8_t> out;
        out.reserve(s.carries.size() * op.bytes);
        for (NodeId n : s.carries) {
          const auto it = blocks.find(n);
          if (it == blocks.end())
            throw std::logic_error("edn_gather: node " + std::to_string(self) +
                                   " lacks the block of node " + std::to_string(n));
          out.insert(out.end(), it->second.begin(), it->second.end());
        }
        rt.send(s.to, out, static_cast<std::uint32_t>(s.step));
      });
  if (box.unclaimed() > 0) throw std::logic_error("edn_gather: unexpected messages");
  if (self != op.root) return;
  if (blocks.size() != static_cast<std::size_t>(rt.nodes()))
    throw std::logic_error("edn_gather: the root holds " + std::to_string(blocks.size()) +
                           " blocks");
  std::vector<std::uint8_t> all;
  all.reserve(blocks.size() * op.bytes);
  for (const auto& [n, b] : blocks) all.insert(all.end(), b.begin(), b.end());
  deliver(all);
}

}  // namespace wormsim::fw
