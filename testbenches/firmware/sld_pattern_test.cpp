// SLD broadcast pattern of 2D meshes as a pure function (firmware/sld_pattern.h, seed 000
// section 3.2; docs/edn-general.md "SLD broadcast"):
//   - Fig. 3.3 (section 3.2.3), the 4x4 example, exactly: dominating nodes (0,2), (1,0), (2,3),
//     (3,1); from the source (2,0), step 1 reaches (1,0) and (2,3); in step 2 (1,0) sends to
//     (0,2) and (1,1), (2,3) to (3,1), (1,3) and (2,2); the rest in step 3: 3 steps, the
//     seed's ceil(log2 N) - 1 for N = 16 (section 3.2.4);
//   - Definition 1 on every mesh 1x1..16x16 and some larger rectangles: every node is a
//     dominating node or adjacent to the one it is assigned to, and each other node is
//     assigned to exactly one;
//   - every node receives exactly once from every root, and every message-passing step's
//     sends are link-disjoint on XY paths walked here independently (U-mesh's unicasts are
//     contention-free, section 3.2.2 after [103]; the neighbour sends are one hop each);
//   - the U-mesh phase on one-port semantics reaches the last dominating node in exactly
//     ceil(log2(|D'| + 1)) steps (section 3.2.2's bound for m = |D'| destinations; the seed
//     prints floor, which no one-send-per-step schedule meets for m = 2, so the test uses
//     ceil), and the all-port schedule takes at most that plus the one step of phase 2;
//   - the totals against the seed's estimate ceil(log2 N) - 1 (section 3.2.4) are printed
//     and asserted only where they must hold (docs/edn-general.md has the numbers).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <set>
#include <tuple>

#include "sld_pattern.h"

