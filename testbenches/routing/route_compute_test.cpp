// Tests of route computation. Every route is walked hop by hop through the topology, from
// every source to every destination, and each hop is checked against an expectation the test
// computes on its own: dimension order, minimal direction (ties +), hop count, dateline VC
// classes on tori, e-cube bit order on hypercubes, and ejection channels per port model.
#include "route_compute.h"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "topology_test_util.h"

namespace wormsim::route_compute_test {
namespace {

using testing::make_grid;
using testing::make_hypercube;

// Coordinates by division (dimension 0 fastest), independent of Topology::coord.
std::vector<int> coords_of(NodeId n, const std::vector<int>& sides) {
  return testing::coords_of(static_cast<int>(n), sides);
}

RoutingConfig dor(std::vector<int> order, bool dateline = true) {
  RoutingConfig r;
  r.algorithm = RoutingAlgorithm::kDimensionOrder;
  r.order = std::move(order);
  r.dateline = dateline;
  return r;
}

RoutingConfig ecube(EcubeOrder order) {
  RoutingConfig r;
  r.algorithm = RoutingAlgorithm::kEcube;
  r.ecube_order = order;
  return r;
}

int popcount(unsigned v) {
  int p = 0;
  for (; v; v >>= 1) p += static_cast<int>(v & 1u);
  return p;
}

// Expected output port at `here` towards `dst` for DOR on a mesh/torus, or -1 when here==dst.
int expected_dor_port(NodeId here, NodeId dst, const std::vector<int>& sides,
                      const std::vector<int>& order, bool torus) {
  const std::vector<int> c = coords_of(here, sides);
  const std::vector<int> t = coords_of(dst, sides);
  for (int d : order) {
    const std::size_t i = static_cast<std::size_t>(d);
    if (c[i] == t[i]) continue;
    if (!torus) return t[i] > c[i] ? 2 * d : 2 * d + 1;
    const int k = sides[i];
    const int plus_hops = ((t[i] - c[i]) % k + k) % k;
    const int minus_hops = ((c[i] - t[i]) % k + k) % k;
    return plus_hops <= minus_hops ? 2 * d : 2 * d + 1;  // ties go +
  }
  return -1;
}

struct Hop {
  NodeId at;
  int port;
  RouteResult result;
};

// Walks a packet from src to dst through route(); the next hop's input VC is drawn from
// the allowed range with `rng`. Returns the hops taken (network hops only) and the final
// ejection result in `eject`. Fails the test (returns early) on a broken route.
std::vector<Hop> walk(const Topology& topo, const RouteCompute& rc, const PortLayout& layout,
                      NodeId src, NodeId dst, std::mt19937_64& rng, RouteResult& eject,
                      int& last_in_port) {
  std::vector<Hop> hops;
  NodeId here = src;
  int in_port = layout.network;  // injection channel 0 ...
  if (layout.model == PortModel::kAllPort && src != dst)
    in_port = layout.network + rc.first_hop_port(src, dst);  // ... or that of the first hop
  int in_vc = std::uniform_int_distribution<int>(0, rc.injection_vc_hi() - 1)(rng);
  const int limit = topo.nodes() * 4 + 8;
  for (int step = 0; step < limit; ++step) {
    const RouteResult r = rc.route(here, dst, in_port, in_vc);
    if (here == dst) {
      eject = r;
      last_in_port = in_port;
      return hops;
    }
    EXPECT_EQ(r.port_hi, r.port_lo + 1) << "network hop must have exactly one port";
    EXPECT_GE(r.port_lo, 0);
    EXPECT_LT(r.port_lo, layout.network) << "network hop routed to a non-network port";
    EXPECT_LT(r.vc_lo, r.vc_hi);
    if (r.port_lo < 0 || r.port_lo >= layout.network || r.vc_lo >= r.vc_hi) return hops;
    hops.push_back({here, r.port_lo, r});
    const NodeId next = topo.neighbor(here, r.port_lo);
    EXPECT_NE(next, kNoNode) << "route leaves the network at node " << here << " port "
                             << r.port_lo;
    if (next == kNoNode) return hops;
    in_port = topo.reverse_port(r.port_lo);
    in_vc = std::uniform_int_distribution<int>(r.vc_lo, r.vc_hi - 1)(rng);
    here = next;
  }
  ADD_FAILURE() << "route from " << src << " to " << dst << " does not terminate";
  return hops;
}

PortLayout one_port(const Topology& t) {
  return PortLayout::make(PortModel::kOnePort, t.network_ports(), 1);
}

// ---------------------------------------------------------------- meshes

void check_mesh_dor(const std::vector<int>& sides, const std::vector<int>& order, int vcs) {
  SCOPED_TRACE(::testing::Message() << "mesh " << ::testing::PrintToString(sides) << " order "
                                    << ::testing::PrintToString(order));
  const Topology topo = make_grid(TopologyKind::kMesh, sides);
  const PortLayout layout = one_port(topo);
  const RouteCompute rc(topo, dor(order), layout, vcs);
  std::vector<int> effective = order;
  if (effective.empty())
    for (int d = 0; d < static_cast<int>(sides.size()); ++d) effective.push_back(d);
  std::vector<int> rank(sides.size());
  for (std::size_t i = 0; i < effective.size(); ++i)
    rank[static_cast<std::size_t>(effective[i])] = static_cast<int>(i);
  EXPECT_EQ(rc.injection_vc_hi(), vcs);
  std::mt19937_64 rng(1);
  const int n = topo.nodes();
  for (int s = 0; s < n; ++s) {
    for (int d = 0; d < n; ++d) {
      const NodeId src = static_cast<NodeId>(s);
      const NodeId dst = static_cast<NodeId>(d);
      EXPECT_EQ(rc.first_hop_port(src, dst), expected_dor_port(src, dst, sides, effective, false));
      RouteResult eject;
      int last_in = -1;
      const std::vector<Hop> hops = walk(topo, rc, layout, src, dst, rng, eject, last_in);
      // Manhattan distance from coordinates.
      const std::vector<int> a = coords_of(src, sides);
      const std::vector<int> b = coords_of(dst, sides);
      int manhattan = 0;
      for (std::size_t i = 0; i < sides.size(); ++i) manhattan += std::abs(a[i] - b[i]);
      ASSERT_EQ(static_cast<int>(hops.size()), manhattan) << s << " -> " << d;
      ASSERT_EQ(static_cast<int>(hops.size()), topo.distance(src, dst));
      int prev_rank = -1;
      for (const Hop& h : hops) {
        EXPECT_EQ(h.port, expected_dor_port(h.at, dst, sides, effective, false))
            << s << " -> " << d << " at " << h.at;
        const int dim = h.port / 2;
        const int rk = rank[static_cast<std::size_t>(dim)];
        EXPECT_GE(rk, prev_rank) << "dimension order violated " << s << " -> " << d;
        prev_rank = rk;
        // Meshes use every VC.
        EXPECT_EQ(h.result.vc_lo, 0);
        EXPECT_EQ(h.result.vc_hi, vcs);
      }
      // Direction never reverses within a dimension.
      for (std::size_t i = 1; i < hops.size(); ++i)
        if (hops[i].port / 2 == hops[i - 1].port / 2) {
          EXPECT_EQ(hops[i].port, hops[i - 1].port);
        }
      EXPECT_EQ(eject.port_lo, layout.network);
      EXPECT_EQ(eject.port_hi, layout.network + 1);
      EXPECT_EQ(eject.vc_lo, 0);
      EXPECT_EQ(eject.vc_hi, vcs);
    }
  }
}

TEST(RouteComputeMesh, XY5x7) { check_mesh_dor({5, 7}, {0, 1}, 2); }
TEST(RouteComputeMesh, YX5x7) { check_mesh_dor({5, 7}, {1, 0}, 2); }
TEST(RouteComputeMesh, DefaultOrderIsXY) { check_mesh_dor({5, 7}, {}, 4); }
TEST(RouteComputeMesh, AllOrders4x3x2) {
  std::vector<int> order{0, 1, 2};
  do {
    check_mesh_dor({4, 3, 2}, order, 3);
  } while (std::next_permutation(order.begin(), order.end()));
}

TEST(RouteComputeMesh, XYFirstHopExamples) {
  const Topology topo = make_grid(TopologyKind::kMesh, {5, 7});
  const RouteCompute xy(topo, dor({0, 1}), one_port(topo), 2);
  const RouteCompute yx(topo, dor({1, 0}), one_port(topo), 2);
  // (1,1) = 6 to (3,4) = 23.
  EXPECT_EQ(xy.first_hop_port(6, 23), 0);  // x+
  EXPECT_EQ(yx.first_hop_port(6, 23), 2);  // y+
  // (3,4) to (1,1).
  EXPECT_EQ(xy.first_hop_port(23, 6), 1);  // x-
  EXPECT_EQ(yx.first_hop_port(23, 6), 3);  // y-
  EXPECT_EQ(xy.first_hop_port(6, 6), -1);
}

// ---------------------------------------------------------------- tori

// Dateline expectation computed independently: the class of the VC a hop uses is 1 exactly
// when, in the hop's dimension, the packet has already crossed (or is now crossing) the wrap
// link since it entered that dimension.
void check_torus_dor(const std::vector<int>& sides, const std::vector<int>& order, int vcs,
                     bool dateline) {
  SCOPED_TRACE(::testing::Message() << "torus " << ::testing::PrintToString(sides) << " vcs " << vcs
                                    << " dateline " << dateline);
  const Topology topo = make_grid(TopologyKind::kTorus, sides);
  const PortLayout layout = one_port(topo);
  const RouteCompute rc(topo, dor(order, dateline), layout, vcs);
  const int half = (vcs + 1) / 2;  // class 0 gets the extra VC when V is odd
  EXPECT_EQ(rc.injection_vc_hi(), dateline ? half : vcs);
  std::mt19937_64 rng(2);
  const int n = topo.nodes();
  int crossings = 0;
  int class1_hops = 0;
  for (int s = 0; s < n; ++s) {
    for (int d = 0; d < n; ++d) {
      const NodeId src = static_cast<NodeId>(s);
      const NodeId dst = static_cast<NodeId>(d);
      EXPECT_EQ(rc.first_hop_port(src, dst), expected_dor_port(src, dst, sides, order, true));
      RouteResult eject;
      int last_in = -1;
      const std::vector<Hop> hops = walk(topo, rc, layout, src, dst, rng, eject, last_in);
      // Minimal torus distance from coordinates.
      const std::vector<int> a = coords_of(src, sides);
      const std::vector<int> b = coords_of(dst, sides);
      int minimal = 0;
      for (std::size_t i = 0; i < sides.size(); ++i) {
        const int delta = std::abs(a[i] - b[i]);
        minimal += std::min(delta, sides[i] - delta);
      }
      ASSERT_EQ(static_cast<int>(hops.size()), minimal) << s << " -> " << d;
      ASSERT_EQ(static_cast<int>(hops.size()), topo.distance(src, dst));
      int prev_dim = -1;
      int cls = 0;
      for (const Hop& h : hops) {
        EXPECT_EQ(h.port, expected_dor_port(h.at, dst, sides, order, true))
            << s << " -> " << d << " at " << h.at;
        const int dim = h.port / 2;
        const std::vector<int> c = coords_of(h.at, sides);
        const int k = sides[static_cast<std::size_t>(dim)];
        const int cd = c[static_cast<std::size_t>(dim)];
        const bool wrap = (h.port % 2 == 0) ? cd == k - 1 : cd == 0;
        if (dim != prev_dim) cls = 0;  // turning (or injection) resets the class
        if (wrap) {
          cls = 1;
          ++crossings;
        }
        prev_dim = dim;
        if (!dateline) {
          EXPECT_EQ(h.result.vc_lo, 0);
          EXPECT_EQ(h.result.vc_hi, vcs);
          continue;
        }
        class1_hops += cls;
        EXPECT_EQ(h.result.vc_lo, cls == 1 ? half : 0)
            << s << " -> " << d << " at " << h.at << " port " << h.port;
        EXPECT_EQ(h.result.vc_hi, cls == 1 ? vcs : half)
            << s << " -> " << d << " at " << h.at << " port " << h.port;
      }
      EXPECT_EQ(eject.port_lo, layout.network);
      EXPECT_EQ(eject.port_hi, layout.network + 1);
      EXPECT_EQ(eject.vc_lo, 0);
      EXPECT_EQ(eject.vc_hi, vcs);
    }
  }
  EXPECT_GT(crossings, 0);  // the walk did exercise wrap links
  if (dateline) {
    EXPECT_GT(class1_hops, crossings);  // and continued in class 1 after some
  }
}

TEST(RouteComputeTorus, Dateline8x8TwoVcs) { check_torus_dor({8, 8}, {0, 1}, 2, true); }
TEST(RouteComputeTorus, Dateline8x8FourVcs) { check_torus_dor({8, 8}, {0, 1}, 4, true); }
TEST(RouteComputeTorus, Dateline8x8ThreeVcs) { check_torus_dor({8, 8}, {0, 1}, 3, true); }
TEST(RouteComputeTorus, Dateline8x8YX) { check_torus_dor({8, 8}, {1, 0}, 4, true); }
TEST(RouteComputeTorus, DatelineOdd5x7) { check_torus_dor({5, 7}, {0, 1}, 4, true); }
TEST(RouteComputeTorus, Dateline3D5x4x3) { check_torus_dor({5, 4, 3}, {2, 0, 1}, 2, true); }
TEST(RouteComputeTorus, NoDateline8x8UsesAllVcs) { check_torus_dor({8, 8}, {0, 1}, 4, false); }

TEST(RouteComputeTorus, TiesGoPlus) {
  const Topology topo = make_grid(TopologyKind::kTorus, {8, 8});
  const RouteCompute rc(topo, dor({0, 1}), one_port(topo), 2);
  EXPECT_EQ(rc.first_hop_port(0, 4), 0);   // x distance 4 either way: +
  EXPECT_EQ(rc.first_hop_port(4, 0), 0);   // from x=4 to x=0: + through the wrap
  EXPECT_EQ(rc.first_hop_port(0, 5), 1);   // 3 hops - beats 5 hops +
  EXPECT_EQ(rc.first_hop_port(0, 32), 2);  // y distance 4: +
  EXPECT_EQ(rc.first_hop_port(0, 56), 3);  // (0,7): y-
}

// Hand-worked example: (6,0) -> (1,0) on an 8x8 torus goes + through the wrap at x=7:
// hop 6->7 class 0, hop 7->0 crosses (class 1), hop 0->1 stays class 1; then turning into y
// (to (1,2)) returns to class 0.
TEST(RouteComputeTorus, DatelineHandExample) {
  const Topology topo = make_grid(TopologyKind::kTorus, {8, 8});
  const PortLayout layout = one_port(topo);
  const int vcs = 4;
  const RouteCompute rc(topo, dor({0, 1}), layout, vcs);
  const NodeId dst = 1 + 8 * 2;  // (1,2)
  RouteResult r = rc.route(6, dst, layout.network, 0);
  EXPECT_EQ(r.port_lo, 0);
  EXPECT_EQ(r.vc_lo, 0);
  EXPECT_EQ(r.vc_hi, 2);
  r = rc.route(7, dst, 1, 1);  // arrived on x- input (from (6,0)), class 0 VC 1
  EXPECT_EQ(r.port_lo, 0);
  EXPECT_EQ(r.vc_lo, 2);
  EXPECT_EQ(r.vc_hi, 4);
  r = rc.route(0, dst, 1, 2);  // at (0,0), arrived in class 1
  EXPECT_EQ(r.port_lo, 0);
  EXPECT_EQ(r.vc_lo, 2);
  EXPECT_EQ(r.vc_hi, 4);
  r = rc.route(1, dst, 1, 3);  // at (1,0): turn into y+, back to class 0
  EXPECT_EQ(r.port_lo, 2);
  EXPECT_EQ(r.vc_lo, 0);
  EXPECT_EQ(r.vc_hi, 2);
  // A packet that arrived in class 0 (did not cross) stays in class 0 in the same dimension.
  r = rc.route(1, 5, 1, 1);
  EXPECT_EQ(r.port_lo, 0);
  EXPECT_EQ(r.vc_lo, 0);
  EXPECT_EQ(r.vc_hi, 2);
}

// ---------------------------------------------------------------- hypercubes

void check_hypercube(int dims, EcubeOrder order) {
  SCOPED_TRACE(::testing::Message()
               << "hypercube " << dims << " "
               << (order == EcubeOrder::kHighToLow ? "high_to_low" : "low_to_high"));
  const Topology topo = make_hypercube(dims);
  const PortLayout layout = one_port(topo);
  const int vcs = 2;
  const RouteCompute rc(topo, ecube(order), layout, vcs);
  EXPECT_EQ(rc.injection_vc_hi(), vcs);
  std::mt19937_64 rng(3);
  const int n = topo.nodes();
  for (int s = 0; s < n; ++s) {
    for (int d = 0; d < n; ++d) {
      const NodeId src = static_cast<NodeId>(s);
      const NodeId dst = static_cast<NodeId>(d);
      const unsigned diff = static_cast<unsigned>(s ^ d);
      // Expected bit order: the differing bits, highest first or lowest first.
      std::vector<int> bits;
      for (int b = 0; b < dims; ++b)
        if ((diff >> b) & 1u) bits.push_back(b);
      if (order == EcubeOrder::kHighToLow) std::reverse(bits.begin(), bits.end());
      EXPECT_EQ(rc.first_hop_port(src, dst), bits.empty() ? -1 : bits[0]);
      RouteResult eject;
      int last_in = -1;
      const std::vector<Hop> hops = walk(topo, rc, layout, src, dst, rng, eject, last_in);
      ASSERT_EQ(static_cast<int>(hops.size()), popcount(diff)) << s << " -> " << d;
      NodeId here = src;
      for (std::size_t i = 0; i < hops.size(); ++i) {
        EXPECT_EQ(hops[i].at, here);
        EXPECT_EQ(hops[i].port, bits[i]) << s << " -> " << d << " hop " << i;
        EXPECT_EQ(hops[i].result.vc_lo, 0);
        EXPECT_EQ(hops[i].result.vc_hi, vcs);
        here ^= NodeId{1} << bits[i];
      }
      EXPECT_EQ(eject.port_lo, layout.network);
      EXPECT_EQ(eject.port_hi, layout.network + 1);
    }
  }
}

TEST(RouteComputeHypercube, HighToLow) {
  for (int dims = 1; dims <= 5; ++dims) check_hypercube(dims, EcubeOrder::kHighToLow);
}
TEST(RouteComputeHypercube, LowToHigh) {
  for (int dims = 1; dims <= 5; ++dims) check_hypercube(dims, EcubeOrder::kLowToHigh);
}

TEST(RouteComputeHypercube, DatelineFlagIgnored) {
  const Topology topo = make_hypercube(3);
  RoutingConfig r = ecube(EcubeOrder::kHighToLow);
  r.dateline = true;
  const RouteCompute rc(topo, r, one_port(topo), 4);
  EXPECT_EQ(rc.injection_vc_hi(), 4);
  const RouteResult res = rc.route(0, 7, 3, 0);
  EXPECT_EQ(res.port_lo, 2);
  EXPECT_EQ(res.vc_lo, 0);
  EXPECT_EQ(res.vc_hi, 4);
}

// ---------------------------------------------------------------- ejection / port models

TEST(RouteComputeEjection, OnePort) {
  const Topology topo = make_grid(TopologyKind::kMesh, {4, 4});
  const PortLayout layout = PortLayout::make(PortModel::kOnePort, topo.network_ports(), 1);
  ASSERT_EQ(layout.network, 4);
  const RouteCompute rc(topo, dor({0, 1}), layout, 2);
  for (int in_port = 0; in_port < layout.inputs(); ++in_port) {
    const RouteResult r = rc.route(5, 5, in_port, 1);
    EXPECT_EQ(r.port_lo, 4);
    EXPECT_EQ(r.port_hi, 5);
    EXPECT_EQ(r.vc_lo, 0);
    EXPECT_EQ(r.vc_hi, 2);
  }
}

TEST(RouteComputeEjection, KPort) {
  const Topology topo = make_grid(TopologyKind::kMesh, {4, 4});
  const PortLayout layout = PortLayout::make(PortModel::kKPort, topo.network_ports(), 2);
  ASSERT_EQ(layout.ejection, 2);
  const RouteCompute rc(topo, dor({0, 1}), layout, 2);
  for (int in_port = 0; in_port < layout.inputs(); ++in_port) {
    const RouteResult r = rc.route(9, 9, in_port, 0);
    EXPECT_EQ(r.port_lo, 4);
    EXPECT_EQ(r.port_hi, 6);
    EXPECT_EQ(r.vc_lo, 0);
    EXPECT_EQ(r.vc_hi, 2);
  }
}

TEST(RouteComputeEjection, AllPortUsesArrivalChannel) {
  const Topology topo = make_grid(TopologyKind::kMesh, {4, 4});
  const PortLayout layout = PortLayout::make(PortModel::kAllPort, topo.network_ports(), 1);
  ASSERT_EQ(layout.ejection, 4);
  ASSERT_EQ(layout.injection, 4);
  const RouteCompute rc(topo, dor({0, 1}), layout, 2);
  for (int in_port = 0; in_port < layout.network; ++in_port) {
    const RouteResult r = rc.route(9, 9, in_port, 0);
    EXPECT_EQ(r.port_lo, layout.network + in_port);
    EXPECT_EQ(r.port_hi, layout.network + in_port + 1);
  }
}

// All-port walks on a mesh and a torus: the ejection channel at the destination is the
// one of the input port the packet arrived on.
TEST(RouteComputeEjection, AllPortWalks) {
  for (TopologyKind kind : {TopologyKind::kMesh, TopologyKind::kTorus}) {
    const std::vector<int> sides{5, 4};
    const Topology topo = make_grid(kind, sides);
    const PortLayout layout = PortLayout::make(PortModel::kAllPort, topo.network_ports(), 1);
    const RouteCompute rc(topo, dor({0, 1}), layout, 4);
    std::mt19937_64 rng(4);
    for (int s = 0; s < topo.nodes(); ++s)
      for (int d = 0; d < topo.nodes(); ++d) {
        if (s == d) continue;
        RouteResult eject;
        int last_in = -1;
        const std::vector<Hop> hops = walk(topo, rc, layout, static_cast<NodeId>(s),
                                           static_cast<NodeId>(d), rng, eject, last_in);
        ASSERT_FALSE(hops.empty());
        // Arrival port = reverse of the last hop's output port, computed from the hop list.
        const int last_port = hops.back().port;
        const int arrival = last_port % 2 == 0 ? last_port + 1 : last_port - 1;
        EXPECT_EQ(last_in, arrival);
        EXPECT_EQ(eject.port_lo, layout.network + arrival) << s << " -> " << d;
        EXPECT_EQ(eject.port_hi, layout.network + arrival + 1);
      }
  }
}

TEST(RouteComputeEjection, KPortWalkOnHypercube) {
  const Topology topo = make_hypercube(4);
  const PortLayout layout = PortLayout::make(PortModel::kKPort, topo.network_ports(), 2);
  const RouteCompute rc(topo, ecube(EcubeOrder::kLowToHigh), layout, 2);
  std::mt19937_64 rng(5);
  for (int s = 0; s < 16; ++s)
    for (int d = 0; d < 16; ++d) {
      RouteResult eject;
      int last_in = -1;
      walk(topo, rc, layout, static_cast<NodeId>(s), static_cast<NodeId>(d), rng, eject, last_in);
      EXPECT_EQ(eject.port_lo, 4);
      EXPECT_EQ(eject.port_hi, 6);
    }
}

// ---------------------------------------------------------------- injection VCs

TEST(RouteComputeInjection, InjectionVcHi) {
  const Topology mesh = make_grid(TopologyKind::kMesh, {4, 4});
  const Topology torus = make_grid(TopologyKind::kTorus, {4, 4});
  const Topology cube = make_hypercube(3);
  EXPECT_EQ(RouteCompute(mesh, dor({}), one_port(mesh), 4).injection_vc_hi(), 4);
  EXPECT_EQ(RouteCompute(mesh, dor({}, true), one_port(mesh), 3).injection_vc_hi(), 3);
  EXPECT_EQ(RouteCompute(torus, dor({}, true), one_port(torus), 4).injection_vc_hi(), 2);
  EXPECT_EQ(RouteCompute(torus, dor({}, true), one_port(torus), 5).injection_vc_hi(),
            3);  // class 0 = ceil(5/2)
  EXPECT_EQ(RouteCompute(torus, dor({}, true), one_port(torus), 2).injection_vc_hi(), 1);
  EXPECT_EQ(RouteCompute(torus, dor({}, false), one_port(torus), 4).injection_vc_hi(), 4);
  EXPECT_EQ(RouteCompute(cube, ecube(EcubeOrder::kHighToLow), one_port(cube), 4).injection_vc_hi(),
            4);
}

// A packet injected on a torus whose first hop is itself a wrap link goes straight into
// class 1 (the injection VC is class 0, the wrap link's VC class 1).
TEST(RouteComputeInjection, FirstHopOverDateline) {
  const Topology topo = make_grid(TopologyKind::kTorus, {8, 8});
  const PortLayout layout = one_port(topo);
  const RouteCompute rc(topo, dor({0, 1}), layout, 4);
  const RouteResult r = rc.route(7, 1, layout.network, 0);  // (7,0) -> (1,0): x+ over wrap
  EXPECT_EQ(r.port_lo, 0);
  EXPECT_EQ(r.vc_lo, 2);
  EXPECT_EQ(r.vc_hi, 4);
  const RouteResult q = rc.route(0, 6, layout.network, 1);  // (0,0) -> (6,0): x- over wrap
  EXPECT_EQ(q.port_lo, 1);
  EXPECT_EQ(q.vc_lo, 2);
  EXPECT_EQ(q.vc_hi, 4);
}

// ---------------------------------------------------------------- reserved VCs

// network.router.multidest_vcs = N: the top N VCs of every range a route may use (all V on a
// mesh; each dateline class on a torus; injection and ejection too) carry multidestination
// worms only, the rest unicast packets only. Expected ranges written out by hand.
struct Range {
  int lo;
  int hi;
};
void expect_vcs(const RouteResult& r, Range want, const char* what) {
  EXPECT_EQ(r.vc_lo, want.lo) << what;
  EXPECT_EQ(r.vc_hi, want.hi) << what;
}

TEST(RouteComputeReservedVcs, MeshSplitsEveryChannel) {
  const Topology topo = make_grid(TopologyKind::kMesh, {4, 4});
  const PortLayout layout = one_port(topo);
  const RouteCompute rc(topo, dor({0, 1}), layout, 4, 1);
  constexpr auto kUni = TrafficClass::kUnicast;
  constexpr auto kMulti = TrafficClass::kMultidest;
  expect_vcs(rc.route(0, 3, layout.network, 0, kUni), {0, 3}, "unicast hop");
  expect_vcs(rc.route(0, 3, layout.network, 3, kMulti), {3, 4}, "worm hop");
  expect_vcs(rc.route(3, 3, 1, 0, kUni), {0, 3}, "unicast ejection");
  expect_vcs(rc.route(3, 3, 1, 3, kMulti), {3, 4}, "worm ejection");
  expect_vcs(rc.ejection(1, kMulti), {3, 4}, "worm ejection");
  expect_vcs(rc.injection_vcs(kUni), {0, 3}, "unicast injection");
  expect_vcs(rc.injection_vcs(kMulti), {3, 4}, "worm injection");
  // N = 0 shares every VC between both classes.
  const RouteCompute shared(topo, dor({0, 1}), layout, 4);
  expect_vcs(shared.route(0, 3, layout.network, 0, kMulti), {0, 4}, "shared worm hop");
  expect_vcs(shared.injection_vcs(kMulti), {0, 4}, "shared worm injection");
  expect_vcs(shared.injection_vcs(kUni), {0, 4}, "shared unicast injection");
}

// The dateline hand example above ((6,0) -> (1,2) on an 8x8 torus) with 5 VCs (class 0 =
// VCs 0-2, class 1 = VCs 3-4) and one reserved VC per class: class 0 unicast 0-1, worms 2;
// class 1 unicast 3, worms 4.
TEST(RouteComputeReservedVcs, TorusReservesInsideEachDatelineClass) {
  const Topology topo = make_grid(TopologyKind::kTorus, {8, 8});
  const PortLayout layout = one_port(topo);
  const RouteCompute rc(topo, dor({0, 1}), layout, 5, 1);
  const NodeId dst = 1 + 8 * 2;
  for (const TrafficClass cls : {TrafficClass::kUnicast, TrafficClass::kMultidest}) {
    const bool worm = cls == TrafficClass::kMultidest;
    const int c0 = worm ? 2 : 0;  // the first VC this class may use in class 0
    const int c1 = worm ? 4 : 3;  // ... in class 1
    expect_vcs(rc.injection_vcs(cls), worm ? Range{2, 3} : Range{0, 2}, "injection");
    expect_vcs(rc.route(6, dst, layout.network, c0, cls), worm ? Range{2, 3} : Range{0, 2},
               "(6,0): class 0");
    expect_vcs(rc.route(7, dst, 1, c0, cls), worm ? Range{4, 5} : Range{3, 4},
               "(7,0): over the wrap, class 1");
    expect_vcs(rc.route(0, dst, 1, c1, cls), worm ? Range{4, 5} : Range{3, 4},
               "(0,0): stays in class 1");
    expect_vcs(rc.route(1, dst, 1, c1, cls), worm ? Range{2, 3} : Range{0, 2},
               "(1,0): turns into y, class 0");
    expect_vcs(rc.ejection(layout.network, cls), worm ? Range{4, 5} : Range{0, 4}, "ejection");
  }
}

}  // namespace
}  // namespace wormsim::route_compute_test
