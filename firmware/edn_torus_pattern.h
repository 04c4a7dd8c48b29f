// Extended dominating node (EDN) broadcast on all-port 2D and 3D tori under dimension-ordered
// routing (seed 000 chapter 4), as a pure function of the root.
//
// 2D, 2^d x 2^d, d >= 2 (Theorem 1, Corollaries 1-2): phases {YT}_delta, delta = side/4,
// side/16, ... down to 1 (d even: 4^k x 4^k) or down to 2 followed by one F step with delta = 1
// (d odd: (2 x 4^k) x (2 x 4^k)); d steps in all. In a Y step a holder (x, y) sends Y_a, Y_b,
// Y_c to (x - delta, y - delta), (x, y + 2 delta), (x + 2 delta, y) (Fig. 4.7). In the T step
// the holder and those three each send to three more nodes, so that the sixteen form a 4x4
// grid of spacing delta (Fig. 4.5). The seed's T_pattern (Fig. 4.8) is missing from its text;
// kTPattern is RECONSTRUCTED (docs/edn-torus.md). An F step sends to (x - 1, y + 1), (x, y + 1),
// (x + 1, y) (Fig. 4.9, Corollary 3's proof).
//
// 3D, 2^d x 2^d x z, d >= 2, z >= 1 (section 4.3, Theorem 3): the message first reaches one node
// in every XY plane, then every plane runs the 2D broadcast from that node. 2 <= z <= 7: one
// step, the sends of Fig. 4.12(a), one per plane. z >= 8: the root sends the same six messages,
// one into each of seven zones of contiguous planes (its own zone is the seventh); then the
// holder of a zone of several planes splits it into at most six sub-zones and sends to one node
// in each without crossing a wrap-around link (Fig. 4.12(b)), until every zone is one plane.
// The zone layout is RECONSTRUCTED from the text (docs/edn-torus.md).
//
// Routes: dimension-ordered, x, then y, then z, the shorter way round each ring; a route of
// exactly half a ring goes the + way, as systemc/routing/route_compute.cpp does. The seed's Y
// pattern is stepwise contention-free only under that tie rule (docs/edn-torus.md).
//
// Node id = x + X * (y + Y * z) (docs/architecture.md). The torus is symmetric, so the pattern
// from any root is the pattern from node 0 translated (seed 000 section 4.2: "the number of
// steps and patterns involved in a broadcast operation are independent of the location of the
// source node").
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "flit.h"

namespace wormsim::fw {

// One send between XY planes in the 3D distribution, planes given as offsets from the root's
// plane in (-z/2, z/2]; the receiver sits at the sender's (x + dx, y + dy).
struct PlaneSend {
  int from = 0;
  int to = 0;
  int dx = 0;
  int dy = 0;
  int step = 0;
};

// One message of a broadcast.
struct TorusSend {
  NodeId from = kNoNode;
  NodeId to = kNoNode;
  int step = 0;
};

class EdnTorusPattern {
 public:
  // dims {2^d, 2^d} or {2^d, 2^d, z}, 2 <= d <= 10, 1 <= z <= 4096; throws std::invalid_argument
  // otherwise (unsupported(dims) says why).
  explicit EdnTorusPattern(const std::vector<int>& dims);
  // Why `dims` has no pattern, or "" if it has one.
  static std::string unsupported(const std::vector<int>& dims);

  const std::vector<int>& dims() const { return dims_; }
  int nodes() const { return static_cast<int>(step_.size()); }
  // Message-passing steps of a broadcast from any root.
  int steps() const { return steps_; }
  // The step in which `n` receives a broadcast from `root` (0 for the root).
  int receive_step(NodeId root, NodeId n) const;
  // What `self` sends in a broadcast from `root`: group g in step receive_step + 1 + g.
  std::vector<std::vector<NodeId>> children(NodeId root, NodeId self) const;
  // Every message of a broadcast from `root`, by step, each sender's in its send order.
  std::vector<TorusSend> sends(NodeId root) const;

  // The 2D steps of a 2^d x 2^d plane in order: ('Y' | 'T' | 'F', delta).
  static std::vector<std::pair<char, int>> plane_steps(int side);
  // The sends between planes of a 3D broadcast on z planes, by step (none for z = 1).
  static std::vector<PlaneSend> plane_distribution(int z);

 private:
  NodeId translate(NodeId n, NodeId by, int sign) const;

  std::vector<int> dims_;
  int steps_ = 0;
  std::vector<int> step_;                                 // from root 0
  std::vector<std::vector<std::vector<NodeId>>> groups_;  // from root 0
};

}  // namespace wormsim::fw