namespace wormsim::fw::sld_pattern_test {
namespace {

int ceil_log2(long n) {
  int k = 0;
  while ((1L << k) < n) ++k;
  return k;
}

// Directed links (node, direction 0..3 = +x, -x, +y, -y) of the XY route a -> b in a w-wide
// mesh, walked here independently of the code under test.
std::vector<std::pair<int, int>> xy_links(int w, NodeId a, NodeId b) {
  int x = static_cast<int>(a) % w, y = static_cast<int>(a) / w;
  const int tx = static_cast<int>(b) % w, ty = static_cast<int>(b) / w;
  std::vector<std::pair<int, int>> out;
  for (; x != tx; x += tx > x ? 1 : -1) out.emplace_back(x + w * y, tx > x ? 0 : 1);
  for (; y != ty; y += ty > y ? 1 : -1) out.emplace_back(x + w * y, ty > y ? 2 : 3);
  return out;
}

struct Walk {
  int steps = 0;
  int phase1_steps = 0;  // the step in which the last dominating node receives
};

// Checks a whole broadcast from `root` (schedule()); fails the test if a node is reached twice
// or never, if a node other than the root and the dominating nodes sends, if a node sends
// before it receives, or if two sends of one step share a link. With `children`, also that
// every node's children() (what the firmware runs) give the schedule's sends and steps.
Walk walk(const SldPattern& p, NodeId root, PortModel ports, bool children = false) {
  const int nodes = p.nodes();
  const auto sched = p.schedule(root, ports);
  std::vector<int> step(static_cast<std::size_t>(nodes), -1);
  step[root] = 0;
  std::map<int, std::map<std::pair<int, int>, std::pair<NodeId, NodeId>>> used;
  std::set<std::tuple<NodeId, NodeId, int>> sends;
  Walk out;
  for (const SldPattern::Send& x : sched) {
    const NodeId u = x.from, c = x.to;
    const int s = x.step;
    EXPECT_TRUE(u == root || p.is_dominator(u)) << "node " << u << " sends (root " << root << ")";
    EXPECT_GE(step[u], 0) << "node " << u << " sends before it receives (root " << root << ")";
    EXPECT_GT(s, step[u]);
    EXPECT_EQ(step[c], -1) << "node " << c << " reached twice (root " << root << ")";
    EXPECT_EQ(x.phase2, !p.is_dominator(c));
    step[c] = s;
    sends.insert({u, c, s});
    out.steps = std::max(out.steps, s);
    if (p.is_dominator(c)) out.phase1_steps = std::max(out.phase1_steps, s);
    for (const auto& l : xy_links(p.width(), u, c)) {
      const auto [it, fresh] = used[s].emplace(l, std::make_pair(u, c));
      EXPECT_TRUE(fresh) << "link " << l.first << "/" << l.second << " twice in step " << s
                         << " (root " << root << ", " << p.width() << "x" << p.height() << ", "
                         << (ports == PortModel::kAllPort ? "all" : "one")
                         << "-port): " << it->second.first << "->" << it->second.second << " and "
                         << u << "->" << c;
    }
  }
  for (int n = 0; n < nodes; ++n)
    EXPECT_NE(step[static_cast<std::size_t>(n)], -1)
        << "node " << n << " never reached (root " << root << ")";
  if (children) {
    std::set<std::tuple<NodeId, NodeId, int>> from_children;
    for (int n = 0; n < nodes; ++n) {
      const NodeId u = static_cast<NodeId>(n);
      const auto groups = p.children(root, u, ports);
      if (!groups.empty()) {
        EXPECT_FALSE(groups.back().empty());
      }
      for (std::size_t g = 0; g < groups.size(); ++g)
        for (NodeId c : groups[g]) from_children.insert({u, c, step[u] + 1 + static_cast<int>(g)});
    }
    EXPECT_EQ(from_children, sends) << "root " << root;
  }
  return out;
}

bool adjacent(const SldPattern& p, NodeId a, NodeId b) {
  const int w = p.width();
  const int ax = static_cast<int>(a) % w, ay = static_cast<int>(a) / w;
  const int bx = static_cast<int>(b) % w, by = static_cast<int>(b) / w;
  return std::abs(ax - bx) + std::abs(ay - by) == 1;
}

TEST(Fig33, FourByFourFromTwoZero) {
  const SldPattern p(4, 4);
  const auto id = [&](int x, int y) { return p.id(x, y); };
  std::vector<NodeId> expected{id(0, 2), id(1, 0), id(2, 3), id(3, 1)};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(p.dominators(), expected);
  const NodeId source = id(2, 0);
  std::set<std::pair<NodeId, NodeId>> step1, step2;
  for (const SldPattern::Send& s : p.schedule(source, PortModel::kAllPort)) {
    if (s.step == 1) step1.insert({s.from, s.to});
    if (s.step == 2) step2.insert({s.from, s.to});
  }
  // "In step 1, the source node transmits simultaneously to dominating nodes (1,0) and (2,3),
  // which subsequently forward the message to dominating nodes (0,2) and (3,1), respectively,
  // in step 2 ... node (1,0) can also forward the message to node (1,1) in step 2, and node
  // (2,3) can also forward the message to nodes (1,3) and (2,2) in step 2."
  const std::set<std::pair<NodeId, NodeId>> want1{{source, id(1, 0)}, {source, id(2, 3)}};
  const std::set<std::pair<NodeId, NodeId>> want2{{id(1, 0), id(0, 2)},
                                                  {id(1, 0), id(1, 1)},
                                                  {id(2, 3), id(3, 1)},
                                                  {id(2, 3), id(1, 3)},
                                                  {id(2, 3), id(2, 2)}};
  EXPECT_EQ(step1, want1);
  EXPECT_EQ(step2, want2);
  // "The dominating nodes send the message to the remaining nodes in step 3": 3 steps,
  // ceil(log2 16) - 1 (section 3.2.4).
  EXPECT_EQ(p.steps(source, PortModel::kAllPort), 3);
  EXPECT_EQ(walk(p, source, PortModel::kAllPort, true).steps, ceil_log2(16) - 1);
}

// Definition 1, and each non-dominating node assigned to exactly one adjacent dominator.
void check_dominating(int w, int h) {
  SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h));
  const SldPattern p(w, h);
  ASSERT_FALSE(p.dominators().empty());
  std::vector<int> owners(static_cast<std::size_t>(w * h), 0);
  for (NodeId d : p.dominators()) {
    EXPECT_TRUE(p.is_dominator(d));
    for (NodeId v : p.assigned(d)) {
      ++owners[v];
      EXPECT_FALSE(p.is_dominator(v)) << v;
      EXPECT_TRUE(adjacent(p, d, v)) << d << " " << v;
      EXPECT_EQ(p.dominator_of(v), d);
    }
  }
  for (int n = 0; n < w * h; ++n) {
    const NodeId v = static_cast<NodeId>(n);
    EXPECT_EQ(owners[v], p.is_dominator(v) ? 0 : 1) << "node " << n;
    if (!p.is_dominator(v)) {
      EXPECT_TRUE(adjacent(p, p.dominator_of(v), v)) << "node " << n;
    }
  }
}

