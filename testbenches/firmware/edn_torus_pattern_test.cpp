// The EDN torus broadcast pattern (fw::EdnTorusPattern, seed 000 chapter 4) as a pure function:
//   - 2D, every size the construction has up to 64x64 (2^d x 2^d, d = 2..6), every root up to
//     16x16 and sampled roots beyond: every node reached exactly once (Theorem 1, Corollary 1);
//     4^k x 4^k in 2k steps (Theorem 1), (2 x 4^k) x (2 x 4^k) in 2k + 1 (Corollary 1), i.e.
//     d steps on 2^d x 2^d (Corollary 2); the phases are Theorem 2's {YT}_delta_m with
//     delta_m = 4^(k-m), or Corollary 3's delta_m = 2 x 4^(k-m) and a final F_1;
//   - stepwise contention-free (Theorem 2, Corollary 3): within every step, no two messages
//     use the same directed link, on the routes the simulator takes (RouteCompute on the
//     torus: dimension-ordered, shorter way round, ties the + way), walked here;
//   - the seed's own sends: the root's Y step of Fig. 4.7, the F step of Corollary 3's proof,
//     the first step of Fig. 4.12(a) on 4x4x7 (with the one correction docs/edn-torus.md
//     explains); every step of a 2D broadcast at most 2 delta hops (Eq. 4.1's step time);
//   - why the tie rule matters: with ties going the - way, Fig. 4.7's Y step shares a link;
//   - 3D (Theorem 3, Corollary 4): the plane distribution for every z up to 2000 reaches every
//     plane once in the theorem's number of steps (0; 1 for z <= 7; m + 2 for
//     7 x 6^m + 1 <= z <= 7 x 6^(m+1)) and never crosses a wrap-around link after step 1;
//     whole 3D patterns (4x4xz for z = 1..50 and the theorem's boundaries 42, 43, 252, 253;
//     8x8xz and 16x16xz for some z) reach every node once in d + (those) steps without
//     stepwise contention.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "edn_torus_pattern.h"
#include "port_layout.h"
#include "route_compute.h"
#include "topology.h"

namespace wormsim::fw::edn_torus_pattern_test {
namespace {

// The simulator's routes on a torus of `dims` (default routing: x, then y, then z; dateline).
class TorusRoutes {
 public:
  explicit TorusRoutes(const std::vector<int>& dims)
      : topology_(config(dims)),
        layout_(PortLayout::make(PortModel::kAllPort, topology_.network_ports(), 0)),
        routes_(topology_, RoutingConfig{}, layout_, 2) {}

  const Topology& topology() const { return topology_; }
  // Directed links (node * ports + port) of the route a -> b.
  std::vector<int> links(NodeId a, NodeId b) const {
    std::vector<int> out;
    for (NodeId n = a; n != b; n = routes_.next_node(n, b))
      out.push_back(static_cast<int>(n) * topology_.network_ports() + routes_.first_hop_port(n, b));
    return out;
  }
  bool crosses_wraparound(NodeId a, NodeId b) const {
    for (NodeId n = a; n != b; n = routes_.next_node(n, b))
      if (topology_.is_dateline(n, routes_.first_hop_port(n, b))) return true;
    return false;
  }

