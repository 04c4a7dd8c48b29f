// EDN matrix transposition of a 2^k x 2^k all-port mesh under XY routing (seed 000 section 3.6,
// Figs. 3.27-3.29), as a pure function of k.
//
// Seed 000 section 3.6: "the mesh is 'divided' into 4 x 4 blocks. In the first message-passing
// step, nodes within each 4 x 4 block send their data to the appropriate EDN in that block...
// In the second step, corresponding EDNs on the diagonals in separate blocks send messages...
// The third and fourth steps are similar to the second and first, respectively, except that
// the direction of the messages is reversed", and "the 'basic blocks' of this transpose pattern
// can be of size ((4x4)^j x (4x4)^j)": k steps for 2^k x 2^k. The seed gives the patterns only
// in Fig. 3.28, which the copy lacks; what follows is RECONSTRUCTED
// (docs/edn-reduction-transpose.md):
//
// - Basic pattern (found by search): in a 4x4 block the four "EDNs" are the block's diagonal
//   nodes (c, c). Every off-diagonal node sends its data to one of them in one step over
//   link-disjoint XY paths; the corner collectors have 2 links in and the inner ones 4, so
//   all 12 links into the diagonal are used. The search takes the fewest hops, then a pattern
//   with collector(x, y) == collector(y, x), then the first in enumeration order.
// - Reversal: the collectors are fixed by the transpose. The transposed image of an XY path
//   v -> (c, c) is a YX path v^T -> (c, c); reversed, it is the XY path (c, c) -> v^T over the
//   mirrored links. So "(c, c) sends v's data to v^T" is link-disjoint whenever the gather is,
//   and it leaves each collector on the ports its gather arrived on.
// - Recursion: level j (j = 1 .. k/2) sees a 4^j block as a 4x4 array of 4^(j-1) sub-blocks
//   whose data sits on their local diagonals; sub-block (P, Q) off the diagonal moves it to
//   sub-block (c, c), c = collector(P, Q), each node to the same offset: the basic pattern
//   scaled by 4^(j-1), one copy per diagonal offset, in rows and columns of its own. Steps
//   1 .. k/2 gather at levels 1, 2, ...; for odd k the middle step swaps the two off-diagonal
//   2^(k-1) quadrants, (x, y) -> (y, x) among the holders; steps k/2 + 1 + (k % 2) .. k scatter
//   at levels k/2 .. 1, each the reversal of its gather, towards the block's destination.
#pragma once

#include <array>
#include <vector>

#include "flit.h"

namespace wormsim::fw {

// One message: `from` sends to `to` in message-passing step `step` the blocks of the nodes in
// `carries` (ascending node ids), concatenated in that order.
struct TransposeSend {
  NodeId from = kNoNode;
  NodeId to = kNoNode;
  int step = 0;
  std::vector<NodeId> carries;
};

class EdnTranspose {
 public:
  explicit EdnTranspose(int k);  // 2^k x 2^k, 2 <= k <= 10; node id = x + y * 2^k

  int side() const { return side_; }
  int steps() const { return k_; }
  // The basic 4x4 pattern: the diagonal position c of the collector (c, c) that node (x, y) of
  // a 4x4 block sends to (x itself on the diagonal).
  int collector(int x, int y) const { return base_[static_cast<std::size_t>(x + 4 * y)]; }
  // Every message of the transposition, in step order.
  const std::vector<TransposeSend>& sends() const { return sends_; }

  // What one node does, each list in step order: it sends a step's messages before it takes
  // that step's receives (in the odd-k exchange a node does both).
  struct Role {
    std::vector<TransposeSend> receives;
    std::vector<TransposeSend> sends;
  };
  Role role(NodeId self) const;

  // The node at the transposed coordinates.
  NodeId transposed(NodeId n) const;

 private:
  int k_;
  int side_;
  std::array<int, 16> base_{};
  std::vector<TransposeSend> sends_;
  std::vector<std::vector<std::size_t>> sent_by_, received_by_;  // indices into sends_
};

}  // namespace wormsim::fw
