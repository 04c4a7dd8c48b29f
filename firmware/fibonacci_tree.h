// Fibonacci-tree broadcast (FT), seed 000 section 5.3, Fig. 5.7 (Bruck et al. [50]), as a
// pure function of (P, root position, k).
//
// The message is cut into k pieces (piece j: bytes [L j / k, L (j + 1) / k)). A step is one
// piece crossing one tree edge. A node forwards its pieces to its children one child after
// the other, all k pieces of a child before the next, each piece as soon as it has it: a node
// whose first piece arrives in step a sends child i piece j in step a + 1 + (i - 1) k + j (the
// root: as if a = 0). Then the number of nodes holding the whole message after t steps is at
// most the seed's recursion
//     N(t, k) = N(t - k, k) + N(t - 1, k) for t >= k,  N(t, k) = 1 otherwise,
// and the tree below reaches it: a broadcast to P nodes takes t(P, k) = min{t : N(t, k) >= P}
// steps (t(2^n x 2^n, 1) = 2n, the recursive doubling of the text), k (P - 1) messages.
//
// Layout (the seed: "based on lexicographical ordering of nodes, which prevents depth
// contention"): nodes sit on a chain (the firmware uses the dimension-ordered chain rotated
// to start at the root, reconstructed: the text does not say where the root goes); every
// subtree is a contiguous run of the chain starting at its root, and a node gives its
// children runs from the far end of its own run inwards, first child farthest, each run as
// long as the child's capacity allows (greedy).
#pragma once

#include <cstdint>
#include <vector>

namespace wormsim::fw {

// N(t, k) of the seed (saturating at 2^62).
std::uint64_t fibonacci_nodes(int t, int k);
// t(P, k): the fewest steps in which N(t, k) >= P.
int fibonacci_steps(std::uint64_t p, int k);

class FibonacciTree {
 public:
  // A tree over chain positions 0..p-1 rooted at position 0; p >= 1, k >= 1.
  FibonacciTree(int p, int k);

  int size() const { return static_cast<int>(first_.size()); }
  int segments() const { return k_; }
  int steps() const { return steps_; }  // t(P, k)
  // Position of the parent of `pos` (-1 at the root), its children in send order, the step
  // in which its first piece arrives (0 at the root) and in which its last does.
  int parent(int pos) const { return parent_[static_cast<std::size_t>(pos)]; }
  const std::vector<int>& children(int pos) const {
    return children_[static_cast<std::size_t>(pos)];
  }
  int first_step(int pos) const { return first_[static_cast<std::size_t>(pos)]; }
  int complete_step(int pos) const { return pos == 0 ? 0 : first_step(pos) + k_ - 1; }
  // The step in which piece j goes from parent(pos) to pos (the message's tag).
  int piece_step(int pos, int j) const { return first_step(pos) + j; }

 private:
  void build(int pos, int end, int slack);

  int k_;
  int steps_ = 0;
  std::vector<int> parent_, first_;
  std::vector<std::vector<int>> children_;
  std::vector<std::uint64_t> capacity_;  // C(x): nodes a non-root node with slack x can hold
};

}  // namespace wormsim::fw