 private:
  static TopologyConfig config(const std::vector<int>& dims) {
    TopologyConfig t;
    t.kind = TopologyKind::kTorus;
    t.dims = dims;
    return t;
  }
  Topology topology_;
  PortLayout layout_;
  RouteCompute routes_;
};

// Walks the broadcast from `root` through children(): every node exactly once; returns the
// number of steps and checks each node's step against receive_step.
int check_reach(const EdnTorusPattern& p, NodeId root) {
  const int n = p.nodes();
  std::vector<int> step(static_cast<std::size_t>(n), -1);
  step[root] = 0;
  std::vector<NodeId> frontier{root};
  int steps = 0;
  while (!frontier.empty()) {
    std::vector<NodeId> next;
    for (NodeId u : frontier) {
      const auto groups = p.children(root, u);
      for (std::size_t g = 0; g < groups.size(); ++g)
        for (NodeId c : groups[g]) {
          EXPECT_EQ(step[c], -1) << "node " << c << " reached twice (root " << root << ")";
          if (step[c] != -1) continue;
          step[c] = step[u] + 1 + static_cast<int>(g);
          EXPECT_EQ(step[c], p.receive_step(root, c));
          steps = std::max(steps, step[c]);
          next.push_back(c);
        }
    }
    frontier = std::move(next);
  }
  for (int v = 0; v < n; ++v) EXPECT_GE(step[static_cast<std::size_t>(v)], 0) << "node " << v;
  return steps;
}

// Stepwise contention (seed 000 section 4.2): two messages of one step on one directed link.
// Returns the number of such link conflicts (0 = contention-free).
std::size_t stepwise_conflicts(const EdnTorusPattern& p, const TorusRoutes& r, NodeId root) {
  std::map<int, std::set<int>> used;
  std::size_t conflicts = 0;
  for (const TorusSend& s : p.sends(root))
    for (int l : r.links(s.from, s.to))
      if (!used[s.step].insert(l).second) ++conflicts;
  return conflicts;
}

int log2i(int v) {
  int d = 0;
  while ((1 << d) < v) ++d;
  return d;
}

// ---- 2D ------------------------------------------------------------------------------------

class Torus2D : public ::testing::TestWithParam<int> {};

TEST_P(Torus2D, EveryNodeOnceInDStepsStepwiseContentionFree) {
  const int side = GetParam(), d = log2i(side), nodes = side * side;
  const EdnTorusPattern p({side, side});
  const TorusRoutes r({side, side});
  // Theorem 1: 4^k x 4^k in 2k steps; Corollary 1: (2 x 4^k) x (2 x 4^k) in 2k + 1; both d
  // (Corollary 2).
  const int k = d / 2;
  const int seed_steps = d % 2 == 0 ? 2 * k : 2 * k + 1;
  EXPECT_EQ(p.steps(), seed_steps);
  std::vector<NodeId> roots;
  if (side <= 16) {
    for (int v = 0; v < nodes; ++v) roots.push_back(static_cast<NodeId>(v));
  } else {
    roots = {0, static_cast<NodeId>(nodes - 1), static_cast<NodeId>(side / 2 + side * 3),
             static_cast<NodeId>(nodes / 2 + 5)};
  }
  for (NodeId root : roots) {
    EXPECT_EQ(check_reach(p, root), seed_steps) << side << "x" << side << " root " << root;
    EXPECT_EQ(p.sends(root).size(), static_cast<std::size_t>(nodes - 1));
    // Theorem 2 / Corollary 3.
    EXPECT_EQ(stepwise_conflicts(p, r, root), 0u) << side << "x" << side << " root " << root;
  }
}

TEST_P(Torus2D, PhasesAreTheTheoremsDeltas) {
  const int side = GetParam(), d = log2i(side), k = d / 2;
  std::vector<std::pair<char, int>> seed;
  // Theorem 2: delta_m = 4^(k-m); Corollary 3: delta_m = 2 x 4^(k-m), then F with delta 1.
  for (int m = 1; m <= k; ++m) {
    int delta = (d % 2 == 0 ? 1 : 2);
    for (int i = 0; i < k - m; ++i) delta *= 4;
    seed.emplace_back('Y', delta);
    seed.emplace_back('T', delta);
  }
  if (d % 2 == 1) seed.emplace_back('F', 1);
  EXPECT_EQ(EdnTorusPattern::plane_steps(side), seed);
}

TEST_P(Torus2D, TheSeedsSendsAndHopBounds) {
  const int side = GetParam();
  const EdnTorusPattern p({side, side});
  const TorusRoutes r({side, side});
  const auto id = [side](int x, int y) {
    return static_cast<NodeId>(((x % side) + side) % side + side * (((y % side) + side) % side));
  };
  const NodeId root = id(side / 2 + 1, 3);
  const int rx = side / 2 + 1, ry = 3, delta = side / 4;
  // Fig. 4.7: the source's first step.
  const auto groups = p.children(root, root);
  ASSERT_FALSE(groups.empty());
  EXPECT_EQ(groups[0], (std::vector<NodeId>{id(rx - delta, ry - delta), id(rx, ry + 2 * delta),
                                            id(rx + 2 * delta, ry)}));
  // Every send of the phase with parameter delta is at most 2 delta hops long (the step time
  // 3 alpha + 2 delta beta + L beta + gamma of section 4.4.2); the F step's at most 2.
  const auto phases = EdnTorusPattern::plane_steps(side);
  for (const TorusSend& s : p.sends(root)) {
    const int delta_s = phases[static_cast<std::size_t>(s.step - 1)].second;
    EXPECT_LE(r.links(s.from, s.to).size(), static_cast<std::size_t>(2 * delta_s))
        << s.from << " -> " << s.to << " in step " << s.step;
  }
  // Corollary 3's proof: in the F step (x, y) sends to (x - 1, y + 1), (x, y + 1), (x + 1, y).
  if (phases.back().first == 'F') {
    // The holders before the F step: the nodes at even distances from the root.
    for (int v = 0; v < side * side; ++v) {
      const int x = v % side, y = v / side;
      if ((x - rx) % 2 != 0 || (y - ry) % 2 != 0) continue;
      const auto g = p.children(root, static_cast<NodeId>(v));
      ASSERT_FALSE(g.empty());
      EXPECT_EQ(g.back(), (std::vector<NodeId>{id(x - 1, y + 1), id(x, y + 1), id(x + 1, y)}));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, Torus2D, ::testing::Values(4, 8, 16, 32, 64),
                         [](const ::testing::TestParamInfo<int>& i) {
                           return "side" + std::to_string(i.param);
                         });

// Beyond 64x64: the pattern from one root still meets the theorems (pure function only).
TEST(EdnTorusPattern, LargeTori128And256) {
  for (int side : {128, 256}) {
    const EdnTorusPattern p({side, side});
    const TorusRoutes r({side, side});
    EXPECT_EQ(p.steps(), log2i(side));
    EXPECT_EQ(check_reach(p, 77), log2i(side));
    EXPECT_EQ(stepwise_conflicts(p, r, 77), 0u);
  }
}

// With ties going the - way, Fig. 4.7's Y_c (x + 2 delta, y) on a ring of 4 delta would go
// -x through (x - delta, y), the first link of Y_a's route to (x - delta, y - delta): the
// seed's Y step needs ties broken the + way, as RouteCompute does (docs/edn-torus.md).
TEST(EdnTorusPattern, YStepNeedsTiesThePlusWay) {
  const TorusRoutes r({4, 4});
  const auto id = [](int x, int y) { return static_cast<NodeId>(x + 4 * y); };
  // Under RouteCompute (ties +): Y_c goes +x, Y_a -x first: disjoint.
  const std::vector<int> ya = r.links(id(1, 1), id(0, 0)), yc = r.links(id(1, 1), id(3, 1));
  for (int l : yc) EXPECT_EQ(std::count(ya.begin(), ya.end(), l), 0);
  EXPECT_EQ(yc.front() % 4, 0);  // port 0: +x
  // The - way to (3, 1) from (1, 1) is (1,1) -> (0,1) -> (3,1); its first link is Y_a's.
  EXPECT_EQ(ya.front(), static_cast<int>(id(1, 1)) * 4 + 1);  // (1, 1) leaves on -x
}

// ---- 3D ------------------------------------------------------------------------------------

// Theorem 3's step count for the planes: 0 (z = 1), 1 (2 <= z <= 7), m + 2 for
// 7 x 6^m + 1 <= z <= 7 x 6^(m+1).
int theorem3_plane_steps(int z) {
  if (z == 1) return 0;
  if (z <= 7) return 1;
  int m = 0, upper = 42;
  while (z > upper) {
    ++m;
    upper *= 6;
  }
  return m + 2;
}

TEST(EdnTorusPattern, PlaneDistributionMeetsTheorem3ForEveryZUpTo2000) {
  for (int z = 1; z <= 2000; ++z) {
    const std::vector<PlaneSend> sends = EdnTorusPattern::plane_distribution(z);
    std::vector<int> step(static_cast<std::size_t>(z), -1);
    const auto at = [z](int offset) { return static_cast<std::size_t>((offset % z + z) % z); };
    step[0] = 0;
    int steps = 0;
    std::map<std::pair<int, int>, int> per_sender;  // (plane, step) -> sends
    for (const PlaneSend& s : sends) {
      ASSERT_GE(step[at(s.from)], 0) << "z " << z << ": plane " << s.from << " sends unreached";
      ASSERT_LT(step[at(s.from)], s.step);
      ASSERT_EQ(step[at(s.to)], -1) << "z " << z << ": plane " << s.to << " reached twice";
      step[at(s.to)] = s.step;
      steps = std::max(steps, s.step);
      // In (-z/2, z/2]: a route of exactly half the ring goes the + way.
      ASSERT_GT(2 * s.to, -z);
      ASSERT_LE(2 * s.to, z);
      // Fig. 4.12(b): after the first step no route crosses a wrap-around link, i.e. it stays
      // between the sender's and the receiver's planes, which lie within half a ring.
      if (s.step > 1) {
        ASSERT_LT(2 * std::abs(s.to - s.from), z) << "z " << z;
      }
      // At most six sends per holder and step (one per port).
      ASSERT_LE(++per_sender[std::make_pair(s.from, s.step)], 6);
    }
    for (int p = 0; p < z; ++p) ASSERT_GE(step[static_cast<std::size_t>(p)], 0) << "z " << z;
    ASSERT_EQ(steps, theorem3_plane_steps(z)) << "z " << z;
  }
}

TEST(EdnTorusPattern, Fig412aFirstStepOn4x4x7) {
  const EdnTorusPattern p({4, 4, 7});
  const auto id = [](int x, int y, int z) {
    return static_cast<NodeId>((x + 4) % 4 + 4 * ((y + 4) % 4 + 4 * ((z + 7) % 7)));
  };
  const int x = 1, y = 2, z = 3;
  const NodeId root = id(x, y, z);
  // (x, y, z+3), (x+1, y, z+2), (x, y, z-2), (x, y-1, z+4), (x-1, y, z-1), and (x, y+1, z+1)
  // for the seed's (x, y-1, z+1), which would share (x, y-1, z+4)'s first link.
  const std::vector<NodeId> first = p.children(root, root).at(0);
  EXPECT_EQ(first,
            (std::vector<NodeId>{id(x, y, z + 3), id(x + 1, y, z + 2), id(x, y, z - 2),
                                 id(x, y - 1, z + 4), id(x - 1, y, z - 1), id(x, y + 1, z + 1)}));
  const TorusRoutes r({4, 4, 7});
  std::set<int> first_ports;
  for (NodeId t : first) first_ports.insert(r.links(root, t).front() % 6);
  EXPECT_EQ(first_ports.size(), 6u);  // all-port: one message per port
}

struct Torus3DCase {
  int side;
  std::vector<int> zs;
};

class Torus3D : public ::testing::TestWithParam<Torus3DCase> {};

TEST_P(Torus3D, Theorem3StepsCorollary4ContentionFree) {
  const Torus3DCase& c = GetParam();
  const int d = log2i(c.side);
  for (int z : c.zs) {
    const EdnTorusPattern p({c.side, c.side, z});
    const TorusRoutes r({c.side, c.side, z});
    const int nodes = c.side * c.side * z;
    EXPECT_EQ(p.steps(), d + theorem3_plane_steps(z)) << c.side << "x" << c.side << "x" << z;
    for (NodeId root :
         {NodeId{0}, static_cast<NodeId>(nodes - 1), static_cast<NodeId>(nodes / 3)}) {
      EXPECT_EQ(check_reach(p, root), d + theorem3_plane_steps(z))
          << c.side << "x" << c.side << "x" << z << " root " << root;
      EXPECT_EQ(stepwise_conflicts(p, r, root), 0u)
          << c.side << "x" << c.side << "x" << z << " root " << root;
    }
  }
}

std::vector<int> z_up_to_50_and_boundaries() {
  std::vector<int> zs;
  for (int z = 1; z <= 50; ++z) zs.push_back(z);
  for (int z : {252, 253}) zs.push_back(z);
  return zs;
}

INSTANTIATE_TEST_SUITE_P(Sizes, Torus3D,
                         ::testing::Values(Torus3DCase{4, z_up_to_50_and_boundaries()},
                                           Torus3DCase{8, {1, 2, 5, 7, 8, 13, 42, 43}},
                                           Torus3DCase{16, {3, 9}}),
                         [](const ::testing::TestParamInfo<Torus3DCase>& i) {
                           return "side" + std::to_string(i.param.side);
                         });

TEST(EdnTorusPattern, RefusesSizesWithoutAConstruction) {
  for (const std::vector<int>& dims : std::vector<std::vector<int>>{
           {2, 2}, {6, 6}, {4, 8}, {8, 8, 0}, {16}, {4, 4, 4, 4}, {12, 12, 3}})
    EXPECT_FALSE(EdnTorusPattern::unsupported(dims).empty());
  EXPECT_THROW(EdnTorusPattern({6, 6}), std::invalid_argument);
  EXPECT_TRUE(EdnTorusPattern::unsupported({4, 4, 5}).empty());
}

}  // namespace
}  // namespace wormsim::fw::edn_torus_pattern_test
