// The store-and-forward step all unicast tree algorithms share (seed 000 section 3.3.5:
// "an intermediate node must fully receive the message before it forwards it"): a
// participant other than the root receives the message and delivers it, then every holder
// sends it on to its children in order, paying alpha for each.
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
  if (self == op.root) {
    payload = data;
  } else {
    payload = rt.receive().data;
    deliver(payload);
  }
  for (NodeId c : children(self)) rt.send(c, payload, static_cast<std::uint32_t>(op.index));
}

}  // namespace wormsim::fw
