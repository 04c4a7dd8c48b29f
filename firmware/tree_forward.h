// The store-and-forward step all unicast tree algorithms share (seed 000 section 3.3.5:
// "an intermediate node must fully receive the message before it forwards it"): a
// participant other than the root receives the message and delivers it, then every holder
// sends it on to its children in order, paying alpha for each. The tag of every message is
// its message-passing step (SendGroups).
#pragma once

#include <algorithm>

#include "collective.h"

namespace wormsim::fw {

inline bool participates(const Operation& op, NodeId self) {
  return self == op.root ||
         std::binary_search(op.destinations.begin(), op.destinations.end(), self);
}

template <typename Children>
void tree_forward(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                  const Deliver& deliver, Children children) {
  const NodeId self = rt.id();
  if (!participates(op, self)) return;
  std::vector<std::uint8_t> payload;
  std::uint32_t step = 0;
  if (self == op.root) {
    payload = data;
  } else {
    Message m = rt.receive();
    payload = std::move(m.data);
    step = m.tag;
    deliver(payload);
  }
  const SendGroups groups = children(self);
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (NodeId c : groups[g]) rt.send(c, payload, step + 1 + static_cast<std::uint32_t>(g));
}

}  // namespace wormsim::fw
