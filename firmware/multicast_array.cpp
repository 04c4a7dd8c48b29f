// m_array_2level: our earlier reading of seed 004's M-array, before Definition 1 was read as
// the recursive array of firmware/m_array.h (docs/multidestination.md says why it stays): the
// participants in path order, rotated to start at the root, on a two-dimensional array of
// side ceil(sqrt(P)); each line of the array is a multicast group that one holder reaches
// with path worms (dual-path under Hamiltonian routing, seed 004 Fig. 1(c)); broadcast and
// multicast take 2 group steps whatever the size, against the M-array's log2 P.
#include <algorithm>
#include <stdexcept>

#include "collective.h"
#include "tree_forward.h"

namespace wormsim::fw {

int array_side(std::size_t participants, int levels) {
  if (levels < 1) throw std::logic_error("array_side: levels must be >= 1");
  int s = 1;
  for (;;) {
    std::size_t cap = 1;
    for (int l = 0; l < levels; ++l) cap *= static_cast<std::size_t>(s);
    if (cap >= participants) return s;
    ++s;
  }
}

std::vector<std::vector<NodeId>> array_groups(const std::vector<NodeId>& order, NodeId root,
                                              NodeId self, int levels) {
  const std::size_t n = order.size();
  const auto at = [&](NodeId x) {
    const auto it = std::find(order.begin(), order.end(), x);
    if (it == order.end())
      throw std::logic_error("array_groups: node " + std::to_string(x) + " is not a participant");
    return static_cast<std::size_t>(it - order.begin());
  };
  const std::size_t r = at(root);
  const std::size_t pos = (at(self) + n - r) % n;  // rotated: the root at position 0
  const std::size_t s = static_cast<std::size_t>(array_side(n, levels));
  // The level this node receives in: its least significant nonzero digit (root: all levels).
  int recv_level = levels;
  std::size_t stride = 1;
  for (int l = 0; l < levels; ++l, stride *= s)
    if ((pos / stride) % s != 0) {
      recv_level = l;
      break;
    }
  std::vector<std::vector<NodeId>> groups;
  for (int l = recv_level - 1; l >= 0; --l) {
    std::size_t step = 1;
    for (int k = 0; k < l; ++k) step *= s;
    std::vector<NodeId> g;
    for (std::size_t t = 1; t < s && pos + t * step < n; ++t)
      g.push_back(order[(pos + t * step + r) % n]);
    if (!g.empty()) groups.push_back(std::move(g));
  }
  return groups;
}

void run_array_multicast(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                         const Deliver& deliver, const FirmwareTables& tables) {
  const NodeId self = rt.id();
  if (!participates(op, self)) return;
  std::vector<NodeId> order = op.destinations;
  order.push_back(op.root);
  if (rt.hamiltonian_label(op.root) >= 0)
    std::sort(order.begin(), order.end(), [&](NodeId a, NodeId b) {
      return rt.hamiltonian_label(a) < rt.hamiltonian_label(b);
    });
  else
    order = dimension_ordered_chain(rt.topology(), tables.resolution_order, order);
  const int levels = 2;
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
  WormSteps steps(tables.layout, step);
  for (const std::vector<NodeId>& group : array_groups(order, op.root, self, levels))
    for (const std::vector<NodeId>& path : rt.conforming_paths(group))
      rt.send_multicast(path, payload, steps.next(rt.first_hop(path.front())));
}

}  // namespace wormsim::fw
