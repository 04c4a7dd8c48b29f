// Destination headers of the multidestination worms in flight (docs/multidestination.md).
// A worm's header flits carry its encoded destination list on the wire; the model keeps the
// decoded list here and the flits carry its handle (Flit::mcast). The network owns one table;
// a source NI adds an entry per worm and each destination's NI reports when it has consumed
// the tail; the entry is freed after the last destination.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "config.h"
#include "flit.h"

namespace wormsim {

struct MulticastHeader {
  MultidestMode mode = MultidestMode::kPath;
  NodeId src = kNoNode;
  std::vector<NodeId> dests;  // path: in path order; tree: ascending
  // The worm's length in flits, header flits included: the length field a cut-through router
  // reads from the head (network.router.replication_flow).
  int flits = 1;
  int pending = 0;  // destinations that have not consumed the tail yet
};

// The (first) address carried by flit `index` of a path worm whose header is address flits
// of `per_flit` addresses each (routing/multicast_route.h addresses_per_header_flit): address
// flit i starts with destination i * per_flit, and the flits after the last address flit
// carry the last destination, as a unicast packet's do.
inline NodeId address_flit_target(const MulticastHeader& h, int index, int per_flit) {
  const std::size_t i = static_cast<std::size_t>(index) * static_cast<std::size_t>(per_flit);
  return h.dests[i < h.dests.size() ? i : h.dests.size() - 1];
}

class MulticastTable {
 public:
  // Returns the handle (>= 1) of a new header of a worm of `flits` flits; `dests` must be
  // non-empty.
  std::uint32_t add(MultidestMode mode, NodeId src, std::vector<NodeId> dests, int flits);
  const MulticastHeader& at(std::uint32_t handle) const { return entries_[index(handle)]; }
  // One destination consumed the worm's tail; the header is freed after the last one.
  void consumed(std::uint32_t handle);
  std::size_t live() const { return live_; }

 private:
  std::size_t index(std::uint32_t handle) const {
    if (handle == 0 || handle > entries_.size() || entries_[handle - 1].pending <= 0)
      throw std::logic_error("multicast table: stale or unknown worm handle");
    return handle - 1;
  }
  std::vector<MulticastHeader> entries_;
  std::vector<std::uint32_t> free_;
  std::size_t live_ = 0;
};

}  // namespace wormsim
