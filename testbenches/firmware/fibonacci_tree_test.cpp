// Fibonacci tree (seed 000 section 5.3, Fig. 5.7) as a pure function (fw::FibonacciTree):
//   - N(t, k) is the seed's recursion N(t, k) = N(t - k, k) + N(t - 1, k) (t >= k), 1
//     otherwise: the Fibonacci numbers for k = 2, 2^t for k = 1;
//   - t(2^n x 2^n, 1) = 2n (the text's t_1) and t(1024, 18) = 67 (section 5.4.2);
//   - the tree reaches every node once over contiguous chain runs, in exactly t(P, k) steps,
//     with k(P - 1) piece messages; a node forwards piece j only after it arrived, sends one
//     piece per step and gets at most one per step; and the nodes complete by step t number at
//     most N(t, k), exactly N(t, k) at every t when P = N(T, k).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "fibonacci_tree.h"

namespace wormsim::fw::fibonacci_tree_test {
namespace {

// The seed's recursion, written out independently.
std::uint64_t seed_n(int t, int k) {
  if (t < k) return 1;
  return seed_n(t - k, k) + seed_n(t - 1, k);
}

TEST(FibonacciNodes, IsTheSeedsRecursion) {
  for (int k = 1; k <= 6; ++k)
    for (int t = 0; t <= 24; ++t) EXPECT_EQ(fibonacci_nodes(t, k), seed_n(t, k)) << t << " " << k;
  const std::uint64_t fib[] = {1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89};
  for (int t = 0; t <= 10; ++t) EXPECT_EQ(fibonacci_nodes(t, 2), fib[t]);
  for (int t = 0; t <= 20; ++t) EXPECT_EQ(fibonacci_nodes(t, 1), std::uint64_t{1} << t);
}

TEST(FibonacciSteps, SeedValues) {
  for (int n = 1; n <= 8; ++n)
    EXPECT_EQ(fibonacci_steps(std::uint64_t{1} << (2 * n), 1), 2 * n);  // t_1 = 2n
  EXPECT_EQ(fibonacci_steps(1024, 18), 67);  // section 5.4.2: t(P, 18) = 67 for n = 5
  EXPECT_EQ(fibonacci_steps(1, 5), 0);
}

struct TreeCase {
  int p, k;
};

class FibonacciTreeShape : public ::testing::TestWithParam<TreeCase> {};

TEST_P(FibonacciTreeShape, ReachesEveryNodeInTPkStepsAsTheRecursionCounts) {
  const auto [p, k] = GetParam();
  const FibonacciTree tree(p, k);
  const int t = fibonacci_steps(static_cast<std::uint64_t>(p), k);
  EXPECT_EQ(tree.steps(), t);
  EXPECT_EQ(tree.parent(0), -1);
  int reached = 1, max_complete = 0;
  std::uint64_t messages = 0;
  std::map<int, int> complete_by;  // step -> nodes completing then
  complete_by[0] = 1;
  std::vector<std::set<int>> send_steps(static_cast<std::size_t>(p));
  for (int v = 0; v < p; ++v) {
    // Children in send order: runs from the far end inwards, each child after its parent.
    const std::vector<int>& ch = tree.children(v);
    for (std::size_t i = 0; i < ch.size(); ++i) {
      const int c = ch[i];
      ++reached;
      EXPECT_EQ(tree.parent(c), v);
      EXPECT_GT(c, v);
      if (i > 0) {
        EXPECT_LT(c, ch[i - 1]) << "children not from the far end inwards";
      }
      // Child i (0-based) gets its first piece in step first(v) + 1 + i k.
      EXPECT_EQ(tree.first_step(c), tree.first_step(v) + 1 + static_cast<int>(i) * k);
      for (int j = 0; j < k; ++j) {
        const int s = tree.piece_step(c, j);
        if (v > 0) {
          EXPECT_GT(s, tree.piece_step(v, j)) << "forwarded before it arrived";
        }
        EXPECT_TRUE(send_steps[static_cast<std::size_t>(v)].insert(s).second)
            << "node " << v << " sends twice in step " << s;
        ++messages;
      }
      EXPECT_LE(tree.complete_step(c), t);
      max_complete = std::max(max_complete, tree.complete_step(c));
      ++complete_by[tree.complete_step(c)];
    }
  }
  EXPECT_EQ(reached, p);
  EXPECT_EQ(messages, static_cast<std::uint64_t>(k) * static_cast<std::uint64_t>(p - 1));
  EXPECT_EQ(max_complete, t);
  // Subtrees are contiguous runs starting at their root.
  for (int v = 0; v < p; ++v) {
    std::vector<int> stack{v};
    int lo = v, hi = v, count = 0;
    while (!stack.empty()) {
      const int u = stack.back();
      stack.pop_back();
      ++count;
      lo = std::min(lo, u);
      hi = std::max(hi, u);
      for (int c : tree.children(u)) stack.push_back(c);
    }
    EXPECT_EQ(lo, v);
    EXPECT_EQ(hi - lo + 1, count) << "subtree of " << v << " is not a run";
  }
  // Nodes complete by step s: at most N(s, k), exactly that when P = N(t, k).
  int cumulative = 0;
  for (int s = 0; s <= t; ++s) {
    cumulative += complete_by.count(s) ? complete_by[s] : 0;
    EXPECT_LE(static_cast<std::uint64_t>(cumulative), fibonacci_nodes(s, k)) << "step " << s;
    if (static_cast<std::uint64_t>(p) == fibonacci_nodes(t, k)) {
      EXPECT_EQ(static_cast<std::uint64_t>(cumulative), fibonacci_nodes(s, k)) << "step " << s;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, FibonacciTreeShape,
    ::testing::Values(TreeCase{1, 3}, TreeCase{2, 1}, TreeCase{16, 1}, TreeCase{16, 2},
                      TreeCase{16, 4}, TreeCase{64, 3}, TreeCase{64, 8}, TreeCase{35, 5},
                      TreeCase{1024, 1}, TreeCase{1024, 2}, TreeCase{1024, 4}, TreeCase{1024, 18},
                      TreeCase{1024, 30},
                      // P = N(t, k) exactly: the full tree.
                      TreeCase{89, 2}, TreeCase{60, 3}, TreeCase{256, 1}, TreeCase{36, 4}),
    [](const auto& param_info) {
      return "p" + std::to_string(param_info.param.p) + "_k" + std::to_string(param_info.param.k);
    });

TEST(FibonacciTree, FullTreeSizesAreRecursionValues) {
  // The instantiations above that claim P = N(t, k) really are.
  EXPECT_EQ(fibonacci_nodes(fibonacci_steps(89, 2), 2), 89u);
  EXPECT_EQ(fibonacci_nodes(fibonacci_steps(60, 3), 3), 60u);
  EXPECT_EQ(fibonacci_nodes(fibonacci_steps(36, 4), 4), 36u);
}

}  // namespace
}  // namespace wormsim::fw::fibonacci_tree_test