TEST(DominatingSet, EveryMeshUpToSixteenBySixteen) {
  for (int w = 1; w <= 16; ++w)
    for (int h = 1; h <= 16; ++h) check_dominating(w, h);
}

TEST(DominatingSet, LargerRectangles) {
  for (const auto& [w, h] : {std::pair<int, int>{32, 32}, {5, 40}, {64, 3}, {17, 31}, {100, 7}})
    check_dominating(w, h);
}

// Every root of each size, both port semantics: coverage, link-disjoint steps, the U-mesh
// phase's ceil(log2(|D'| + 1)) steps (one-port), and all-port's bound of that plus one.
void check_every_root(int w, int h, bool children) {
  SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h));
  const SldPattern p(w, h);
  for (int r = 0; r < w * h; ++r) {
    const NodeId root = static_cast<NodeId>(r);
    const long others = static_cast<long>(p.dominators().size()) - (p.is_dominator(root) ? 1 : 0);
    const int phase1 = ceil_log2(others + 1);
    const Walk one = walk(p, root, PortModel::kOnePort, children);
    EXPECT_EQ(one.phase1_steps, phase1) << "root " << r;
    // After U-mesh, a dominator sends to at most its four neighbours, one per step.
    EXPECT_LE(one.steps, phase1 + 4) << "root " << r;
    EXPECT_GE(one.steps, ceil_log2(w * h)) << "root " << r;  // holders at most double
    const Walk all = walk(p, root, PortModel::kAllPort, children);
    EXPECT_LE(all.phase1_steps, phase1) << "root " << r;
    EXPECT_LE(all.steps, phase1 + (w * h > 1 ? 1 : 0)) << "root " << r;
    // An all-port mesh node sends on at most four channels a step: holders at most x5.
    EXPECT_GE(all.steps, static_cast<int>(std::ceil(std::log(w * h) / std::log(5.0) - 1e-9)))
        << "root " << r;
  }
}

TEST(Schedule, EveryRootSmallMeshes) {
  for (int w = 1; w <= 9; ++w)
    for (int h = 1; h <= 9; ++h) check_every_root(w, h, true);
}

TEST(Schedule, EveryRootLargerMeshes) {
  for (const auto& [w, h] :
       {std::pair<int, int>{16, 16}, {5, 7}, {12, 10}, {32, 8}, {3, 30}, {32, 32}})
    check_every_root(w, h, false);
}

// The seed's estimate (section 3.2.4): ceil(log2(N/4)) = ceil(log2 N) - 2 steps to the
// dominating nodes, ceil(log2 N) - 1 in all, one fewer than U-mesh's ceil(log2 N). Printed for
// the docs; asserted only that SLD all-port never takes more than U-mesh one-port.
TEST(Schedule, AgainstTheSeedsEstimate) {
  std::cout << "mesh N |D| seed(ceil(log2 N)-1) umesh(ceil(log2 N)) all_port[min,max] "
               "one_port[min,max]\n";
  for (const auto& [w, h] :
       {std::pair<int, int>{4, 4}, {5, 5}, {8, 8}, {16, 16}, {5, 7}, {32, 32}}) {
    const SldPattern p(w, h);
    int amin = 1 << 30, amax = 0, omin = 1 << 30, omax = 0;
    for (int r = 0; r < w * h; ++r) {
      const int a = p.steps(static_cast<NodeId>(r), PortModel::kAllPort);
      const int o = p.steps(static_cast<NodeId>(r), PortModel::kOnePort);
      amin = std::min(amin, a);
      amax = std::max(amax, a);
      omin = std::min(omin, o);
      omax = std::max(omax, o);
    }
    const int n = w * h;
    std::cout << w << "x" << h << " " << n << " " << p.dominators().size() << " "
              << ceil_log2(n) - 1 << " " << ceil_log2(n) << " [" << amin << "," << amax << "] ["
              << omin << "," << omax << "]\n";
    ::testing::Test::RecordProperty(std::to_string(w) + "x" + std::to_string(h) + "_all_port",
                                    std::to_string(amin) + ".." + std::to_string(amax));
    EXPECT_LE(amax, ceil_log2(n) + 1);
  }
}

}  // namespace
}  // namespace wormsim::fw::sld_pattern_test
