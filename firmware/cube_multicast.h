// Unicast-based multicast in all-port wormhole-routed hypercubes under E-cube routing (seed
// 001, Robinson, Judd, McKinley and Cheng): U-cube, Maxport, Combine (section 4.1, Fig. 4)
// and W-sort = Maxport over the weighted_sort'ed cube-ordered chain (section 4.2, Fig. 7).
//
// Addresses are handled as resolution keys: the address bits permuted so that the dimension
// E-cube routing resolves first is the most significant bit. With the seed's high-to-low
// resolution the key is the address itself; with low-to-high (the nCUBE-2's, which the seed
// says "does not affect any of the results") it is the bit-reversed address. A chain is the
// root and the destinations as keys relative to the root (key XOR root key), so the root is
// 0 and first: the "d_0-relative dimension-ordered chain" of section 4.1.
//
// Time steps (the seed's stepwise model, Figs. 3(d), 8): a node that received in step s
// sends its unicasts in the order the algorithm issues them; under all-port each goes out in
// step s + 1 + (the node's earlier sends on the same outgoing channel), since "node 7 cannot
// send to nodes 11 and 12 during the same time step, since both unicasts require the same
// outgoing channel" (Fig. 8(a)); under one-port every send takes its own step.
#pragma once

#include <cstdint>
#include <vector>

#include "config.h"
#include "flit.h"

namespace wormsim::fw {

// The four algorithms of seed 001 section 4 (step 4 of Fig. 4: next = center for U-cube,
// highdim for Maxport and W-sort, max(highdim, center) for Combine).
// kWSortDistributed: W-sort with every holder ordering only its own block
// (weighted_local_order); the firmware's w_sort uses the centralized order of Fig. 7.
enum class CubeAlgorithm { kUCube, kMaxport, kCombine, kWSort, kWSortDistributed };

// Definition 1: the highest bit position in which a and b differ (a != b).
int cube_delta(std::uint32_t a, std::uint32_t b);

// One unicast of Fig. 4 issued by the node at chain position `from`: it goes to chain
// position `to`, whose address field D is chain[to + 1 .. last].
struct ChainSend {
  std::size_t to = 0;
  std::size_t last = 0;
};
// The body of Fig. 4 at the node holding chain[left .. right] (chain[left] is itself), in
// issue order. `chain` must be cube-ordered (Definition 5) with each holder first in its
// block, which the dimension-ordered chain and weighted_sort's output are (Theorems 4, 5).
std::vector<ChainSend> chain_sends(CubeAlgorithm alg, const std::vector<std::uint32_t>& chain,
                                   std::size_t left, std::size_t right);

// Fig. 7: permutes chain[first .. last], a cube-ordered chain of a subcube of dimension n_s,
// so that at every level the more populated half comes first; blocks starting at position 0
// (the source's) are never swapped (Theorem 5: the source stays first).
void weighted_sort(std::vector<std::uint32_t>& chain, std::size_t first, std::size_t last, int n_s);

// The distributed W-sort (reconstructed; the seed only says a distributed version of
// complexity O(m log m) exists and defers it to its technical report [10]): a holder orders
// only the block it received, with keys relative to itself (so it is first and its halves
// are never swapped): dimension order, then Fig. 7. `block`: the holder's block as keys
// relative to the holder (0 = the holder, included); returns its local weighted chain. The
// receivers then re-key their sub-blocks relative to themselves, so ties between equally
// populated halves may break differently from the centralized order.
std::vector<std::uint32_t> weighted_local_order(std::vector<std::uint32_t> block, int n);

// Bit permutation between addresses and resolution keys (`order`: dimensions, first resolved
// first, as FirmwareTables::resolution_order).
std::uint32_t cube_key(NodeId node, const std::vector<int>& order);
NodeId cube_node(std::uint32_t key, const std::vector<int>& order);

// A whole multicast from `root` to `destinations` (distinct, root excluded) in an n-cube.
class CubeMulticast {
 public:
  struct Send {
    NodeId from = kNoNode;
    NodeId to = kNoNode;
    int step = 0;       // message-passing step, 1 = the root's first
    int dimension = 0;  // outgoing channel: the first dimension E-cube routing takes
  };
  CubeMulticast(CubeAlgorithm alg, const std::vector<int>& order, NodeId root,
                const std::vector<NodeId>& destinations, PortModel ports);

  // The chain the multicast runs over, as nodes, root first (for W-sort: the weighted one).
  const std::vector<NodeId>& chain() const { return chain_; }
  // Every unicast, in the order the nodes issue them (a node's sends consecutive).
  const std::vector<Send>& sends() const { return sends_; }
  // The step in which `n` receives (0 for the root), -1 for a node outside the multicast.
  int receive_step(NodeId n) const;
  // The largest step: the multicast's length in steps.
  int steps() const { return steps_; }
  // What `self` sends, one group per step after its receive step (group g goes out in step
  // receive_step(self) + 1 + g; fw::SendGroups).
  std::vector<std::vector<NodeId>> groups(NodeId self) const;

 private:
  std::vector<NodeId> chain_;
  std::vector<Send> sends_;
  std::vector<std::pair<NodeId, int>> received_;  // sorted by node
  int steps_ = 0;
};

}  // namespace wormsim::fw
