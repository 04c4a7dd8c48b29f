// EDN broadcast pattern of general 2D and 3D meshes as a pure function (firmware/edn_mesh.h,
// seed 000 sections 3.3-3.4; docs/edn-general.md):
//   - every node is reached exactly once from every root tried, and every message-passing
//     step's sends are link-disjoint under dimension-ordered routing (the seed's "without
//     channel contention", Definition 2), with the links walked here independently;
//   - seed 000 Tables 3.2, 3.3 and 3.4 (n = 5, 6, 7 x 2^k, k = 0..5, every size they list):
//     tree height k + 2, min startup 1, max startup 2, min total k + 3, max total k + 4 over
//     every root; totals also from walks of whole broadcasts from the roots where they occur;
//   - seed 000 Table 3.5 (3D meshes up to 8 x 8 x 45): levels of EDNs (tree height) and total
//     steps, from every root (walked on the small sizes, sampled on the large ones);
//   - other shapes (rectangles, odd sides, thin meshes): coverage and disjointness, and no
//     fewer steps than the all-port bound ceil(log_{2d+1} N).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "edn_mesh.h"

namespace wormsim::fw::edn_mesh_test {
namespace {

// Directed links (node, direction 0..5 = +x, -x, +y, -y, +z, -z) of the dimension-ordered
// route a -> b, walked here independently of the code under test.
std::vector<std::pair<int, int>> dor_links(const std::vector<int>& dims, NodeId a, NodeId b) {
  std::array<int, 3> size{1, 1, 1}, p{}, q{};
  for (std::size_t d = 0; d < dims.size(); ++d) size[d] = dims[d];
  int ia = static_cast<int>(a), ib = static_cast<int>(b);
  for (std::size_t d = 0; d < 3; ++d) {
    p[d] = ia % size[d];
    q[d] = ib % size[d];
    ia /= size[d];
    ib /= size[d];
  }
  std::vector<std::pair<int, int>> out;
  for (std::size_t d = 0; d < 3; ++d)
    for (; p[d] != q[d]; p[d] += q[d] > p[d] ? 1 : -1)
      out.emplace_back(p[0] + size[0] * (p[1] + size[1] * p[2]),
                       static_cast<int>(2 * d) + (q[d] > p[d] ? 0 : 1));
  return out;
}

// Walks a whole broadcast from `root` through children(); fails the test if a node is
// reached twice or never, or if two sends of one step share a link. Returns the steps.
int walk(const EdnMesh& p, NodeId root) {
  const int nodes = p.nodes();
  std::vector<int> step(static_cast<std::size_t>(nodes), -1);
  step[root] = 0;
  std::vector<NodeId> frontier{root};
  std::map<int, std::set<std::pair<int, int>>> used;
  int last = 0;
  while (!frontier.empty()) {
    std::vector<NodeId> next;
    for (NodeId u : frontier) {
      const auto groups = p.children(root, u);
      for (std::size_t g = 0; g < groups.size(); ++g)
        for (NodeId c : groups[g]) {
          const int s = step[u] + 1 + static_cast<int>(g);
          EXPECT_EQ(step[c], -1) << "node " << c << " reached twice (root " << root << ")";
          if (step[c] != -1) continue;
          step[c] = s;
          last = std::max(last, s);
          next.push_back(c);
          for (const auto& l : dor_links(p.dims(), u, c))
            EXPECT_TRUE(used[s].insert(l).second)
                << "root " << root << " step " << s << ": link " << l.first << "/" << l.second
                << " used twice (" << u << " -> " << c << ")";
        }
    }
    frontier = std::move(next);
  }
  for (int n = 0; n < nodes; ++n)
    EXPECT_GE(step[static_cast<std::size_t>(n)], 0) << "node " << n << " never reached";
  return last;
}

struct Range {
  int min_startup = 1 << 30, max_startup = 0;
  NodeId argmin = 0, argmax = 0;
};
Range startup_range(const EdnMesh& p) {
  Range r;
  for (int n = 0; n < p.nodes(); ++n) {
    const int s = p.startup_steps(static_cast<NodeId>(n));
    if (s < r.min_startup) r.min_startup = s, r.argmin = static_cast<NodeId>(n);
    if (s > r.max_startup) r.max_startup = s, r.argmax = static_cast<NodeId>(n);
  }
  return r;
}

std::vector<NodeId> sample_roots(const EdnMesh& p, const Range& r, int every) {
  std::vector<NodeId> roots{r.argmin, r.argmax, 0, static_cast<NodeId>(p.nodes() - 1)};
  for (NodeId t : p.tops()) roots.push_back(t);
  for (int n = 0; n < p.nodes(); n += every) roots.push_back(static_cast<NodeId>(n));
  return roots;
}

// Seed 000 Tables 3.2-3.4: n = c x 2^k, c in {5, 6, 7}, k = 0..5.
struct TableCase {
  int c, k;
};
class EdnTables32to34 : public ::testing::TestWithParam<TableCase> {};

TEST_P(EdnTables32to34, StepsOverEveryRoot) {
  const auto [c, k] = GetParam();
  const int n = c << k;
  const EdnMesh p({n, n});
  EXPECT_EQ(p.height(), k + 2) << "tree height, n = " << n;
  const Range r = startup_range(p);
  EXPECT_EQ(r.min_startup, 1) << "min startup, n = " << n;
  EXPECT_EQ(r.max_startup, 2) << "max startup, n = " << n;
  // Whole walks: the min and max totals are reached, and no root takes more than k + 4.
  EXPECT_EQ(walk(p, r.argmin), k + 3) << "min total, n = " << n << " root " << r.argmin;
  EXPECT_EQ(walk(p, r.argmax), k + 4) << "max total, n = " << n << " root " << r.argmax;
  const int every = n * n <= 400 ? 1 : n * n / 12;
  for (NodeId root : sample_roots(p, r, every)) {
    const int steps = walk(p, root);
    EXPECT_GE(steps, k + 3) << "n = " << n << " root " << root;
    EXPECT_LE(steps, k + 4) << "n = " << n << " root " << root;
  }
}

std::vector<TableCase> table_cases() {
  std::vector<TableCase> out;
  for (int c : {5, 6, 7})
    for (int k = 0; k <= 5; ++k) out.push_back({c, k});
  return out;
}

INSTANTIATE_TEST_SUITE_P(Sizes, EdnTables32to34, ::testing::ValuesIn(table_cases()),
                         [](const ::testing::TestParamInfo<TableCase>& i) {
                           return "n" + std::to_string(i.param.c << i.param.k);
                         });

// Other 2D shapes: coverage, disjoint steps, at least the all-port bound ceil(log5 N).
TEST(EdnMesh, OtherShapes) {
  for (const std::vector<int>& dims : std::vector<std::vector<int>>{{1, 1},
                                                                    {2, 2},
                                                                    {3, 3},
                                                                    {1, 9},
                                                                    {2, 7},
                                                                    {8, 4},
                                                                    {4, 8},
                                                                    {9, 9},
                                                                    {11, 13},
                                                                    {13, 13},
                                                                    {10, 20},
                                                                    {5, 7},
                                                                    {12, 40},
                                                                    {17, 3},
                                                                    {33, 33},
                                                                    {16, 32}}) {
    const EdnMesh p(dims);
    const Range r = startup_range(p);
    const int nodes = p.nodes();
    const int bound =
        nodes == 1 ? 0 : static_cast<int>(std::ceil(std::log(nodes) / std::log(5.0) - 1e-9));
    for (NodeId root : sample_roots(p, r, nodes <= 200 ? 1 : nodes / 20)) {
      const int steps = walk(p, root);
      EXPECT_EQ(steps, p.startup_steps(root) + (nodes == 1 ? 0 : p.height()))
          << dims[0] << "x" << dims[1] << " root " << root;
      EXPECT_GE(steps, bound) << dims[0] << "x" << dims[1];
    }
  }
}

// Seed 000 Table 3.5: network size, levels of EDNs, total steps (startup 2 from every root,
// section 3.4.3: "two, regardless of the location of the source").
struct Table35Row {
  std::vector<int> dims;
  int levels, total;
};
class EdnTable35 : public ::testing::TestWithParam<Table35Row> {};

TEST_P(EdnTable35, LevelsAndStepsFromEveryRoot) {
  const Table35Row& row = GetParam();
  const EdnMesh p(row.dims);
  EXPECT_EQ(p.height(), row.levels);
  const Range r = startup_range(p);
  EXPECT_EQ(r.min_startup, 2);
  EXPECT_EQ(r.max_startup, 2);
  const int nodes = p.nodes();
  for (NodeId root : sample_roots(p, r, nodes <= 100 ? 1 : nodes / 12))
    EXPECT_EQ(walk(p, root), row.total) << "root " << root;
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, EdnTable35,
    ::testing::Values(Table35Row{{4, 4, 4}, 2, 4}, Table35Row{{4, 4, 5}, 2, 4},
                      Table35Row{{4, 4, 12}, 3, 5}, Table35Row{{4, 4, 15}, 3, 5},
                      Table35Row{{8, 8, 4}, 3, 5}, Table35Row{{8, 8, 5}, 3, 5},
                      Table35Row{{4, 4, 36}, 4, 6}, Table35Row{{4, 4, 45}, 4, 6},
                      Table35Row{{8, 8, 12}, 4, 6}, Table35Row{{8, 8, 15}, 4, 6},
                      Table35Row{{16, 16, 4}, 4, 6}, Table35Row{{16, 16, 5}, 4, 6},
                      Table35Row{{4, 4, 108}, 5, 7}, Table35Row{{4, 4, 135}, 5, 7},
                      Table35Row{{8, 8, 36}, 5, 7}, Table35Row{{8, 8, 45}, 5, 7}),
    [](const ::testing::TestParamInfo<Table35Row>& i) {
      return "m" + std::to_string(i.param.dims[0]) + "x" + std::to_string(i.param.dims[1]) + "x" +
             std::to_string(i.param.dims[2]);
    });

// 3D meshes outside the table that validation accepts (x and y sides 4 x 2^a, any z):
// coverage, disjoint steps under XYZ routing, at least ceil(log7 N) steps.
TEST(EdnMesh, Other3DShapes) {
  for (const std::vector<int>& dims : std::vector<std::vector<int>>{{4, 4, 1},
                                                                    {4, 4, 2},
                                                                    {4, 4, 3},
                                                                    {4, 8, 6},
                                                                    {8, 4, 7},
                                                                    {8, 8, 9},
                                                                    {4, 4, 11},
                                                                    {4, 4, 17},
                                                                    {16, 8, 10}}) {
    const EdnMesh p(dims);
    const Range r = startup_range(p);
    const int nodes = p.nodes();
    const int bound = static_cast<int>(std::ceil(std::log(nodes) / std::log(7.0) - 1e-9));
    for (NodeId root : sample_roots(p, r, nodes <= 100 ? 1 : nodes / 10)) {
      const int steps = walk(p, root);
      EXPECT_EQ(steps, p.startup_steps(root) + p.height()) << "root " << root;
      EXPECT_GE(steps, bound);
    }
  }
}

}  // namespace
}  // namespace wormsim::fw::edn_mesh_test
