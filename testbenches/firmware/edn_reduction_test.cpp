// EDN reduction and gather pattern as a pure function (firmware/edn_reduction.h, seed 000
// section 3.5, Fig. 3.26, Table 3.6):
//   - every node's data reaches the root exactly once: replaying the sends, each sender sends
//     exactly what it holds (its `carries`), nothing it receives later is lost, and the root
//     ends with every node;
//   - every step's sends are link-disjoint under XY routing, with the links walked here
//     independently of the code under test;
//   - the step counts of seed 000 Table 3.6 (n = 4 x 2^j, so the 2^k x 2^k mesh has j = k - 2),
//     over every root: tree height j + 1 (the printed general column "k - 1" contradicts the
//     table's own values), min completion 2 and min total j + 3 exactly; the table's max
//     completion (3 for j >= 1) and max total (j + 4) as upper bounds: the completion search
//     finds 2 steps for every root of every size tried, one fewer than the table's max
//     (docs/edn-reduction-transpose.md reports this). For j = 0 (4x4) the table prints
//     completion 2..2 but totals 3 and 4, which cannot both hold; the test takes the
//     completion row (2), so a total of 3.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "topology_test_util.h"
#include "edn_mesh.h"
#include "edn_reduction.h"

namespace wormsim::fw::edn_reduction_test {
namespace {

using wormsim::testing::xy_links;

// Replays `sends` (in step order) from `root`; returns the number of steps.
int replay(const EdnReduction& p, NodeId root, const std::vector<EdnSend>& sends) {
  const int side = p.columns(), nodes = side * p.rows();
  std::vector<std::set<NodeId>> holds(static_cast<std::size_t>(nodes));
  for (int n = 0; n < nodes; ++n) holds[static_cast<std::size_t>(n)].insert(static_cast<NodeId>(n));
  std::vector<int> sent(static_cast<std::size_t>(nodes), 0);
  std::map<int, std::set<std::pair<int, int>>> links;  // step -> links in use
  int steps = 0;
  int last_step = 0;
  // Messages of one step are in flight together: deliver them after the step's sends.
  std::vector<std::pair<NodeId, std::set<NodeId>>> in_flight;
  const auto land = [&] {
    for (auto& [to, what] : in_flight)
      for (NodeId n : what) EXPECT_TRUE(holds[to].insert(n).second) << "node " << n << " twice";
    in_flight.clear();
  };
  for (const EdnSend& s : sends) {
    EXPECT_GE(s.step, last_step) << "sends out of step order";
    if (s.step != last_step) land();
    last_step = s.step;
    steps = std::max(steps, s.step);
    ++sent[s.from];
    const std::set<NodeId> carries(s.carries.begin(), s.carries.end());
    EXPECT_EQ(carries, holds[s.from]) << "root " << root << ": " << s.from << " -> " << s.to
                                      << " in step " << s.step << " does not send what it holds";
    EXPECT_TRUE(std::is_sorted(s.carries.begin(), s.carries.end()));
    in_flight.emplace_back(s.to, holds[s.from]);
    holds[s.from].clear();
    for (const auto& l : xy_links(side, s.from, s.to))
      EXPECT_TRUE(links[s.step].insert(l).second)
          << side << "x" << p.rows() << " root " << root << " step " << s.step << ": link "
          << l.first << "/" << l.second << " used twice (" << s.from << " -> " << s.to << ")";
  }
  land();
  EXPECT_EQ(holds[root].size(), static_cast<std::size_t>(nodes)) << "root " << root;
  for (int n = 0; n < nodes; ++n)
    if (static_cast<NodeId>(n) != root) {
      EXPECT_EQ(sent[static_cast<std::size_t>(n)], 1) << "node " << n << ", root " << root;
      EXPECT_TRUE(holds[static_cast<std::size_t>(n)].empty()) << "node " << n << " kept data";
    }
  return steps;
}

class EdnReductionSizes : public ::testing::TestWithParam<int> {};

TEST_P(EdnReductionSizes, EveryNodeReachesTheRootOnceOverLinkDisjointSteps) {
  const int k = GetParam();
  const EdnReduction p(k);
  const int side = 1 << k, nodes = side * side;
  EXPECT_EQ(p.tops().size(), 4u);
  std::vector<NodeId> roots{0, static_cast<NodeId>(nodes - 1), static_cast<NodeId>(side - 1),
                            static_cast<NodeId>(nodes / 2 + side / 2)};
  for (NodeId t : p.tops()) roots.push_back(t);
  if (k <= 4)
    for (int n = 0; n < nodes; ++n) roots.push_back(static_cast<NodeId>(n));
  for (NodeId root : roots) {
    const std::vector<EdnSend> s = p.sends(root);
    EXPECT_EQ(s.size(), static_cast<std::size_t>(nodes - 1));
    replay(p, root, s);
    // role() is the same plan seen from one node.
    for (NodeId self : {root, p.tops()[0], p.tops()[3], static_cast<NodeId>(1)}) {
      const EdnReduction::Role r = p.role(root, self);
      std::size_t in = 0, out = 0;
      for (const EdnSend& m : s) {
        in += m.to == self;
        out += m.from == self;
      }
      EXPECT_EQ(r.receives.size(), in);
      EXPECT_EQ(r.sends.size(), out);
    }
  }
}

// Seed 000 Table 3.6, n = 4 x 2^j: tree height j + 1; completion min 2, max 3 (max 2 at
// j = 0); totals j + 3 and j + 4 (j + 3 at j = 0, see the file comment).
TEST_P(EdnReductionSizes, Table36StepCountsOverAllRoots) {
  const int k = GetParam();
  const int j = k - 2;
  const EdnReduction p(k);
  const int side = 1 << k, nodes = side * side;
  // Tree height: the largest step of a tree send, seen from the sends themselves.
  int tree = 0;
  for (int n = 0; n < nodes; ++n)
    if (p.tree_parent(static_cast<NodeId>(n)) != kNoNode)
      tree = std::max(tree, p.tree_step(static_cast<NodeId>(n)));
  EXPECT_EQ(tree, j + 1);
  int min_c = 1 << 30, max_c = 0;
  for (int n = 0; n < nodes; ++n) {
    int c = 0;
    for (const EdnSend& s : p.completion(static_cast<NodeId>(n))) c = std::max(c, s.step);
    min_c = std::min(min_c, c);
    max_c = std::max(max_c, c);
  }
  EXPECT_EQ(min_c, 2) << side << "x" << side;
  EXPECT_LE(max_c, j == 0 ? 2 : 3) << side << "x" << side;
  // Totals from whole plans (the largest step of any send); every root up to 16x16.
  int min_t = 1 << 30, max_t = 0;
  for (int n = 0; n < nodes; n += k <= 4 ? 1 : 37) {
    int t = 0;
    for (const EdnSend& s : p.sends(static_cast<NodeId>(n))) t = std::max(t, s.step);
    min_t = std::min(min_t, t);
    max_t = std::max(max_t, t);
  }
  EXPECT_EQ(min_t, j + 3);
  EXPECT_LE(max_t, j == 0 ? 3 : j + 4);
}

INSTANTIATE_TEST_SUITE_P(Sizes, EdnReductionSizes, ::testing::Range(2, 7),
                         [](const ::testing::TestParamInfo<int>& p) {
                           return "k" + std::to_string(p.param);
                         });

// Fig. 3.26 (16x16): after the first step every level-0 node has sent to a neighbour.
TEST(EdnReduction, FirstStepSendsGoToNeighbours) {
  const EdnReduction p(4);
  int first = 0;
  for (NodeId n = 0; n < 256; ++n)
    if (p.tree_parent(n) != kNoNode && p.tree_step(n) == 1) {
      ++first;
      EXPECT_EQ(xy_links(16, n, p.tree_parent(n)).size(), 1u) << n;
    }
  EXPECT_EQ(first, 256 - 64);  // three of every four nodes are level 0
}

// Every other mesh (seed 000 sections 3.3.2 and 3.5): the general EDN descent rotated and
// reversed, then the completion. Replayed from every root (sampled above 400 nodes): every
// node's data reaches the root exactly once over link-disjoint steps, and the tree phase is
// as long as the broadcast descent it reverses.
class EdnReductionMeshes : public ::testing::TestWithParam<std::pair<int, int>> {};

TEST_P(EdnReductionMeshes, EveryNodeReachesTheRootOnceOverLinkDisjointSteps) {
  const auto [w, h] = GetParam();
  const EdnReduction p({w, h});
  const int nodes = w * h;
  EXPECT_EQ(p.columns(), w);
  EXPECT_EQ(p.rows(), h);
  EXPECT_EQ(p.tree_height(), EdnMesh({h, w}).height());
  const int stride = nodes <= 400 ? 1 : 29;
  for (int root = 0; root < nodes; root += stride) {
    const std::vector<EdnSend> s = p.sends(static_cast<NodeId>(root));
    EXPECT_EQ(s.size(), static_cast<std::size_t>(nodes - 1));
    const int steps = replay(p, static_cast<NodeId>(root), s);
    EXPECT_LE(steps, p.tree_height() + 2) << w << "x" << h << " root " << root;
  }
}

INSTANTIATE_TEST_SUITE_P(Meshes, EdnReductionMeshes,
                         ::testing::Values(std::pair{1, 2}, std::pair{2, 1}, std::pair{2, 2},
                                           std::pair{3, 3}, std::pair{1, 8}, std::pair{5, 7},
                                           std::pair{9, 3}, std::pair{8, 16}, std::pair{12, 20},
                                           std::pair{6, 6}, std::pair{13, 13}, std::pair{31, 17}),
                         [](const ::testing::TestParamInfo<std::pair<int, int>>& p) {
                           return std::to_string(p.param.first) + "x" +
                                  std::to_string(p.param.second);
                         });

// Seed 000 Table 3.7 (n = 5 x 2^k) and the text beside it: "The values for n = 6 x 2^k and
// n = 7 x 2^k, though not given, are the same as for n = 5 x 2^k ... although the number of
// steps in the reduction tree and the completion process differ among the four mesh types, the
// totals are the same for all types": min total k + 3 and max total k + 4, Table 3.6's. The
// table's own rows are missing from our copy of the seed, so only these totals are the seed's;
// the tree height (k + 2, the broadcast descent of Tables 3.2-3.4 reversed) and completion
// (1..2) it implies are reported in docs/edn-reduction-transpose.md, not asserted.
class EdnReductionTable37 : public ::testing::TestWithParam<std::pair<int, int>> {};

TEST_P(EdnReductionTable37, TotalsOverAllRoots) {
  const auto [c, k] = GetParam();
  const int n = c << k, nodes = n * n;
  const EdnReduction p({n, n});
  int min_t = 1 << 30, max_t = 0;
  // Every root up to 20 x 20; a stride coprime with n (so every row and column) above.
  const int stride = nodes <= 400 ? 1 : 7;
  for (int root = 0; root < nodes; root += stride) {
    int t = 0;
    for (const EdnSend& s : p.sends(static_cast<NodeId>(root))) t = std::max(t, s.step);
    min_t = std::min(min_t, t);
    max_t = std::max(max_t, t);
  }
  EXPECT_EQ(min_t, k + 3) << n << "x" << n;
  EXPECT_EQ(max_t, k + 4) << n << "x" << n;
}

INSTANTIATE_TEST_SUITE_P(Sizes, EdnReductionTable37,
                         ::testing::Values(std::pair{5, 0}, std::pair{5, 1}, std::pair{5, 2},
                                           std::pair{5, 3}, std::pair{6, 0}, std::pair{6, 1},
                                           std::pair{6, 2}, std::pair{7, 0}, std::pair{7, 1},
                                           std::pair{7, 2}),
                         [](const ::testing::TestParamInfo<std::pair<int, int>>& p) {
                           return "n" + std::to_string(p.param.first << p.param.second);
                         });

// The dims constructor keeps Appendix A's pattern on 2^k x 2^k (Table 3.6 above).
TEST(EdnReduction, PowerOfTwoSquaresKeepTheAppendixAPattern) {
  const EdnReduction a(4), b(std::vector<int>{16, 16});
  EXPECT_EQ(a.tops(), b.tops());
  for (NodeId n = 0; n < 256; ++n) {
    EXPECT_EQ(a.tree_parent(n), b.tree_parent(n));
    EXPECT_EQ(a.tree_step(n), b.tree_step(n));
  }
}

TEST(EdnReduction, RefusesOtherShapes) {
  EXPECT_THROW(EdnReduction(std::vector<int>{4, 4, 4}), std::invalid_argument);
  EXPECT_THROW(EdnReduction(std::vector<int>{0, 4}), std::invalid_argument);
}

}  // namespace
}  // namespace wormsim::fw::edn_reduction_test
