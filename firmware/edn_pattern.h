// Extended dominating node (EDN) broadcast pattern of a 2^k x 2^k all-port mesh under XY
// routing (seed 000 section 3.3, Figs. 3.5-3.10, Appendix A).
//
// Level 1: every 4x4 block holds a perfect dominating set of 4 nodes, pattern B of Fig. 3.6
// ({(0,2),(1,0),(2,3),(3,1)} as (x,y)) or its mirror image A; the 8x8 mesh uses pattern D of
// Fig. 3.8(b) (B blocks on the left, A blocks on the right), whose four level-2 nodes are
// (1,0), (6,0), (2,7), (5,7) (Appendix A boundary condition). A 2^k mesh (k >= 4) is four
// copies of the 2^(k-1) pattern: upper-left as is, upper-right mirrored in x, lower-left
// rotated by 180 degrees within its quadrant, lower-right rotated by 180 degrees about the
// mesh centre; its four top nodes follow the Appendix A recurrence A(k) = C(k-1),
// B(k) = (2^k-1-Cx(k-1), Cy(k-1)), C(k) = (2^(k-1)-1-Cx(k-1), 2^k-1-Cy(k-1)),
// D(k) = (2^k-1-Dx(k-1), 2^k-1-Dy(k-1)).
//
// In every block the four top nodes send, in one message-passing step, to the other twelve
// top nodes of its four sub-blocks, three each, over edge-disjoint XY paths (Definition 2);
// the assignment is found by search, since the seed gives it only in figures. Level-1 nodes
// finally send to their neighbours. A broadcast from any source first reaches the four top
// nodes of the mesh in two startup steps (Fig. 3.10), then descends the k-1 levels: k+1
// steps in all (Table 3.1).
#pragma once

#include <array>
#include <utility>
#include <vector>

#include "flit.h"

namespace wormsim::fw {

class EdnPattern {
 public:
  explicit EdnPattern(int k);  // 2^k x 2^k, k >= 2; node id = x + y * 2^k

  int side() const { return side_; }
  const std::array<NodeId, 4>& tops() const { return tops_; }
  // Highest EDN level of a node (0 = dominated only, k-1 = a top node).
  int level(NodeId n) const { return level_[n]; }
  // Nodes `n` forwards to in the level descent, highest level first.
  const std::vector<NodeId>& tree_children(NodeId n) const { return children_[n]; }

  struct Startup {
    std::vector<std::pair<NodeId, NodeId>> step1;  // (sender, receiver)
    std::vector<std::pair<NodeId, NodeId>> step2;
  };
  // How a broadcast from `root` reaches the four top nodes (Fig. 3.10): step-1 sends from the
  // root over edge-disjoint paths, then step-2 sends from the holders, chosen so that step-2
  // paths are edge-disjoint too, the busiest sender sends as few messages as possible and
  // step 1 reaches as many top nodes as it can.
  Startup startup(NodeId root) const;
  // Everything `self` sends in a broadcast from `root`, one group per message-passing step:
  // its startup sends (step 1, step 2), then its tree children level by level, highest
  // first (without the root, which has the message already). Empty groups are dropped, so a
  // top node reached in step 1 starts its descent in step 2 (the overlap of Fig. 3.10(a)).
  std::vector<std::vector<NodeId>> children(NodeId root, NodeId self) const;

  // The directed links of the XY path from a to b (as from_node * 4 + direction).
  std::vector<int> xy_path(NodeId a, NodeId b) const;

 private:
  int side_;
  std::array<NodeId, 4> tops_{};
  std::vector<int> level_;
  std::vector<std::vector<NodeId>> children_;
  std::vector<std::vector<int>> child_level_;  // level of the sender's role per child
};

}  // namespace wormsim::fw
