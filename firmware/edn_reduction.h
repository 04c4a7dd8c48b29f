// EDN reduction and gather pattern of an all-port 2D mesh under XY routing (seed 000 section
// 3.5, Fig. 3.26, Tables 3.6-3.7), as a pure function of the root.
//
// Seed 000 section 3.5: reversing the EDN broadcast tree fails under XY routing ("the children
// nodes of some parent nodes cannot all transmit to that parent at the same time because the
// messages require a common channel"); the fix is "rotating the pattern of EDN nodes by 90
// degrees ... In the first step, all level-0 nodes send the message to their neighbor that is
// an EDN. After three steps, the four level-3 EDNs have received the data from their
// children. Two more completion steps are required to deliver the data to the root node."
//
// Tree: the broadcast pattern rotated by 90 degrees, (x, y) -> (w - 1 - y, x), with every edge
// reversed. On 2^k x 2^k meshes the pattern is Appendix A's (EdnPattern, section 3.3; k - 1
// steps, Table 3.6): a level-j node sends its subtree's data to its parent in step j + 1. On
// every other w x h mesh it is the general EDN descent (EdnMesh, sections 3.3.2-3.3.3, built
// on the h x w mesh that the rotation maps onto w x h; height() rounds, Tables 3.2-3.4): a node
// reached in descent round r sends in step height - r + 1. Why this stays contention-free
// (docs/edn-reduction-transpose.md): the rotation turns a broadcast step's link-disjoint XY
// paths into YX paths, and a YX path reversed is exactly the XY route from child to parent,
// over the same links in the opposite direction.
// Completion (RECONSTRUCTED; the seed gives it only as a step count): the rotated top nodes
// (four on 2^k x 2^k, two to six elsewhere) deliver to the root along a tree over {tops,
// root} whose sends are found by search:
// fewest steps with link-disjoint XY paths in every step, then fewest messages arriving at one
// node in one step, then fewest hops. The root keeps its data and what its tree children send
// it; its ancestors forward their subtrees without the root's, so every node but the root
// sends exactly once: N - 1 messages.
#pragma once

#include <vector>

#include "edn_mesh.h"
#include "edn_pattern.h"
#include "flit.h"

namespace wormsim::fw {

// One message of a reduction or gather: `from` sends to `to` in message-passing step `step`
// the data of the nodes in `carries` (ascending ids; `from`'s own among them): their combined
// vector (reduction) or their blocks in that order (gather).
struct EdnSend {
  NodeId from = kNoNode;
  NodeId to = kNoNode;
  int step = 0;
  std::vector<NodeId> carries;
};

class EdnReduction {
 public:
  explicit EdnReduction(int k);  // 2^k x 2^k, 2 <= k <= 10; node id = x + y * 2^k
  // dims {w, h}, w, h >= 1: the 2^k x 2^k squares (k >= 2) as EdnReduction(k), every other
  // mesh from EdnMesh. Node id = x + y * w. Throws std::invalid_argument for other shapes and
  // std::logic_error if no pattern or no completion is found.
  explicit EdnReduction(const std::vector<int>& dims);

  int columns() const { return w_; }
  int rows() const { return h_; }
  // Steps of the tree phase (seed 000 Tables 3.6-3.7's "tree height"): k - 1 on 2^k x 2^k.
  int tree_height() const { return tree_height_; }
  // The rotated pattern's top nodes, which hold their subtrees after the tree phase.
  const std::vector<NodeId>& tops() const { return tops_; }
  // The parent of `n` in the rotated, reversed tree (kNoNode for the top nodes) and the step
  // in which n sends to it.
  NodeId tree_parent(NodeId n) const { return parent_[n]; }
  int tree_step(NodeId n) const { return step_[n]; }

  // The completion phase for `root`: sends among the top nodes and to the root, steps
  // numbered from 1 (add tree_height() for the operation's step).
  std::vector<EdnSend> completion(NodeId root) const;
  // Every message of a reduction or gather to `root`, in step order.
  std::vector<EdnSend> sends(NodeId root) const;

  // What one node does: the messages it receives (any order; all before its send) and the
  // one it sends (none at the root).
  struct Role {
    std::vector<EdnSend> receives;
    std::vector<EdnSend> sends;  // at most one
  };
  Role role(NodeId root, NodeId self) const;

  // The directed links of the XY path from a to b (as from_node * 4 + direction).
  std::vector<int> xy_path(NodeId a, NodeId b) const;

 private:
  // The nodes whose data v sends up the tree: its subtree, less the root's if v is an
  // ancestor of the root.
  std::vector<NodeId> carries_of(NodeId v, NodeId root) const;

  void from_pattern(int k);
  void from_mesh(const std::vector<int>& dims);
  // Subtrees from parent_ / step_ / tree_children_; checks that the tops cover every node.
  void finish();

  int w_ = 0;
  int h_ = 0;
  int tree_height_ = 0;
  std::vector<NodeId> tops_;
  std::vector<NodeId> parent_;
  std::vector<int> step_;
  std::vector<std::vector<NodeId>> tree_children_;
  std::vector<std::vector<NodeId>> subtree_;  // ascending ids, the node itself included
};

}  // namespace wormsim::fw
