// EDN pattern and the other forwarding rules as pure functions: every node is reached exactly
// once, the step counts equal seed 000 Table 3.1 (EDN), ceil(log2 N) (recursive doubling) and
// the per-dimension sum (dimensional broadcast), and every EDN level's sends are link-disjoint
// under XY routing (seed 000 Definition 2).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "collective.h"
#include "edn_pattern.h"
#include "topology.h"

namespace wormsim::fw::edn_pattern_test {
namespace {

// Message-passing steps of the forwarding tree `children(self)` (SendGroups) rooted at
// `root`: the largest step in which a node receives; fails the test if a node is reached
// twice or not at all.
template <typename Children>
int tree_depth(int nodes, NodeId root, Children children) {
  std::vector<int> depth(static_cast<std::size_t>(nodes), -1);
  depth[root] = 0;
  std::vector<NodeId> frontier{root};
  int max_depth = 0;
  while (!frontier.empty()) {
    std::vector<NodeId> next;
    for (NodeId u : frontier) {
      const SendGroups groups = children(u);
      for (std::size_t g = 0; g < groups.size(); ++g)
        for (NodeId c : groups[g]) {
          EXPECT_EQ(depth[c], -1) << "node " << c << " reached twice (root " << root << ")";
          if (depth[c] != -1) continue;
          depth[c] = depth[u] + 1 + static_cast<int>(g);  // step of the send
          max_depth = std::max(max_depth, depth[c]);
          next.push_back(c);
        }
    }
    frontier = std::move(next);
  }
  for (int n = 0; n < nodes; ++n)
    EXPECT_GE(depth[static_cast<std::size_t>(n)], 0) << "node " << n << " never reached";
  return max_depth;
}

// Seed 000 Table 3.1 (n = 4 x 2^j): total steps j + 3, i.e. log2(n) + 1.
int table_3_1_steps(int side) { return static_cast<int>(std::lround(std::log2(side))) + 1; }

class EdnSteps : public ::testing::TestWithParam<int> {};

TEST_P(EdnSteps, EveryNodeOnceInTable31Steps) {
  const int k = GetParam();
  const EdnPattern p(k);
  const int side = 1 << k, nodes = side * side;
  std::vector<NodeId> roots{0, static_cast<NodeId>(nodes - 1), static_cast<NodeId>(side - 1),
                            static_cast<NodeId>(nodes / 2 + side / 2)};
  for (NodeId t : p.tops()) roots.push_back(t);
  if (k <= 4)
    for (int n = 0; n < nodes; ++n) roots.push_back(static_cast<NodeId>(n));
  for (NodeId root : roots)
    EXPECT_EQ(tree_depth(nodes, root, [&](NodeId u) { return p.children(root, u); }),
              table_3_1_steps(side))
        << side << "x" << side << " root " << root;
}

TEST_P(EdnSteps, EachLevelsSendsAreLinkDisjoint) {
  const int k = GetParam();
  const EdnPattern p(k);
  const int side = 1 << k, nodes = side * side;
  // Level-j sends of all blocks happen in the same step; blocks are disjoint, so all of them
  // together must use every directed link at most once.
  std::map<int, std::set<int>> used;  // level -> links
  for (int n = 0; n < nodes; ++n) {
    const std::vector<NodeId>& ch = p.tree_children(static_cast<NodeId>(n));
    // Children are listed highest level first: the level of child i is the sender's level
    // minus the number of level boundaries passed; recover it from the child's own level.
    for (NodeId c : ch) {
      const int level = p.level(c) + 1;
      for (int l : p.xy_path(static_cast<NodeId>(n), c))
        EXPECT_TRUE(used[level].insert(l).second)
            << "link " << l << " used twice at level " << level << " (" << n << " -> " << c << ")";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, EdnSteps, ::testing::Range(2, 9),
                         [](const ::testing::TestParamInfo<int>& p) {
                           return "k" + std::to_string(p.param);
                         });

TEST(EdnPattern, AppendixATopNodes) {
  // Appendix A: 8x8 boundary condition and the closed form for k = 4 (A = (2,7), B = (13,7),
  // C = (5,8), D = (10,8)) and k = 5 (odd-k formulae for A, C, D).
  auto id = [](int side, int x, int y) { return static_cast<NodeId>(x + y * side); };
  EXPECT_EQ(EdnPattern(3).tops(),
            (std::array<NodeId, 4>{id(8, 1, 0), id(8, 6, 0), id(8, 2, 7), id(8, 5, 7)}));
  EXPECT_EQ(EdnPattern(4).tops(),
            (std::array<NodeId, 4>{id(16, 2, 7), id(16, 13, 7), id(16, 5, 8), id(16, 10, 8)}));
  const EdnPattern p5(5);
  EXPECT_EQ(p5.tops()[0], id(32, (16 - 1) / 3, (32 - 8) / 3));  // A: ((2^(k-1)-1)/3, (2^k-8)/3)
  EXPECT_EQ(p5.tops()[2], id(32, (32 - 2) / 3, (64 + 5) / 3));  // C: ((2^k-2)/3, (2^(k+1)+5)/3)
  EXPECT_EQ(p5.tops()[3], id(32, (64 - 1) / 3, (64 + 5) / 3));  // D: ((2^(k+1)-1)/3, C_y)
}

TEST(EdnPattern, LevelOneNodesDominateTheirNeighbours) {
  const EdnPattern p(4);
  for (NodeId n = 0; n < 256; ++n)
    for (NodeId c : p.tree_children(n))
      if (p.level(c) == 0) {
        EXPECT_EQ(p.xy_path(n, c).size(), 1u) << n << " -> " << c;
      }
}

TEST(RecursiveDoubling, CeilLog2Steps) {
  for (int n : {2, 3, 5, 16, 35, 64, 100}) {
    std::vector<NodeId> chain(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) chain[static_cast<std::size_t>(i)] = static_cast<NodeId>(i);
    for (int r = 0; r < n; ++r) {
      const int steps = tree_depth(n, static_cast<NodeId>(r), [&](NodeId u) {
        return one_per_step(umesh_children(chain, static_cast<std::size_t>(r), u));
      });
      EXPECT_EQ(steps, static_cast<int>(std::ceil(std::log2(n)))) << n << " nodes, root " << r;
    }
  }
}

TEST(DimensionalBroadcast, StepsAreTheSumOverDimensions) {
  for (const std::vector<int>& dims :
       {std::vector<int>{8, 8}, std::vector<int>{5, 7}, std::vector<int>{4, 3, 6}}) {
    TopologyConfig tc;
    tc.dims = dims;
    const Topology t(tc);
    std::vector<int> order;
    int expected = 0;
    for (std::size_t d = 0; d < dims.size(); ++d) {
      order.push_back(static_cast<int>(d));
      expected += static_cast<int>(std::ceil(std::log2(dims[d])));
    }
    for (int r = 0; r < t.nodes(); r += 3)
      EXPECT_EQ(tree_depth(t.nodes(), static_cast<NodeId>(r),
                           [&](NodeId u) {
                             return one_per_step(
                                 dimensional_children(t, order, static_cast<NodeId>(r), u));
                           }),
                expected);
  }
}

}  // namespace
}  // namespace wormsim::fw::edn_pattern_test
