// Collective operations as node firmware (SPMD: every node runs run_collective for the same
// Operation). Algorithms use only the Runtime API; the harness (systemc/app/collective_harness.h)
// starts operations one at a time on an idle network and checks what every node delivers.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "config.h"
#include "edn_mesh.h"
#include "edn_pattern.h"
#include "edn_torus_pattern.h"
#include "edn_reduction.h"
#include "edn_transpose.h"
#include "runtime.h"
#include "sld_pattern.h"

namespace wormsim::fw {

struct Operation {
  int index = 0;
  CollectiveAlgorithm algorithm = CollectiveAlgorithm::kRecursiveDoubling;
  NodeId root = 0;
  std::vector<NodeId> destinations;     // sorted, without the root (ping_pong: the peer)
  std::uint32_t bytes = 0;              // scatter, gather, all-to-all, allgather: bytes per block
  ReduceOp reduce_op = ReduceOp::kSum;  // reduce, allreduce
  ReduceType reduce_type = ReduceType::kInt32;  // reduce, allreduce: op.bytes / element size
  double split_gamma = 0.75;  // o2a/a2o_logp_lev_rec: collective.split_gamma (seed 002 s. 3.1, 4)
  int segments = 4;           // fibonacci_tree: collective.segments (seed 000 section 5.3)
};

// Scatter (is_scatter): the root's data is one chunk of op.bytes per destination, in
// op.destinations order; destination d must deliver exactly its chunk.
std::vector<std::uint8_t> scatter_chunk(const Operation& op, const std::vector<std::uint8_t>& data,
                                        NodeId dst);

// Read-only machine description shared by all nodes' firmware: the order in which routing
// resolves dimensions (the dimension-ordered chain of U-mesh sorts by it) and, for EDN, the
// forwarding pattern of the mesh, computed once in advance as seed 000 Appendix A describes
// ("any node in the mesh can compute in advance the list of nodes that it should forward to").
struct FirmwareTables {
  std::vector<int> resolution_order;      // dimensions, first resolved first
  std::shared_ptr<const EdnPattern> edn;  // set when the run uses edn_broadcast
  // Set when the run uses edn_reduce or edn_gather (seed 000 section 3.5).
  std::shared_ptr<const EdnReduction> edn_reduction;
  // Set when the run uses edn_transpose (seed 000 section 3.6).
  std::shared_ptr<const EdnTranspose> edn_transpose;
  PortLayout layout;                               // the router's port model
  Cycle combine_cycles_per_element = 0;            // reductions: node.combine_cycles_per_element
  MultidestMode multidest = MultidestMode::kNone;  // the routers' multidestination support
  // Set when the run uses edn_broadcast on a torus (seed 000 chapter 4).
  std::shared_ptr<const EdnTorusPattern> edn_torus;
  // Set when the run uses edn_broadcast on a mesh other than 2^k x 2^k (seed 000 sections
  // 3.3.2, 3.4; fw::EdnMesh).
  std::shared_ptr<const EdnMesh> edn_mesh;
  // Set when the run uses sld_broadcast (seed 000 section 3.2; fw::SldPattern).
  std::shared_ptr<const SldPattern> sld;
};
FirmwareTables make_firmware_tables(const Config& config);

using Deliver = std::function<void(const std::vector<std::uint8_t>&)>;

// A reduction operator: acc = acc (op) in, element-wise; both hold op.bytes. The built-in ones
// are fw::builtin_combine(op.reduce_op, op.reduce_type); firmware may pass its own.
using Combine =
    std::function<void(std::vector<std::uint8_t>& acc, const std::vector<std::uint8_t>& in)>;
Combine builtin_combine(ReduceOp op, ReduceType type);

// Reductions with any operator (the harness runs them with the configured built-in one). After
// each combine the processor computes (op.bytes / element size) x combine_cycles cycles.
// reduce_binomial: binomial tree over ranks relative to the root; in round k a node whose rank
// has bit k as its lowest set bit sends its partial result to rank - 2^k; ceil(log2 p) steps;
// the root delivers.
void reduce_binomial(Runtime& rt, const Operation& op, std::vector<std::uint8_t> data,
                     const Deliver& deliver, const Combine& combine, Cycle combine_cycles);
// allreduce_recursive_doubling: log2 p' rounds of pairwise exchange among p' = 2^floor(log2 p)
// nodes; the first 2(p - p') nodes fold pairwise into them first and get the result back
// after (Thakur, Rabenseifner and Gropp 2005); every node delivers.
void allreduce_recursive_doubling(Runtime& rt, const Operation& op, std::vector<std::uint8_t> data,
                                  const Deliver& deliver, const Combine& combine,
                                  Cycle combine_cycles);

// Runs `op` on this node. `data` is the root's message (ignored on other nodes). Every
// destination calls deliver(data) exactly once, when the data is its application's (after
// gamma); in ping_pong the root delivers the echo.
void run_collective(Runtime& rt, const Operation& op, const std::vector<std::uint8_t>& data,
                    const Deliver& deliver, const FirmwareTables& tables);

// --- the algorithms' forwarding rules (pure functions of the node and the operation) ---
// A node's sends in message-passing steps: group g goes out in step s + 1 + g, where s is the
// step in which the node received the message (0 at the root). The sends of one group share
// a step (an all-port node sends them on different ports); a one-port algorithm has one send
// per group. The step travels in the message tag, which is how the harness counts steps.
using SendGroups = std::vector<std::vector<NodeId>>;
SendGroups one_per_step(const std::vector<NodeId>& sends);

// Step tags for worms a node sends after receiving in step `base` (0 at the root), the
// convention of path_multicast: a one-port node's worms take one step each; an all-port
// node's worms share a step unless they leave on the same port.
class WormSteps {
 public:
  WormSteps(const PortLayout& layout, std::uint32_t base)
      : all_port_(layout.model == PortModel::kAllPort), base_(base) {}
  std::uint32_t next(int first_hop_port);

