// All-to-all personalized communication as seed 002 section 5 builds it (docs/seed002-all-to-
// all.md; the reading with its reconstructions: docs/drafts/issue19-spec.md sections 2.3-2.4).
// Pure functions of the machine shape and the node: the permutation families of the 1-level
// algorithms and, for every algorithm, each node's program of sends and receives with the
// blocks every message carries. The firmware (all_to_all.cpp) only executes a program; the
// tests check the constructions against the seed's facts without running the network.
//
// Conventions (spec section 0): an r x c mesh or torus is network.dims [c, r], so node
// (y, x) = row y, column x has the row-major id y*c + x, which is the simulator's node id.
// Topologies that are not 2D are handled as one row of p nodes (rows 1, columns p): only the
// algorithms that need nothing but p (1-lev-lin, 1-lev-xor, logp-lev-bfly) run on them.
// Block (i, j) is node i's block for node j; node j ends with (i, j) for every i.
#pragma once

#include <cstdint>
#include <vector>

#include "config.h"
#include "topology.h"

namespace wormsim::fw::a2a {

struct MeshShape {
  int rows = 1;
  int cols = 1;
  int nodes() const { return rows * cols; }
  int row(NodeId n) const { return static_cast<int>(n) / cols; }
  int col(NodeId n) const { return static_cast<int>(n) % cols; }
  NodeId at(int row, int col) const { return static_cast<NodeId>(row * cols + col); }
};
// 2D mesh or torus: rows = side(1), cols = side(0); any other topology: 1 x p.
MeshShape shape_of(const Topology& topology);

// ---- 1-level permutation families (seed 002 section 5.1) -----------------------------------
// Permutations are numbered from 1, and the number is the tag of their messages. In
// permutation i node j sends its block for destination(i, j) to it and receives the block of
// source(i, j); a node that is its own image sends and receives nothing in that permutation.
enum class Family {
  kLinear,    // i = 1..p-1: j -> (j + i) mod p (the seed's "mod (p-1)" corrected, spec 2.3.2)
  kXor,       // i = 1..p-1: j -> j XOR i (p a power of two)
  kBalanced,  // i = 1..p: Pi_a x Pi'_b with i - 1 = a*c + b (r, c multiples of 4; spec 2.3.4)
};
int permutation_count(Family f, const MeshShape& s);
NodeId destination(Family f, const MeshShape& s, int i, NodeId j);
NodeId source(Family f, const MeshShape& s, int i, NodeId j);

// Scott's balanced permutations of a linear array of k processors, k a multiple of 4 (seed
// 002 section 5.1): the image of processor x under permutation f = 0..k-1. A tournament of
// k/2 players by the circle method (round t = 0..k/2-2 matches (k/2-1, t) and ((t+s) mod
// (k/2-1), (t-s) mod (k/2-1)), s = 1..k/4-1; RECONSTRUCTED, spec 2.3.4); each match i < j
// gives the cycle P_i -> P_j -> P_{k-i-1} -> P_{k-j-1} -> P_i: permutation 2t is round t's
// cycles, 2t+1 the same reversed; k-2 swaps P_i <-> P_{k-1-i} for i < k/4 and k-1 for
// k/4 <= i < k/2 (RECONSTRUCTED split), the other nodes fixed.
int balanced_linear(int k, int f, int x);

// ---- 2-lev-sq submeshes (spec section 0 "Blocks for the sq algorithms", RECONSTRUCTED) -----
// q = 2^floor(n/2) nodes per submesh (n = log2 p), m = p/q submeshes of b_r x b_c with
// b_r = 2^floor(log2(q)/2), b_c = q/b_r, numbered row-major, nodes inside row-major (local ids).
struct SquareBlocks {
  int q = 0;
  int m = 0;
  int block_rows = 0;  // b_r
  int block_cols = 0;  // b_c
  int submesh(const MeshShape& s, NodeId n) const;
  int local(const MeshShape& s, NodeId n) const;
  NodeId node(const MeshShape& s, int submesh, int local) const;
};
SquareBlocks square_blocks(const MeshShape& s);

// ---- programs ------------------------------------------------------------------------------
struct BlockRef {
  NodeId from = 0;
  NodeId to = 0;
  friend bool operator==(const BlockRef& a, const BlockRef& b) {
    return a.from == b.from && a.to == b.to;
  }
};
// A message: to or from `peer`, with `tag`, carrying the concatenation of `blocks` in order.
struct Action {
  enum class Kind { kSend, kReceive };
  Kind kind = Kind::kSend;
  NodeId peer = 0;
  std::uint32_t tag = 0;
  std::vector<BlockRef> blocks;
};
// A node's program, run in order: a send goes to the NI and the program goes on; a receive
// waits for the message from `peer` with `tag` (messages that come early wait in a mailbox).
// The node starts with its own blocks (self, j) and forwards each block it sends; at the end
// it holds exactly (i, self) for every i.
//  - 1-lev-lin, -xor, -bal: permutation i: send, then receive (the spec's default pacing: a
//    node starts permutation i+1 once its permutation-i send is issued and its receive has
//    arrived). Tag i. lin, xor: p - 1 steps; bal: p.
//  - 2-lev-sq (seed 002 section 5.2, the 3-step algorithm): step 1, xor permutations i =
//    1..q-1 on local ids inside each submesh, local k -> k^i carrying k's blocks for the
//    m/q submeshes t with t mod q = k^i (mL bytes); step 2, the relay of submesh j for
//    destination submesh t (local node t mod q) sends its q^2 blocks for S_t to local node
//    (j mod q) of S_t, nothing when t = j; step 3, xor permutations inside each submesh
//    carrying m blocks. Tags: step 1 i, step 2 q - 1 + g (its g-th send, g <= m/q), step 3
//    q - 1 + m/q + i; steps 2(q - 1) + m/q (31 on 16x16).
//  - 2-lev-c,r (the 2-step algorithm, section 5.3: xor in the columns, then in the rows):
//    step 1, i = 1..r-1: (y, x) -> (y^i, x) carrying c blocks, for row y^i; step 2, i =
//    1..c-1: (y, x) -> (y, x^i) carrying the r blocks of column x's nodes for (y, x^i). Tags
//    i and r - 1 + i; r + c - 2 steps.
//  - 2-lev-c,r-int (section 5.3, after [12]): step 1 as c,r; each time a step-1 message
//    arrives (the node's own row data first, "received" at time 0) the node sends its c - 1
//    blocks for its row, one message of L each, to (y, x^k), k = 1..c-1. The node's sends in
//    order have tags 1..p-1: step 1's permutation i is tag i*c, the forward to x^k of the
//    data received in permutation i (0: own) is i*c + k.
//  - logp-lev-bfly (section 5.2): superstep t = 0..n-1 exchanges p/2 blocks with
//    j XOR 2^(n-1-t): every held block whose destination differs from j in that bit. Tag t+1.
// Blocks in a message are in increasing (from, to) order unless stated.
using Program = std::vector<Action>;
Program program(CollectiveAlgorithm alg, const MeshShape& s, NodeId self);

}  // namespace wormsim::fw::a2a
