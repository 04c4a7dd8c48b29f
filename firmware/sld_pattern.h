// Single-level dominating (SLD) broadcast of a w x h 2D mesh under XY routing (seed 000 section
// 3.2, Figs. 3.2-3.3) as a pure function: the dominating set, each non-dominating node's
// dominator, and every node's sends in a broadcast from any root.
//
// Dominating set: the smallest of Cockayne's framed diagonal sets (fw::cockayne_dominating_sets,
// section 3.2.1); for 4 x 4 it is Fig. 3.3's {(0,2), (1,0), (2,3), (3,1)}. Every other node is
// assigned to exactly one adjacent dominator, the one of lowest node id (RECONSTRUCTED: the seed
// says only that the dominating nodes forward "to the appropriate neighbors").
//
// Schedule (section 3.2: "first, the message is multicast from the source node to a set of
// dominating nodes ... In the second phase, the dominating nodes deliver the message to all
// other nodes ... by forwarding the message directly to the appropriate neighbors"):
// - phase 1, U-mesh (section 3.2.2): the root and the dominators other than it (D') sorted into
//   the dimension-ordered chain, the recursive-halving rule of fw::umesh_children; the root is
//   the chain's source even when it is not a dominator;
// - phase 2: a dominator, after its U-mesh sends, sends to its assigned neighbours (not to the
//   root, which has the message).
// A node's sends in that order become message-passing steps (SendGroups) by the port model:
// - all_port (the seed's setting, section 3.2 "broadcast in all-port 2D mesh networks"; Fig.
//   3.3: "the source node transmits simultaneously to dominating nodes (1,0) and (2,3)"): the
//   U-mesh sends keep their order, and a send shares the step of the previous one unless that
//   step already has a send on its outgoing channel. (Letting a later, smaller-range send
//   overtake an earlier one whose channel is busy, fw::WormSteps's rule, makes its subtree meet
//   the delayed send: on 8x8 and larger such steps share links, so it is not used.)
// - otherwise (one_port, k_port): one U-mesh send per step, as U-mesh was designed (section
//   3.2.2);
// then each neighbour send goes in the earliest step after the node's previous sends (all-port:
// whose channel is free at the node) in which no U-mesh message of the broadcast crosses its
// link. The seed's dominating nodes forward to neighbours as soon as they hold the message
// (Fig. 3.3: "node (1,0) can also forward the message to node (1,1) in step 2"); a U-mesh worm
// passing through a dominating node in the same step would share that link (on 5x7, 8x8, 9x9
// ... it does), so the neighbour send waits: RECONSTRUCTED, the seed's 4x4 example has no such
// case. Every step's sends are then link-disjoint under XY routing (U-mesh's unicasts are
// contention-free, [103]); an all-port broadcast ends at most one step after U-mesh's bound.
// This is Fig. 3.3 exactly: from the source (2,0), (1,0) and (2,3) in step 1; in step 2 (1,0)
// sends to (0,2) and (1,1), (2,3) to (3,1), (1,3) and (2,2); the rest in step 3.
// Phase 1 takes ceil(log2(|D'| + 1)) steps on one-port semantics (U-mesh's bound; the seed
// prints floor(log2(m + 1)), which one send per step cannot meet when m + 1 is not a power of
// 2), and all-port packing never takes more; docs/edn-general.md compares the totals with the
// seed's ceil(log2 N) - 1.
#pragma once

#include <array>
#include <cstdint>
#include <unordered_set>
#include <vector>

#include "config.h"
#include "flit.h"
#include "topology.h"

namespace wormsim::fw {

class SldPattern {
 public:
  // A w x h mesh, node id = x + w * y. Throws std::invalid_argument unless w, h >= 1.
  SldPattern(int w, int h);

  int width() const { return w_; }
  int height() const { return h_; }
  int nodes() const { return w_ * h_; }
  NodeId id(int x, int y) const { return static_cast<NodeId>(x + w_ * y); }
  const std::vector<NodeId>& dominators() const { return dominators_; }  // ascending ids
  bool is_dominator(NodeId n) const { return dominator_[n] == n; }
  // n itself for a dominator, else the adjacent dominator n is assigned to.
  NodeId dominator_of(NodeId n) const { return dominator_[n]; }
  // The non-dominating nodes assigned to dominator d, ascending ids.
  const std::vector<NodeId>& assigned(NodeId d) const { return assigned_[d]; }

  // Phase 1's chain for `root`: the root and every dominator, dimension-ordered (x, then y).
  std::vector<NodeId> chain(NodeId root) const;
  // Everything `self` sends in a broadcast from `root`, in sending order: its U-mesh children,
  // then its assigned neighbours other than the root.
  std::vector<NodeId> sends(NodeId root, NodeId self) const;
  // sends(root, self) as message-passing steps after the one in which `self` receives
  // (SendGroups: group g in step s + 1 + g; a group may be empty, the last is not).
  std::vector<std::vector<NodeId>> children(NodeId root, NodeId self, PortModel ports) const;

  struct Send {
    NodeId from = 0;
    NodeId to = 0;
    int step = 0;         // 1, 2, ...
    bool phase2 = false;  // a dominator to an assigned neighbour
  };
  // The whole broadcast from `root`, ordered by step.
  std::vector<Send> schedule(NodeId root, PortModel ports) const;
  // The largest step of schedule(root, ports) (0 on a 1 x 1 mesh).
  int steps(NodeId root, PortModel ports) const;

  // Directed links of the XY path a -> b: from_node * 4 + direction (0..3 = +x, -x, +y, -y).
  std::vector<int> path(NodeId a, NodeId b) const;
  // The outgoing channel of the path's first hop (0..3 as above); -1 if a == b.
  int first_hop(NodeId a, NodeId b) const;

 private:
  // Phase 1 from `root`: the chain, each node's receive step (-1 off the chain) and the links
  // its unicasts use, per step.
  struct Phase1 {
    std::vector<NodeId> chain;
    std::size_t root_index = 0;
    std::vector<int> received;
    std::unordered_set<std::uint64_t> links;  // step * 4 N + link
  };
  Phase1 phase1(NodeId root, PortModel ports) const;
  std::vector<std::vector<NodeId>> umesh_groups(const Phase1& p1, NodeId self,
                                                PortModel ports) const;
  std::vector<std::vector<NodeId>> children(const Phase1& p1, NodeId root, NodeId self,
                                            PortModel ports) const;

  int w_;
  int h_;
  Topology topology_;
  std::vector<NodeId> dominators_;
  std::vector<NodeId> dominator_;
  std::vector<std::vector<NodeId>> assigned_;
};

}  // namespace wormsim::fw