 private:
  bool all_port_;
  std::uint32_t base_;
  std::uint32_t count_ = 0;
  std::vector<std::pair<int, std::uint32_t>> per_port_;
};

// --- scatter (seed 003) ---
// Binomial-tree scatter (BT) over `chain` (the root and the destinations, dimension-ordered):
// recursive halving; the holder of a range sends the half without itself, as one message
// with that half's chunks in chain order, to the half's node nearest to it, larger halves
// first. `receives`: the nodes whose chunks `self` gets (empty at the root and outside the
// chain); `sends`: in order, each receiver and the nodes whose chunks it carries.
struct ScatterSend {
  NodeId to = kNoNode;
  std::vector<NodeId> carries;
};
struct BinomialRole {
  std::vector<NodeId> receives;
  std::vector<ScatterSend> sends;
};
BinomialRole binomial_scatter_role(const std::vector<NodeId>& chain, std::size_t root_index,
                                   NodeId self);
// HMT's leader of node n: the node on the root's line in the first resolved dimension
// (`dim`) that shares n's coordinate in that dimension; a path worm along the root's line
// reaches every leader, and each leader's group differs from it only in later dimensions.
NodeId line_leader(const Topology& topology, int dim, NodeId root, NodeId n);

// --- m_array_2level (our earlier two-level array; seed 004's own arrays: m_array.h) ---
// The participants (the root and the destinations) in base-routing path order (Hamiltonian
// labels, else the dimension-ordered chain), rotated to start at the root, are laid out as
// a `levels`-dimensional array of side s (the least s with s^levels >= participants),
// position p having base-s digits. A group is a line of the array. A node receives in the
// level of its least significant nonzero digit and then multicasts to its line in every
// lower level, highest first; the root multicasts in every level. m_array_2level: 2 levels
// (rows of consecutive path positions, columns strided).
int array_side(std::size_t participants, int levels);
// The groups `self` multicasts to, in send order (each one worm set), for participants
// `order` (path order, root included).
std::vector<std::vector<NodeId>> array_groups(const std::vector<NodeId>& order, NodeId root,
                                              NodeId self, int levels);

// Nodes sorted along the dimension-ordered chain: coordinates compared in routing resolution
// order, the first resolved dimension most significant (McKinley et al.'s U-mesh ordering,
// which makes each step's unicasts contention-free under dimension-ordered routing).
std::vector<NodeId> dimension_ordered_chain(const Topology& topology, const std::vector<int>& order,
                                            std::vector<NodeId> nodes);
// U-mesh / recursive doubling (seed 000 sections 3.2.2, 3.3.3): the nodes `self` sends to,
// in order, when `chain[root_index]` multicasts to the whole chain.
std::vector<NodeId> umesh_children(const std::vector<NodeId>& chain, std::size_t root_index,
                                   NodeId self);
// Dimensional broadcast (seed 000 section 5.3, Fig. 5.5): recursive halving along the root's
// line in the first resolved dimension, then every holder along its line in the next one.
std::vector<NodeId> dimensional_children(const Topology& topology, const std::vector<int>& order,
                                         NodeId root, NodeId self);

// U-torus (seed 000 section 4.4, Robinson, McKinley and Cheng's algorithm, its reference [124]):
// the root and `nodes` sorted by their addresses relative to the root, (c - root's c) mod k in
// every dimension, compared in routing resolution order with the first resolved dimension most
// significant; the root comes first, and umesh_children(chain, 0, self) gives each node's
// sends. On 2^a x 2^b tori every send goes the + way (at most half a ring) in one dimension:
// step i of dimension X spans X / 2^i hops (section 4.4.2).
std::vector<NodeId> u_torus_chain(const Topology& topology, const std::vector<int>& order,
                                  NodeId root, std::vector<NodeId> nodes);

}  // namespace wormsim::fw
