#include "multicast_table.h"

#include <algorithm>

namespace wormsim {

std::uint32_t MulticastTable::add(MultidestMode mode, NodeId src, std::vector<NodeId> dests,
                                  int flits) {
  if (dests.empty()) throw std::logic_error("multicast table: a worm needs a destination");
  if (mode == MultidestMode::kTree) std::sort(dests.begin(), dests.end());
  std::uint32_t handle = 0;
  if (!free_.empty()) {
    handle = free_.back();
    free_.pop_back();
  } else {
    entries_.emplace_back();
    handle = static_cast<std::uint32_t>(entries_.size());
  }
  MulticastHeader& h = entries_[handle - 1];
  h.mode = mode;
  h.src = src;
  h.flits = flits;
  h.pending = static_cast<int>(dests.size());
  h.dests = std::move(dests);
  ++live_;
  return handle;
}

void MulticastTable::consumed(std::uint32_t handle) {
  MulticastHeader& h = entries_[index(handle)];
  if (--h.pending == 0) {
    free_.push_back(handle);
    --live_;
  }
}

}  // namespace wormsim
