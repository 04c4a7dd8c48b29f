// Seed 002's one-to-all (scatter, section 3, Fig. 1) and all-to-one (gather, section 4)
// constructions on an r x c 2D mesh, as pure functions of (rows, cols, root, algorithm,
// gamma): which node sends which blocks to whom, in which order and superstep. The firmware
// (one_to_all.cpp, all_to_one.cpp) executes a plan; tests check the seed's numbers on it.
// Docs: docs/seed002-one-to-all.md; the reading every rule follows: docs/drafts/issue19-spec.md
// sections 0, 2.0-2.2.
//
// Ids are row-major: node (y, x) is y * cols + x (wormsim's x-fastest ids with network.dims
// [cols, rows]). A "block" is one node's L bytes, named by the node it belongs to (scatter: its
// destination; gather: its source). Contracts of every plan:
//  - scatter: every node but the root receives exactly one message, from `parent`, holding
//    `receives` (its own block among them); a message holds the blocks its send names, in
//    `carries` order; the root's sends carry only blocks of other nodes;
//  - a node's sends are in issue order: by superstep, and within a superstep farthest
//    (Manhattan) first, ties by increasing id (rule R1, seed 002 section 3.2);
//  - `step` is the superstep in which the message is sent (1-based), the message's tag;
//  - gather: every node but the root sends exactly one message, to `parent`, holding its own
//    block and those of its `children`' messages, in `carries` order; it sends once all its
//    children have delivered (data-driven, spec R3); its `step` is 1 + the largest step of its
//    children's messages (1 at a leaf).
#pragma once

#include <string>
#include <vector>

#include "config.h"

namespace wormsim::fw {

struct PlanSend {
  NodeId to = kNoNode;
  std::vector<NodeId> carries;  // the blocks the message holds, in message order
  int step = 0;                 // superstep in which it is sent (the message tag)
};

struct ScatterPlan {
  std::vector<std::vector<PlanSend>> sends;   // per node, in issue order
  std::vector<NodeId> parent;                 // per node; kNoNode at the root
  std::vector<std::vector<NodeId>> receives;  // per node: the blocks of its one message
};

struct GatherPlan {
  std::vector<NodeId> parent;                 // per node; kNoNode at the root
  std::vector<std::vector<NodeId>> carries;   // per node: the blocks of its message, in order
  std::vector<std::vector<NodeId>> children;  // per node: whose messages it waits for
  std::vector<int> step;                      // per node: superstep of its send (0 at the root)
};

// The "sq" blocks (spec section 0): q = 2^floor(log2(p)/2) nodes, b_r = 2^floor(log2(q)/2)
// rows by b_c = q / b_r columns; 16x16: 4x4, 8x8: 2x4, 4x8: 2x2.
struct SqBlock {
  int rows = 0;
  int cols = 0;
};
SqBlock sq_block(int rows, int cols);

// Empty when the algorithm is defined on an r x c mesh; otherwise why not (3-lev-sq needs
// power-of-two sides holding its blocks; Config::validate checks the same).
std::string delta_plan_unsupported(int rows, int cols, CollectiveAlgorithm alg);

// One-to-all: o2a_1_lev_dir, o2a_1_lev_sys_br, o2a_1_lev_our_br, o2a_2_lev_rec, o2a_3_lev_sq,
// o2a_logp_lev_sq, o2a_logp_lev_rec (gamma in [0.5, 1)). The broadcasts carry every block but
// the root's, in increasing id order, in every message.
ScatterPlan o2a_plan(int rows, int cols, NodeId root, CollectiveAlgorithm alg, double gamma);

// All-to-one: a2o_1_lev_dir, a2o_2_lev_rec, a2o_3_lev_sq, a2o_logp_lev_sq, a2o_logp_lev_rec
// (gamma in (0, 1), seed 002 section 4).
GatherPlan a2o_plan(int rows, int cols, NodeId root, CollectiveAlgorithm alg, double gamma);

// Snake-like row-major order (seed 002 section 3.2): the snake index of node n and back.
int snake_index(int cols, NodeId n);
NodeId snake_node(int cols, int index);

}  // namespace wormsim::fw
