// Destination sets of synthetic multidestination worms (systemc/ni/multicast_destinations.h,
// traffic.multicast_pattern): row_column sets lie in the source's row and column and, for path
// worms, on one arm in route order; hotspot sets hold every hotspot node (tree) or end at one
// (path); every path list conforms to the base routing (checked with brcp_violation). Expected
// sets are written out by hand from coordinates (x = n % X, y = n / X); the source is (3,5) of
// an 8x8 network, node 43, unless a test says otherwise.
#include "multicast_destinations.h"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <vector>

#include "multicast_route.h"
#include "port_layout.h"

namespace wormsim::multicast_destinations_test {
namespace {

constexpr NodeId kSrc = 3 + 5 * 8;

struct Bench {
  Bench(TopologyKind kind, std::vector<int> dims, RoutingAlgorithm alg)
      : topology(make_topology(kind, std::move(dims))),
        layout(PortLayout::make(PortModel::kOnePort, topology.network_ports(), 1)),
        rc(topology, routing(alg), layout, 2) {}
  static Topology make_topology(TopologyKind kind, std::vector<int> dims) {
    TopologyConfig t;
    t.kind = kind;
    t.dims = std::move(dims);
    return Topology(t);
  }
  static RoutingConfig routing(RoutingAlgorithm alg) {
    RoutingConfig r;
    r.algorithm = alg;
    return r;
  }
  MulticastDestinations make(MulticastPattern p, MultidestMode mode, int m,
                             std::vector<NodeId> hot = {}, NodeId src = kSrc) const {
    return MulticastDestinations(p, mode, m, hot, topology, rc, src);
  }
  Topology topology;
  PortLayout layout;
  RouteCompute rc;
};

NodeId at(int x, int y) { return static_cast<NodeId>(x + 8 * y); }

Bench mesh8() { return Bench(TopologyKind::kMesh, {8, 8}, RoutingAlgorithm::kDimensionOrder); }

TEST(MulticastDestinations, RowColumnTreeSetsLieInTheRowAndColumnAndCoverThem) {
  const Bench b = mesh8();
  const MulticastDestinations d = b.make(MulticastPattern::kRowColumn, MultidestMode::kTree, 5);
  std::mt19937_64 rng(7);
  std::set<NodeId> seen;
  for (int i = 0; i < 300; ++i) {
    const std::vector<NodeId> s = d.draw(rng);
    ASSERT_EQ(s.size(), 5u);
    EXPECT_EQ(std::set<NodeId>(s.begin(), s.end()).size(), 5u);  // distinct
    for (NodeId n : s) {
      EXPECT_NE(n, kSrc);
      EXPECT_TRUE(n % 8 == 3 || n / 8 == 5) << n;
      seen.insert(n);
    }
  }
  EXPECT_EQ(seen.size(), 14u);  // 7 others in row 5, 7 in column 3
}

TEST(MulticastDestinations, RowColumnTreeOfFourteenIsTheWholeRowAndColumn) {
  const Bench b = mesh8();
  std::mt19937_64 rng(1);
  const std::vector<NodeId> s =
      b.make(MulticastPattern::kRowColumn, MultidestMode::kTree, 14).draw(rng);
  const std::set<NodeId> expected{at(0, 5), at(1, 5), at(2, 5), at(4, 5), at(5, 5),
                                  at(6, 5), at(7, 5), at(3, 0), at(3, 1), at(3, 2),
                                  at(3, 3), at(3, 4), at(3, 6), at(3, 7)};
  EXPECT_EQ(std::set<NodeId>(s.begin(), s.end()), expected);
}

// From (3,5): arms of 3 (x < 3), 4 (x > 3), 5 (y < 5) and 2 (y > 5) nodes.
TEST(MulticastDestinations, RowColumnPathRunsAlongOneArmInRouteOrder) {
  const Bench b = mesh8();
  const MulticastDestinations d = b.make(MulticastPattern::kRowColumn, MultidestMode::kPath, 3);
  std::mt19937_64 rng(3);
  std::set<int> arms;
  for (int i = 0; i < 300; ++i) {
    const std::vector<NodeId> s = d.draw(rng);
    ASSERT_EQ(s.size(), 3u);  // the arms of 3, 4 and 5 nodes hold 3
    EXPECT_EQ(brcp_violation(b.rc, kSrc, s), "");
    const bool row = std::all_of(s.begin(), s.end(), [](NodeId n) { return n / 8 == 5; });
    const bool column = std::all_of(s.begin(), s.end(), [](NodeId n) { return n % 8 == 3; });
    ASSERT_TRUE(row || column);
    // Strictly moving away from the source along the arm.
    for (std::size_t k = 1; k < s.size(); ++k) {
      const int before = row ? static_cast<int>(s[k - 1] % 8) : static_cast<int>(s[k - 1] / 8);
      const int now = row ? static_cast<int>(s[k] % 8) : static_cast<int>(s[k] / 8);
      const int start = row ? 3 : 5;
      EXPECT_GT(std::abs(now - start), std::abs(before - start));
      EXPECT_EQ((now > start), (before > start));
    }
    arms.insert(row ? (s[0] % 8 > 3 ? 0 : 1) : (s[0] / 8 > 5 ? 2 : 3));
  }
  EXPECT_EQ(arms, (std::set<int>{0, 1, 3}));  // never the 2-node arm up the column
}

TEST(MulticastDestinations, RowColumnPathTakesTheOnlyLongEnoughArmWhole) {
  const Bench b = mesh8();
  std::mt19937_64 rng(5);
  const std::vector<NodeId> down{at(3, 4), at(3, 3), at(3, 2), at(3, 1), at(3, 0)};
  // Only the arm down the column has 5 nodes; none has 6, so m = 6 takes the longest (5).
  for (int m : {5, 6})
    for (int i = 0; i < 20; ++i)
      EXPECT_EQ(b.make(MulticastPattern::kRowColumn, MultidestMode::kPath, m).draw(rng), down);
}

TEST(MulticastDestinations, RowColumnPathConformsOnATorusAndUnderHamiltonianRouting) {
  const Bench torus(TopologyKind::kTorus, {8, 8}, RoutingAlgorithm::kDimensionOrder);
  const Bench ham(TopologyKind::kMesh, {8, 8}, RoutingAlgorithm::kHamiltonian);
  std::mt19937_64 rng(11);
  for (const Bench* b : {&torus, &ham}) {
    const MulticastDestinations d = b->make(MulticastPattern::kRowColumn, MultidestMode::kPath, 4);
    for (int i = 0; i < 200; ++i) {
      const std::vector<NodeId> s = d.draw(rng);
      ASSERT_FALSE(s.empty());
      EXPECT_LE(s.size(), 4u);
      EXPECT_EQ(brcp_violation(b->rc, kSrc, s), "");
      for (NodeId n : s) EXPECT_TRUE(n % 8 == 3 || n / 8 == 5) << n;
    }
  }
  // Hamiltonian labels: row 5 runs right to left, so (3,5) is label 40 + 7 - 3 = 44; above it
  // are (0..2, 5) and column 3 of rows 6, 7: 5 nodes; below it 4 + 5 = 9. m = 6: only the low
  // side holds 6, in falling label order.
  const MulticastDestinations low = ham.make(MulticastPattern::kRowColumn, MultidestMode::kPath, 6);
  for (int i = 0; i < 50; ++i) {
    const std::vector<NodeId> s = low.draw(rng);
    ASSERT_EQ(s.size(), 6u);
    for (std::size_t k = 1; k < s.size(); ++k)
      EXPECT_LT(ham.rc.label(s[k]), ham.rc.label(s[k - 1]));
    EXPECT_LT(ham.rc.label(s[0]), 44);
  }
}

TEST(MulticastDestinations, HotspotTreeHoldsEveryHotspotButTheSource) {
  const Bench b = mesh8();
  std::mt19937_64 rng(13);
  const MulticastDestinations d =
      b.make(MulticastPattern::kHotspot, MultidestMode::kTree, 5, {0, 63, kSrc});
  std::set<NodeId> others;
  for (int i = 0; i < 200; ++i) {
    const std::vector<NodeId> s = d.draw(rng);
    ASSERT_EQ(s.size(), 5u);
    EXPECT_EQ(std::set<NodeId>(s.begin(), s.end()).size(), 5u);
    EXPECT_EQ(std::count(s.begin(), s.end(), 0), 1);
    EXPECT_EQ(std::count(s.begin(), s.end(), 63), 1);
    EXPECT_EQ(std::count(s.begin(), s.end(), kSrc), 0);
    for (NodeId n : s)
      if (n != 0 && n != 63) others.insert(n);
  }
  EXPECT_GT(others.size(), 30u);  // the other 3 are spread over the 61 other nodes
}

// XY route (3,5) -> (7,7): (4,5) (5,5) (6,5) (7,5) (7,6) (7,7).
TEST(MulticastDestinations, HotspotPathEndsAtTheHotspotOnItsRoute) {
  const Bench b = mesh8();
  std::mt19937_64 rng(17);
  const std::vector<NodeId> route{at(4, 5), at(5, 5), at(6, 5), at(7, 5), at(7, 6), at(7, 7)};
  const MulticastDestinations three =
      b.make(MulticastPattern::kHotspot, MultidestMode::kPath, 3, {at(7, 7)});
  std::set<NodeId> seen;
  for (int i = 0; i < 200; ++i) {
    const std::vector<NodeId> s = three.draw(rng);
    ASSERT_EQ(s.size(), 3u);
    EXPECT_EQ(s.back(), at(7, 7));
    EXPECT_EQ(brcp_violation(b.rc, kSrc, s), "");
    for (NodeId n : s) {
      EXPECT_NE(std::find(route.begin(), route.end(), n), route.end()) << n;
      seen.insert(n);
    }
  }
  EXPECT_EQ(seen.size(), route.size());
  // m larger than the route: the whole route.
  EXPECT_EQ(b.make(MulticastPattern::kHotspot, MultidestMode::kPath, 10, {at(7, 7)}).draw(rng),
            route);
  // The source is the only hotspot node: random conforming paths instead.
  const std::vector<NodeId> s =
      b.make(MulticastPattern::kHotspot, MultidestMode::kPath, 3, {kSrc}).draw(rng);
  EXPECT_FALSE(s.empty());
  EXPECT_EQ(brcp_violation(b.rc, kSrc, s), "");
}

TEST(MulticastDestinations, PickInOrderKeepsOrderAndCount) {
  std::mt19937_64 rng(19);
  const std::vector<NodeId> v{9, 4, 7, 1, 3};
  for (int i = 0; i < 50; ++i) {
    const std::vector<NodeId> s = pick_in_order(v, 3, rng);
    ASSERT_EQ(s.size(), 3u);
    std::size_t last = 0;
    for (std::size_t k = 0; k < s.size(); ++k) {
      const auto pos = static_cast<std::size_t>(std::find(v.begin(), v.end(), s[k]) - v.begin());
      ASSERT_LT(pos, v.size());
      if (k > 0) {
        EXPECT_GT(pos, last);
      }
      last = pos;
    }
  }
  EXPECT_EQ(pick_in_order(v, 9, rng), v);
}

}  // namespace
}  // namespace wormsim::multicast_destinations_test
