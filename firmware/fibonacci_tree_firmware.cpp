// Fibonacci-tree broadcast (seed 000 section 5.3, Fig. 5.7): the k-segment pipelined tree of
// fw::FibonacciTree (fibonacci_tree.h) over the dimension-ordered chain rotated to start at
// the root. A node forwards piece j to a child as soon as it has received piece j; each
// message's tag is the step the tree gives it (FibonacciTree::piece_step), so the harness
// counts t(P, k) steps.
#include <algorithm>

#include "collective.h"
#include "fibonacci_tree.h"
#include "mailbox.h"

namespace wormsim::fw {

void run_fibonacci_tree(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                        const Deliver& deliver, const FirmwareTables& tables) {
  std::vector<NodeId> members = op.destinations;
  members.push_back(op.root);
  std::vector<NodeId> chain =
      dimension_ordered_chain(rt.topology(), tables.resolution_order, members);
  std::rotate(chain.begin(), std::find(chain.begin(), chain.end(), op.root), chain.end());
  const NodeId self = rt.id();
  const auto it = std::find(chain.begin(), chain.end(), self);
  if (it == chain.end()) return;
  const int pos = static_cast<int>(it - chain.begin());
  const int k = op.segments;
  const FibonacciTree tree(static_cast<int>(chain.size()), k);
  const auto piece_begin = [&](int j) {
    return static_cast<std::ptrdiff_t>(static_cast<std::uint64_t>(op.bytes) *
                                       static_cast<std::uint64_t>(j) /
                                       static_cast<std::uint64_t>(k));
  };
  std::vector<std::uint8_t> msg = self == op.root ? data : std::vector<std::uint8_t>(op.bytes);
  int have = self == op.root ? k : 0;
  Mailbox mb(rt);
  const auto receive_next = [&] {
    const NodeId parent = chain[static_cast<std::size_t>(tree.parent(pos))];
    Message m = mb.take(parent, static_cast<std::uint32_t>(tree.piece_step(pos, have)));
    std::copy(m.data.begin(), m.data.end(), msg.begin() + piece_begin(have));
    if (++have == k) deliver(msg);
  };
  for (int child : tree.children(pos))
    for (int j = 0; j < k; ++j) {
      while (have <= j) receive_next();
      rt.send(
          chain[static_cast<std::size_t>(child)],
          std::vector<std::uint8_t>(msg.begin() + piece_begin(j), msg.begin() + piece_begin(j + 1)),
          static_cast<std::uint32_t>(tree.piece_step(child, j)));
    }
  while (have < k) receive_next();
}

}  // namespace wormsim::fw
