// Tests of the k-ary n-cube topologies against coordinates, neighbours and distances the test
// computes itself (division for coordinates, BFS over the neighbour graph for distances).
#include "topology.h"

#include <cstdlib>
#include <queue>
#include <vector>

#include <gtest/gtest.h>

#include "topology_test_util.h"

namespace wormsim::topology_test {
namespace {

using testing::coords_of;
using testing::id_of;
using testing::make_hypercube;
Topology make(TopologyKind kind, std::vector<int> dims) {
  return testing::make_grid(kind, std::move(dims));
}

// Expected neighbour of a mesh/torus node through `port`, from coordinates.
NodeId expected_neighbor(int n, int port, const std::vector<int>& sides, bool torus) {
  std::vector<int> c = coords_of(n, sides);
  const std::size_t d = static_cast<std::size_t>(port / 2);
  c[d] += (port % 2 == 0) ? 1 : -1;
  if (c[d] < 0 || c[d] >= sides[d]) {
    if (!torus) return kNoNode;
    c[d] = (c[d] + sides[d]) % sides[d];
  }
  return static_cast<NodeId>(id_of(c, sides));
}

std::vector<int> bfs(const Topology& t, NodeId src) {
  std::vector<int> dist(static_cast<std::size_t>(t.nodes()), -1);
  std::queue<NodeId> q;
  dist[src] = 0;
  q.push(src);
  while (!q.empty()) {
    const NodeId n = q.front();
    q.pop();
    for (int p = 0; p < t.network_ports(); ++p) {
      const NodeId m = t.neighbor(n, p);
      if (m == kNoNode || dist[m] >= 0) continue;
      dist[m] = dist[n] + 1;
      q.push(m);
    }
  }
  return dist;
}

void check_grid(TopologyKind kind, const std::vector<int>& sides) {
  SCOPED_TRACE(::testing::Message() << (kind == TopologyKind::kTorus ? "torus" : "mesh")
                                    << " sides " << ::testing::PrintToString(sides));
  const bool torus = kind == TopologyKind::kTorus;
  const Topology t = make(kind, sides);
  int nodes = 1;
  for (int s : sides) nodes *= s;
  const int dims = static_cast<int>(sides.size());
  ASSERT_EQ(t.nodes(), nodes);
  ASSERT_EQ(t.dimensions(), dims);
  ASSERT_EQ(t.network_ports(), 2 * dims);
  EXPECT_EQ(t.kind(), kind);
  for (int d = 0; d < dims; ++d) EXPECT_EQ(t.side(d), sides[static_cast<std::size_t>(d)]);
  for (int p = 0; p < 2 * dims; ++p) {
    EXPECT_EQ(t.port_dimension(p), p / 2);
    EXPECT_EQ(t.port_direction(p), p % 2 == 0 ? 1 : -1);
    EXPECT_EQ(t.reverse_port(p), p % 2 == 0 ? p + 1 : p - 1);
  }
  for (int n = 0; n < nodes; ++n) {
    const NodeId id = static_cast<NodeId>(n);
    const std::vector<int> c = coords_of(n, sides);
    for (int d = 0; d < dims; ++d) ASSERT_EQ(t.coord(id, d), c[static_cast<std::size_t>(d)]);
    ASSERT_EQ(t.node_at(c), id);
    for (int p = 0; p < 2 * dims; ++p) {
      const NodeId nb = t.neighbor(id, p);
      ASSERT_EQ(nb, expected_neighbor(n, p, sides, torus)) << "node " << n << " port " << p;
      // Dateline exactly on the wrap-around links of a torus.
      const int k = sides[static_cast<std::size_t>(p / 2)];
      const int cd = c[static_cast<std::size_t>(p / 2)];
      const bool wraps = (p % 2 == 0) ? cd == k - 1 : cd == 0;
      EXPECT_EQ(t.is_dateline(id, p), torus && wraps) << "node " << n << " port " << p;
      if (!torus) {
        EXPECT_EQ(nb == kNoNode, wraps) << "node " << n << " port " << p;
      }
      if (nb == kNoNode) continue;
      // Symmetry: going back through the reverse port returns home.
      EXPECT_EQ(t.neighbor(nb, t.reverse_port(p)), id) << "node " << n << " port " << p;
      // The reverse link of a dateline link is a dateline link too (and only then).
      EXPECT_EQ(t.is_dateline(nb, t.reverse_port(p)), t.is_dateline(id, p));
      // A neighbour differs in exactly the port's dimension.
      for (int d = 0; d < dims; ++d)
        if (d != p / 2) {
          EXPECT_EQ(t.coord(nb, d), c[static_cast<std::size_t>(d)]);
        }
    }
  }
  // Distances equal BFS hop counts on the neighbour graph.
  for (int a = 0; a < nodes; ++a) {
    const std::vector<int> dist = bfs(t, static_cast<NodeId>(a));
    for (int b = 0; b < nodes; ++b) {
      ASSERT_EQ(t.distance(static_cast<NodeId>(a), static_cast<NodeId>(b)),
                dist[static_cast<std::size_t>(b)])
          << a << " -> " << b;
    }
  }
}

TEST(Topology, Mesh8x8) { check_grid(TopologyKind::kMesh, {8, 8}); }
TEST(Topology, MeshNonSquare5x7) { check_grid(TopologyKind::kMesh, {5, 7}); }
TEST(Topology, Mesh1D) { check_grid(TopologyKind::kMesh, {6}); }
TEST(Topology, Mesh3D4x3x2) { check_grid(TopologyKind::kMesh, {4, 3, 2}); }
TEST(Topology, Mesh3D4x4x45) { check_grid(TopologyKind::kMesh, {4, 4, 45}); }
TEST(Topology, Torus8x8) { check_grid(TopologyKind::kTorus, {8, 8}); }
TEST(Topology, TorusOdd5x7) { check_grid(TopologyKind::kTorus, {5, 7}); }
TEST(Topology, Torus3D3x4x2) { check_grid(TopologyKind::kTorus, {3, 4, 2}); }
TEST(Topology, TorusRing) { check_grid(TopologyKind::kTorus, {9}); }

TEST(Topology, Mesh5x7Specifics) {
  const Topology t = make(TopologyKind::kMesh, {5, 7});
  EXPECT_EQ(t.nodes(), 35);
  // Node 17 = (2, 3).
  EXPECT_EQ(t.coord(17, 0), 17 % 5);
  EXPECT_EQ(t.coord(17, 1), 17 / 5);
  EXPECT_EQ(t.neighbor(17, 0), 18u);  // x+
  EXPECT_EQ(t.neighbor(17, 1), 16u);  // x-
  EXPECT_EQ(t.neighbor(17, 2), 22u);  // y+
  EXPECT_EQ(t.neighbor(17, 3), 12u);  // y-
  // Corners.
  EXPECT_EQ(t.neighbor(0, 1), kNoNode);
  EXPECT_EQ(t.neighbor(0, 3), kNoNode);
  EXPECT_EQ(t.neighbor(4, 0), kNoNode);   // (4,0) x+
  EXPECT_EQ(t.neighbor(34, 0), kNoNode);  // (4,6)
  EXPECT_EQ(t.neighbor(34, 2), kNoNode);
  EXPECT_EQ(t.neighbor(30, 1), kNoNode);  // (0,6) x-
  EXPECT_EQ(t.distance(0, 34), 4 + 6);
  EXPECT_EQ(t.node_name(17), "(2,3)");
  EXPECT_EQ(t.port_name(0), "x+");
  EXPECT_EQ(t.port_name(3), "y-");
}

TEST(Topology, Mesh4x4x45Shape) {
  const Topology t = make(TopologyKind::kMesh, {4, 4, 45});
  EXPECT_EQ(t.nodes(), 4 * 4 * 45);
  EXPECT_EQ(t.network_ports(), 6);
  const NodeId last = static_cast<NodeId>(4 * 4 * 45 - 1);
  EXPECT_EQ(t.coord(last, 0), 3);
  EXPECT_EQ(t.coord(last, 1), 3);
  EXPECT_EQ(t.coord(last, 2), 44);
  EXPECT_EQ(t.neighbor(last, 4), kNoNode);    // z+ at the top layer
  EXPECT_EQ(t.neighbor(last, 5), last - 16);  // z-
  EXPECT_EQ(t.neighbor(0, 4), 16u);           // z+ from the bottom
  EXPECT_EQ(t.neighbor(0, 5), kNoNode);
  EXPECT_EQ(t.distance(0, last), 3 + 3 + 44);
  EXPECT_EQ(t.node_name(last), "(3,3,44)");
  EXPECT_EQ(t.port_name(5), "z-");
}

TEST(Topology, Torus8x8Wrap) {
  const Topology t = make(TopologyKind::kTorus, {8, 8});
  EXPECT_EQ(t.neighbor(7, 0), 0u);   // (7,0) x+ -> (0,0)
  EXPECT_EQ(t.neighbor(0, 1), 7u);   // (0,0) x- -> (7,0)
  EXPECT_EQ(t.neighbor(56, 2), 0u);  // (0,7) y+ -> (0,0)
  EXPECT_EQ(t.neighbor(0, 3), 56u);
  EXPECT_TRUE(t.is_dateline(7, 0));
  EXPECT_TRUE(t.is_dateline(0, 1));
  EXPECT_FALSE(t.is_dateline(0, 0));
  EXPECT_FALSE(t.is_dateline(7, 1));
  EXPECT_TRUE(t.is_dateline(63, 2));
  EXPECT_EQ(t.distance(0, 7), 1);
  EXPECT_EQ(t.distance(0, 4), 4);
  EXPECT_EQ(t.distance(0, 63), 2);
  EXPECT_EQ(t.distance(0, 36), 8);
}

TEST(Topology, TorusSide2BothPortsReachTheSameNode) {
  const Topology t = make(TopologyKind::kTorus, {2, 3});
  for (NodeId n = 0; n < 6; ++n) {
    EXPECT_EQ(t.neighbor(n, 0), t.neighbor(n, 1));
    EXPECT_NE(t.neighbor(n, 0), n);
    // Exactly one of the two links is the dateline.
    EXPECT_NE(t.is_dateline(n, 0), t.is_dateline(n, 1));
  }
  check_grid(TopologyKind::kTorus, {2, 3});
}

TEST(Topology, MeshNeverHasDatelines) {
  const Topology t = make(TopologyKind::kMesh, {4, 4});
  for (NodeId n = 0; n < 16; ++n)
    for (int p = 0; p < 4; ++p) EXPECT_FALSE(t.is_dateline(n, p));
}

class HypercubeTest : public ::testing::TestWithParam<int> {};

TEST_P(HypercubeTest, Structure) {
  const int dims = GetParam();
  const Topology t = make_hypercube(dims);
  const int nodes = 1 << dims;
  ASSERT_EQ(t.nodes(), nodes);
  ASSERT_EQ(t.dimensions(), dims);
  ASSERT_EQ(t.network_ports(), dims);
  for (int p = 0; p < dims; ++p) {
    EXPECT_EQ(t.reverse_port(p), p);
    EXPECT_EQ(t.port_dimension(p), p);
    EXPECT_EQ(t.port_direction(p), 1);
    EXPECT_EQ(t.port_name(p), "d" + std::to_string(p));
  }
  for (int n = 0; n < nodes; ++n) {
    const NodeId id = static_cast<NodeId>(n);
    std::string name;
    for (int d = 0; d < dims; ++d) {
      EXPECT_EQ(t.coord(id, d), (n >> d) & 1);
      name.insert(name.begin(), ((n >> d) & 1) ? '1' : '0');
    }
    EXPECT_EQ(t.node_name(id), name);
    for (int p = 0; p < dims; ++p) {
      const NodeId nb = t.neighbor(id, p);
      EXPECT_EQ(nb, static_cast<NodeId>(n ^ (1 << p)));
      EXPECT_EQ(t.neighbor(nb, t.reverse_port(p)), id);
      EXPECT_FALSE(t.is_dateline(id, p));
    }
    const std::vector<int> dist = bfs(t, id);
    for (int m = 0; m < nodes; ++m) {
      int pop = 0;
      for (int x = n ^ m; x; x >>= 1) pop += x & 1;
      EXPECT_EQ(t.distance(id, static_cast<NodeId>(m)), pop);
      EXPECT_EQ(dist[static_cast<std::size_t>(m)], pop);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Dims, HypercubeTest, ::testing::Values(1, 2, 3, 4, 6),
                         ::testing::PrintToStringParamName());

}  // namespace
}  // namespace wormsim::topology_test
