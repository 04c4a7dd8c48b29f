// Tests of the synthetic destination patterns against mappings the test computes itself.
#include "traffic_pattern.h"

#include <map>
#include <random>
#include <set>
#include <vector>

#include <gtest/gtest.h>

#include "topology_test_util.h"

namespace wormsim::traffic_pattern_test {
namespace {

using testing::coords_of;
using testing::id_of;
using testing::make_grid;
using testing::make_hypercube;

TrafficConfig pattern(TrafficPattern p) {
  TrafficConfig t;
  t.pattern = p;
  return t;
}

// ---------------------------------------------------------------- uniform

void check_uniform(const Topology& topo) {
  const DestinationPicker picker(topo, pattern(TrafficPattern::kUniformRandom));
  std::mt19937_64 rng(11);
  const int n = topo.nodes();
  const int draws = 200 * (n - 1);
  for (int s = 0; s < n; ++s) {
    const NodeId src = static_cast<NodeId>(s);
    EXPECT_TRUE(picker.injects(src));
    std::vector<int> count(static_cast<std::size_t>(n), 0);
    for (int i = 0; i < draws; ++i) {
      const NodeId d = picker.pick(src, rng);
      ASSERT_LT(d, static_cast<NodeId>(n));
      ASSERT_NE(d, src) << "uniform picked the source itself";
      ++count[d];
    }
    for (int d = 0; d < n; ++d) {
      if (d == s) continue;
      // Expected 200 per destination; binomial sd ~14: accept 120..280.
      EXPECT_GT(count[static_cast<std::size_t>(d)], 120) << s << " -> " << d;
      EXPECT_LT(count[static_cast<std::size_t>(d)], 280) << s << " -> " << d;
    }
  }
}

TEST(TrafficPattern, UniformMesh4x4) { check_uniform(make_grid(TopologyKind::kMesh, {4, 4})); }
TEST(TrafficPattern, UniformMesh5x7) { check_uniform(make_grid(TopologyKind::kMesh, {5, 7})); }
TEST(TrafficPattern, UniformHypercube) { check_uniform(make_hypercube(4)); }
TEST(TrafficPattern, UniformTwoNodes) { check_uniform(make_grid(TopologyKind::kMesh, {2})); }

// ---------------------------------------------------------------- permutations

void check_permutation(const Topology& topo, TrafficPattern p, const std::vector<int>& expected) {
  const DestinationPicker picker(topo, pattern(p));
  std::mt19937_64 rng(1);
  const int n = topo.nodes();
  std::set<NodeId> images;
  int silent = 0;
  for (int s = 0; s < n; ++s) {
    const NodeId src = static_cast<NodeId>(s);
    const int want = expected[static_cast<std::size_t>(s)];
    if (want == s) {
      EXPECT_FALSE(picker.injects(src)) << "node " << s << " maps to itself";
      EXPECT_EQ(picker.pick(src, rng), kNoNode) << "node " << s;
      ++silent;
      continue;
    }
    EXPECT_TRUE(picker.injects(src)) << "node " << s;
    for (int i = 0; i < 3; ++i)  // deterministic: the same every time
      EXPECT_EQ(picker.pick(src, rng), static_cast<NodeId>(want)) << "node " << s;
    images.insert(static_cast<NodeId>(want));
  }
  // A permutation: the injecting nodes hit distinct destinations.
  EXPECT_EQ(static_cast<int>(images.size()) + silent, n);
}

std::vector<int> grid_transpose(const std::vector<int>& sides) {
  std::vector<int> out;
  int n = 1;
  for (int s : sides) n *= s;
  for (int s = 0; s < n; ++s) {
    std::vector<int> c = coords_of(s, sides);
    std::vector<int> r(c.rbegin(), c.rend());
    out.push_back(id_of(r, sides));
  }
  return out;
}

std::vector<int> grid_complement(const std::vector<int>& sides) {
  std::vector<int> out;
  int n = 1;
  for (int s : sides) n *= s;
  for (int s = 0; s < n; ++s) {
    std::vector<int> c = coords_of(s, sides);
    for (std::size_t d = 0; d < c.size(); ++d) c[d] = sides[d] - 1 - c[d];
    out.push_back(id_of(c, sides));
  }
  return out;
}

TEST(TrafficPattern, TransposeMesh8x8) {
  const Topology topo = make_grid(TopologyKind::kMesh, {8, 8});
  const std::vector<int> expected = grid_transpose({8, 8});
  // Spot checks of the helper itself: (1,2) = 17 -> (2,1) = 10; diagonal (3,3) silent.
  ASSERT_EQ(expected[17], 10);
  ASSERT_EQ(expected[27], 27);
  check_permutation(topo, TrafficPattern::kTranspose, expected);
}

TEST(TrafficPattern, TransposeTorus6x6) {
  check_permutation(make_grid(TopologyKind::kTorus, {6, 6}), TrafficPattern::kTranspose,
                    grid_transpose({6, 6}));
}

TEST(TrafficPattern, Transpose3D4x4x4) {
  const std::vector<int> expected = grid_transpose({4, 4, 4});
  // (1,2,3) = 1 + 4*2 + 16*3 = 57 -> (3,2,1) = 3 + 8 + 16 = 27.
  ASSERT_EQ(expected[57], 27);
  check_permutation(make_grid(TopologyKind::kMesh, {4, 4, 4}), TrafficPattern::kTranspose,
                    expected);
}

std::vector<int> cube_transpose(int dims) {
  const int half = dims / 2;
  std::vector<int> out;
  for (int s = 0; s < (1 << dims); ++s) {
    int d = 0;
    for (int b = 0; b < half; ++b) {
      if ((s >> b) & 1) d |= 1 << (b + half);  // lower half moves up
      if ((s >> (b + half)) & 1) d |= 1 << b;  // upper half moves down
    }
    out.push_back(d);
  }
  return out;
}

TEST(TrafficPattern, TransposeHypercube) {
  for (int dims : {2, 4, 6}) {
    SCOPED_TRACE(dims);
    check_permutation(make_hypercube(dims), TrafficPattern::kTranspose, cube_transpose(dims));
  }
}

TEST(TrafficPattern, BitComplementMesh8x8) {
  const std::vector<int> expected = grid_complement({8, 8});
  for (int s = 0; s < 64; ++s) ASSERT_EQ(expected[static_cast<std::size_t>(s)], (~s) & 63);
  check_permutation(make_grid(TopologyKind::kMesh, {8, 8}), TrafficPattern::kBitComplement,
                    expected);
}

TEST(TrafficPattern, BitComplementOddSides) {
  // 5x7: the centre (2,3) = 17 maps to itself and does not inject.
  const std::vector<int> expected = grid_complement({5, 7});
  ASSERT_EQ(expected[17], 17);
  check_permutation(make_grid(TopologyKind::kMesh, {5, 7}), TrafficPattern::kBitComplement,
                    expected);
  check_permutation(make_grid(TopologyKind::kTorus, {3, 4, 5}), TrafficPattern::kBitComplement,
                    grid_complement({3, 4, 5}));
}

TEST(TrafficPattern, BitComplementHypercube) {
  for (int dims : {1, 3, 5}) {
    std::vector<int> expected;
    for (int s = 0; s < (1 << dims); ++s) expected.push_back(((1 << dims) - 1) - s);
    check_permutation(make_hypercube(dims), TrafficPattern::kBitComplement, expected);
  }
}

// ---------------------------------------------------------------- hotspot

TEST(TrafficPattern, HotspotFraction) {
  const Topology topo = make_grid(TopologyKind::kMesh, {8, 8});
  const int n = topo.nodes();
  for (double f : {0.1, 0.3, 0.75}) {
    TrafficConfig cfg = pattern(TrafficPattern::kHotspot);
    cfg.hotspot.nodes = {27};
    cfg.hotspot.fraction = f;
    const DestinationPicker picker(topo, cfg);
    std::mt19937_64 rng(21);
    const NodeId src = 3;
    EXPECT_TRUE(picker.injects(src));
    const int draws = 20000;
    int hot = 0;
    for (int i = 0; i < draws; ++i) {
      const NodeId d = picker.pick(src, rng);
      ASSERT_NE(d, src);
      ASSERT_LT(d, static_cast<NodeId>(n));
      hot += d == 27 ? 1 : 0;
    }
    // The hotspot gets fraction f directly plus its uniform share of the rest.
    const double expected = f + (1.0 - f) / (n - 1);
    EXPECT_NEAR(static_cast<double>(hot) / draws, expected, 0.02) << "fraction " << f;
  }
}

TEST(TrafficPattern, HotspotSeveralNodes) {
  const Topology topo = make_grid(TopologyKind::kMesh, {8, 8});
  const int n = topo.nodes();
  TrafficConfig cfg = pattern(TrafficPattern::kHotspot);
  cfg.hotspot.nodes = {5, 40};
  cfg.hotspot.fraction = 0.4;
  const DestinationPicker picker(topo, cfg);
  std::mt19937_64 rng(8);
  const int draws = 20000;
  std::map<NodeId, int> count;
  for (int i = 0; i < draws; ++i) ++count[picker.pick(0, rng)];
  const double each = 0.2 + 0.6 / (n - 1);
  EXPECT_NEAR(static_cast<double>(count[5]) / draws, each, 0.02);
  EXPECT_NEAR(static_cast<double>(count[40]) / draws, each, 0.02);
  EXPECT_EQ(count.count(0), 0u);
}

TEST(TrafficPattern, HotspotSourceNeverSendsToItself) {
  const Topology topo = make_grid(TopologyKind::kMesh, {4, 4});
  TrafficConfig cfg = pattern(TrafficPattern::kHotspot);
  cfg.hotspot.nodes = {6};
  cfg.hotspot.fraction = 0.9;
  const DestinationPicker picker(topo, cfg);
  std::mt19937_64 rng(9);
  std::set<NodeId> seen;
  for (int i = 0; i < 5000; ++i) {
    const NodeId d = picker.pick(6, rng);
    ASSERT_NE(d, 6u);
    ASSERT_LT(d, 16u);
    seen.insert(d);
  }
  EXPECT_EQ(seen.size(), 15u);  // falls back to uniform over the others
}

// ---------------------------------------------------------------- nearest neighbour

void check_nearest(const Topology& topo) {
  const DestinationPicker picker(topo, pattern(TrafficPattern::kNearestNeighbor));
  std::mt19937_64 rng(13);
  for (int s = 0; s < topo.nodes(); ++s) {
    const NodeId src = static_cast<NodeId>(s);
    EXPECT_TRUE(picker.injects(src));
    std::set<NodeId> seen;
    for (int i = 0; i < 200; ++i) {
      const NodeId d = picker.pick(src, rng);
      ASSERT_NE(d, kNoNode);
      ASSERT_NE(d, src);
      ASSERT_EQ(topo.distance(src, d), 1) << s << " -> " << d;
      seen.insert(d);
    }
    // Every neighbour is chosen at some point.
    std::set<NodeId> neighbours;
    for (int p = 0; p < topo.network_ports(); ++p) {
      const NodeId nb = topo.neighbor(src, p);
      if (nb != kNoNode) neighbours.insert(nb);
    }
    EXPECT_EQ(seen, neighbours) << "node " << s;
  }
}

TEST(TrafficPattern, NearestNeighborMesh) { check_nearest(make_grid(TopologyKind::kMesh, {5, 7})); }
TEST(TrafficPattern, NearestNeighborTorus) {
  check_nearest(make_grid(TopologyKind::kTorus, {4, 3, 2}));
}
TEST(TrafficPattern, NearestNeighborHypercube) { check_nearest(make_hypercube(5)); }

// Distance 1 checked from coordinates too (independent of Topology::distance).
TEST(TrafficPattern, NearestNeighborMeshByCoordinates) {
  const std::vector<int> sides{5, 7};
  const Topology topo = make_grid(TopologyKind::kMesh, sides);
  const DestinationPicker picker(topo, pattern(TrafficPattern::kNearestNeighbor));
  std::mt19937_64 rng(14);
  for (int s = 0; s < topo.nodes(); ++s)
    for (int i = 0; i < 50; ++i) {
      const NodeId d = picker.pick(static_cast<NodeId>(s), rng);
      const std::vector<int> a = coords_of(s, sides);
      const std::vector<int> b = coords_of(static_cast<int>(d), sides);
      EXPECT_EQ(std::abs(a[0] - b[0]) + std::abs(a[1] - b[1]), 1) << s << " -> " << d;
    }
}

}  // namespace
}  // namespace wormsim::traffic_pattern_test
