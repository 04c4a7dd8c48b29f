// Extended dominating node (EDN) broadcast pattern of any 2D mesh (w x h, XY routing) and of
// 3D meshes (w x h x d, XYZ routing), all-port (seed 000 sections 3.3.2-3.3.3, 3.4), as a pure
// function. The 2^k x 2^k squares keep their Appendix A pattern (EdnPattern); this class
// covers the rest. RECONSTRUCTED where the seed shows only figures (docs/edn-general.md):
//
// Blocks. A mesh is split recursively into sub-blocks: in 3D first along Z while d >= 8 (three
// parts when d >= 12, "positioning three basic units along the z-axis", section 3.4.2; else
// two), then in X and Y, halving every side of 8 or more (four quadrants of a 2D block,
// section 3.3.2; section 3.4.1 in the XY plane), down to basic blocks with every side at most
// 7 (Fig. 3.11's 5x5, 6x6, 7x7 building blocks; 4x4 of Fig. 3.6; 4x4x4 and 4x4x5 of section
// 3.4). n = c x 2^k halves exactly into c x c blocks, c in {4, 5, 6, 7} (Tables 3.1-3.4).
// Basic block: a dominating set (Cockayne's diagonal pattern of Fig. 3.2, with the
// dominators outside the frame moved inside and redundant ones dropped; in 3D one such set per
// XY plane, mirrored in alternate planes) forwards to its neighbours in the block's last
// round; if the set has more than four nodes, a subset of top nodes reaches the others one
// round earlier over link-disjoint paths (Definition 2), so a basic block has tree height 2
// (1 for 4 x 4, whose four dominating nodes are its top nodes as in Fig. 3.6).
// Combining: the top nodes of a block are a subset of its sub-blocks' top nodes that reach
// all the other sub-block top nodes in one round over link-disjoint dimension-ordered paths
// (Definitions 2-3), the fewest that can (at least 2 in 2D, since one top node cannot reach
// the three other quadrants over disjoint XY paths; at least 4 in 3D, the seed's "basic unit"
// of four), each sending about equally many; sub-blocks are placed mirrored about the block's
// centre lines where that lets such a set exist (Fig. 3.9's 16x16 "right half is a mirror image
// of the left half ... lower half is a mirror image of the top half"). A sub-block's own rounds
// follow one round after the block's top round.
//
// Schedule for a broadcast from `root` (seed 000 section 3.3.2, Fig. 3.10): startup steps
// bring the message to every top node (1 step when the root reaches all of them over disjoint
// paths, else 2: in step 1 from the root, in step 2 from every holder, link-disjoint in each
// step); then all top nodes descend together, round r in step startup + r, so every step's
// sends are link-disjoint (stepwise contention-free) and the total is startup + height. In 2D
// the top-level set is chosen with a "hub", a top node that reaches all others in one step,
// when one exists, so every root needs at most 2 startup steps (Tables 3.2-3.4: min 1, max 2).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "flit.h"

namespace wormsim::fw {

class EdnMesh {
 public:
  // dims: {w, h} or {w, h, d}, every side >= 1; node id = x + w * (y + h * z). Throws
  // std::invalid_argument for other shapes, std::logic_error if no pattern is found.
  explicit EdnMesh(std::vector<int> dims);

  const std::vector<int>& dims() const { return dims_; }
  int nodes() const { return static_cast<int>(round_.size()); }
  const std::vector<NodeId>& tops() const { return tops_; }
  // Rounds of the descent from the top nodes (seed 000 Tables 3.1-3.4 "tree height").
  int height() const { return height_; }
  // The round in which `n` receives in the descent (0 for a top node).
  int receive_round(NodeId n) const { return round_[n]; }
  // What `n` sends in the descent, with the round of each send, rounds ascending.
  struct TreeSend {
    NodeId to;
    int round;
  };
  const std::vector<TreeSend>& tree_sends(NodeId n) const { return sends_[n]; }

  struct Startup {
    int steps = 0;                                 // 0 (one node), 1 or 2 (or more, never seen)
    std::vector<std::pair<NodeId, NodeId>> step1;  // (sender, receiver)
    std::vector<std::pair<NodeId, NodeId>> step2;
    std::vector<std::vector<std::pair<NodeId, NodeId>>> later;  // steps 3.. (fallback)
  };
  // How a broadcast from `root` reaches the top nodes: fewest steps, link-disjoint paths in
  // every step, then the busiest sender sending fewest, then fewest hops.
  Startup startup(NodeId root) const;
  // startup(root).steps, without building the sends.
  int startup_steps(NodeId root) const { return startup_steps_[root]; }
  // Everything `self` sends in a broadcast from `root`, one group per message-passing step
  // after the one in which it receives (SendGroups; groups may be empty, the last is not).
  std::vector<std::vector<NodeId>> children(NodeId root, NodeId self) const;

  // The directed links of the dimension-ordered path from a to b (from_node * 6 + direction,
  // direction 0..5 = +x, -x, +y, -y, +z, -z).
  std::vector<int> path(NodeId a, NodeId b) const;

 private:
  int full_startup_steps(NodeId root) const;

  std::vector<int> dims_;
  std::vector<NodeId> tops_;
  int height_ = 0;
  std::vector<int> round_;
  std::vector<std::vector<TreeSend>> sends_;
  NodeId hub_ = kNoNode;  // a top node reaching every other top node in one step, if any
  std::vector<std::uint8_t> startup_steps_;
};

}  // namespace wormsim::fw
