// All-to-all personalized communication (total exchange; seed 002 section 5). Node i holds
// p blocks of op.bytes, block j for node j (fw::input_data); node j delivers block i->j of
// every node i in order of i, its own included (fw::expected_delivery).
//  - a2a_1_lev_dir: "each processor simply issues its p - 1 sends and p - 1 receives" (seed 002
//    section 5.3). The seed does not give the order of the sends; ours is ascending
//    destination, skipping itself (RECONSTRUCTED: the plainest reading; an order by (i + k) mod
//    p is the structure of 1-lev-lin, which the seed separates from 1-lev-dir). A node's k-th
//    send is tagged step k, so the operation takes p - 1 steps.
//  - the other seven (1-lev-lin, -xor, -bal, 2-lev-sq, -c,r, -c,r-int, logp-lev-bfly; seed 002
//    sections 5.1-5.3): each node runs its program from alltoall_plan.h, which says whom it
//    sends which blocks to and from whom it receives which, in order. Every message is the
//    concatenation of the blocks it carries; a receiver splits it and keeps the blocks to
//    forward or deliver.
#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include "alltoall_plan.h"
#include "collective.h"
#include "mailbox.h"

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
  std::copy(own.begin(), own.end(),
            all.begin() + static_cast<std::ptrdiff_t>(std::size_t{self} * op.bytes));
  have[self] = true;
  for (std::size_t k = 1; k < p; ++k) {
    const Message m = rt.receive();
    if (m.src >= p || have[m.src] || m.data.size() != op.bytes)
      throw std::logic_error("a2a_1_lev_dir: unexpected message from node " +
                             std::to_string(m.src));
    std::copy(m.data.begin(), m.data.end(),
              all.begin() + static_cast<std::ptrdiff_t>(std::size_t{m.src} * op.bytes));
    have[m.src] = true;
  }
  deliver(all);
}

void run_alltoall_program(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                          const Deliver& deliver) {
  const NodeId self = rt.id();
  const auto p = static_cast<NodeId>(rt.nodes());
  const std::size_t L = op.bytes;
  const std::string name = to_string(op.algorithm);
  const auto fail = [&](const std::string& what) {
    throw std::logic_error(name + " at node " + std::to_string(self) + ": " + what);
  };
  if (data.size() != static_cast<std::size_t>(p) * L) fail("input of the wrong size");
  // The blocks this node holds, by (source, destination).
  std::map<std::pair<NodeId, NodeId>, std::vector<std::uint8_t>> held;
  for (NodeId j = 0; j < p; ++j)
    held[{self, j}] =
        std::vector<std::uint8_t>(data.begin() + static_cast<std::ptrdiff_t>(j * L),
                                  data.begin() + static_cast<std::ptrdiff_t>((j + 1) * L));
  Mailbox box(rt);
  for (const a2a::Action& a : a2a::program(op.algorithm, a2a::shape_of(rt.topology()), self)) {
    if (a.kind == a2a::Action::Kind::kSend) {
      std::vector<std::uint8_t> message;
      message.reserve(a.blocks.size() * L);
      for (const a2a::BlockRef& b : a.blocks) {
        const auto it = held.find({b.from, b.to});
        if (it == held.end())
          fail("sends block " + std::to_string(b.from) + "->" + std::to_string(b.to) +
               " that it does not hold");
        message.insert(message.end(), it->second.begin(), it->second.end());
        held.erase(it);
      }
      rt.send(a.peer, message, a.tag);
    } else {
      const Message m = box.take(a.peer, a.tag);
      if (m.data.size() != a.blocks.size() * L)
        fail("message from node " + std::to_string(a.peer) + " with tag " + std::to_string(a.tag) +
             " has " + std::to_string(m.data.size()) + " bytes, not " +
             std::to_string(a.blocks.size() * L));
      for (std::size_t k = 0; k < a.blocks.size(); ++k)
        if (!held.emplace(std::make_pair(a.blocks[k].from, a.blocks[k].to),
                          std::vector<std::uint8_t>(
                              m.data.begin() + static_cast<std::ptrdiff_t>(k * L),
                              m.data.begin() + static_cast<std::ptrdiff_t>((k + 1) * L)))
                 .second)
          fail("receives block " + std::to_string(a.blocks[k].from) + "->" +
               std::to_string(a.blocks[k].to) + " twice");
    }
  }
  if (box.unclaimed() > 0) fail("messages nobody asked for");
  if (held.size() != static_cast<std::size_t>(p)) fail("ends holding blocks for other nodes");
  std::vector<std::uint8_t> all;
  all.reserve(static_cast<std::size_t>(p) * L);
  for (NodeId i = 0; i < p; ++i) {
    const auto it = held.find({i, self});
    if (it == held.end()) fail("never got the block of node " + std::to_string(i));
    all.insert(all.end(), it->second.begin(), it->second.end());
  }
  deliver(all);
}

}  // namespace wormsim::fw
