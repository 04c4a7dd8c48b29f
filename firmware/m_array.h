// Multicast virtual topologies of Huang, Huang and McKinley (seed 004): the M-array
// (Definition 1), the REM-array and the M-mesh (Definition 4), and their "normal" collective
// algorithms (section 4), as pure functions of array positions. docs/multidestination.md
// ("Multicast virtual topologies") says what the seed gives and what is reconstructed here.
//
// Positions 0..length-1 are the nodes in the order of the array (seed 004 section 5.1: the
// Hamiltonian path's order). Definition 1: an M-array of length 2^n is a single node (n = 0)
// or two M-arrays of length 2^(n-1), the lower L and the upper R, joined by multicast
// channels; a channel made when joining two arrays of length 2^i is at level i. Definition 1's
// second clause is cut from the seed text; RECONSTRUCTED: every node of L gets a channel to
// all of R and every node of R one to all of L, so the level-i channel of position x reaches
// its sibling block (the 2^i positions that agree with x above bit i and differ in bit i).
// REM-array (RECONSTRUCTED; the seed: "a resource-efficient variation" that "reduces the
// density of the topology"): the same recursion, but only one node of each half, the one
// next to the other half (the last node of L, the first of R), gets the channel: 2(N - 1)
// channels instead of N log2 N, and the shortest paths along the array.
//
// A length that is not a power of two is treated as the M-array of the next power of two
// with the positions >= length absent (an extension; the seed defines lengths 2^n only).
//
// Normal algorithms (section 4): "within every communication step, all involved channels are
// at the same level". Step s of every schedule here uses level-(s - 1) channels (bottom-up)
// or, for the M-array broadcast, level n - s channels (top-down).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace wormsim::fw {

enum class ArrayTopology { kMArray, kRemArray };

// ceil(log2 length): the levels of an array of `length` positions (0 for one position).
int array_levels(std::size_t length);

// The positions (< length) of x's sibling block at `level`, ascending: the members of x's
// level-`level` channel.
std::vector<std::uint32_t> sibling_block(std::size_t length, std::uint32_t x, int level);

// The REM-array's channel holder of the level-`level` block that contains x (the block of
// 2^level positions agreeing with x above bit level - 1): its last position if the block is
// the lower half of its parent, else its first.
std::uint32_t boundary_node(std::uint32_t x, int level);

// Whether position x holds a level-`level` channel (a non-empty sibling block; REM-array:
// x is its block's boundary node).
bool has_channel(ArrayTopology t, std::size_t length, std::uint32_t x, int level);

// One multicast on a channel: in `step` (1-based), `from` sends on its level-`level` channel
// to `to` (ascending positions).
struct ArraySend {
  int step = 0;
  int level = 0;
  std::uint32_t from = 0;
  std::vector<std::uint32_t> to;
};

// Broadcast from `root` (Example 1: log2 N steps on N = 2^n positions). M-array: the root
// multicasts on its own channels, highest level first: step s uses level n - s. REM-array:
// bottom-up, step s uses level s - 1, sent by the boundary node of the root's level-(s - 1)
// block (which holds the message after steps 1..s-1). Every other position receives once.
// Levels whose sibling block is empty (only when length is not a power of two) are skipped
// and the steps numbered without them: log2 N steps on N = 2^n, at most ceil(log2 length).
std::vector<ArraySend> array_broadcast(ArrayTopology t, std::size_t length, std::uint32_t root);

// N/N global reduction (section 4; all-to-all broadcast is the same with concatenation as
// the operator): in step s = level + 1, the boundary node of every level-`level` block sends
// the block's partial result to the sibling block, so after step s every position holds its
// level-s block's result; ceil(log2 length) steps; every position receives once per step
// (none when its sibling block is empty). Uses only REM-array channels, so it runs on both.
std::vector<ArraySend> array_reduction(std::size_t length);

// Reduction to `root` on the REM-array (RECONSTRUCTED; seed 004 section 4 leaves the REM-array's
// algorithms to the companion report [17]): array_reduction pruned to one direction per pair of
// sibling blocks. Every block B has a target: the root for the blocks that contain it, else the
// holder of B's own channel (boundary_node), which passes B's result on. In step s = level + 1,
// for every level-(level + 1) block, its half that does not contain the block's target sends
// its result from its channel holder (its own target) on its level-`level` channel to the other
// half. So after step s every level-s block's target holds the block's result, and the root the
// whole result after ceil(log2 length) steps; every send is on a REM-array channel, every step
// at one level (normal), length - 1 sends, each position sends at most once and receives at most
// once per step.
std::vector<ArraySend> rem_array_reduce(std::size_t length, std::uint32_t root);

// Definition 4: "An M-mesh topology is a 2D grid in which M-arrays are constructed along
// every row and every column." Node (x, y) of a cols x rows grid is x + y * cols; a row's
// M-array has position x, a column's position y. dim 0: a row channel, 1: a column channel.
struct MeshSend {
  int step = 0;
  int dim = 0;
  int level = 0;
  std::uint32_t from = 0;
  std::vector<std::uint32_t> to;  // node ids, ascending along the line
};
// Broadcast: the M-array broadcast along the root's row (ceil(log2 cols) steps), then every
// node of that row broadcasts along its column (ceil(log2 rows) steps; fewer where
// array_broadcast skips empty levels).
std::vector<MeshSend> m_mesh_broadcast(int cols, int rows, std::uint32_t root);
// N/N global reduction: array_reduction in every row, then in every column.
std::vector<MeshSend> m_mesh_reduction(int cols, int rows);
// All-to-all broadcast on the M-mesh: m_mesh_reduction with concatenation as the operator
// (section 4's N/N reduction "with message concatenation", applied along the rows, then the
// columns). The grid positions node position p holds after `step` (0: only p), ascending: its
// row's level-`step` block while step <= ceil(log2 cols), then whole rows: the level-(step -
// ceil(log2 cols)) block of rows of its column. A message in step s carries its sender's
// blocks of step s - 1 in this order; after the last step every node holds all positions.
std::vector<std::uint32_t> m_mesh_gathered(int cols, int rows, std::uint32_t p, int step);

}  // namespace wormsim::fw
