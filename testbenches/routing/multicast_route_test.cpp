// Multidestination routing helpers (systemc/routing/multicast_route.h): base-routing
// conformance (BRCP), splitting destination sets into conforming paths, random conforming
// paths, Hamiltonian-path labels and routes. Header sizes: core/header_format_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "multicast_route.h"
#include "network_test_util.h"

namespace wormsim::multicast_route_test {
namespace {

struct Fixture {
  explicit Fixture(Config c)
      : config(std::move(c)),
        topology(config.network.topology),
        layout(PortLayout::make(config.network.router.port_model, topology.network_ports(), 1)),
        rc(topology, config.network.routing, layout, config.network.router.vcs) {}
  Config config;
  Topology topology;
  PortLayout layout;
  RouteCompute rc;
};

Config hamiltonian_mesh(int x, int y) {
  Config c = testing::mesh_config({x, y});
  c.network.routing.algorithm = RoutingAlgorithm::kHamiltonian;
  return c;
}

// The minimal path-IR router sheds an address flit at each destination but the last: from
// (0,0) to (2,0), (2,3), (5,3) on XY routes of 2, 3 and 3 hops, a 10-flit worm carries 10, 9
// and 8 flits on its legs: 20 + 27 + 24 = 71 flit-hops, against 80 without stripping.
TEST(StrippedPathFlitHops, EachLegCarriesOneFlitLessThanTheLegBefore) {
  Fixture f(testing::mesh_config({8, 8}));
  auto n = [&](int x, int y) { return f.topology.node_at({x, y}); };
  const std::vector<NodeId> dests{n(2, 0), n(2, 3), n(5, 3)};
  EXPECT_EQ(stripped_path_flit_hops(f.rc, n(0, 0), dests, 10), 71u);
  EXPECT_EQ(multicast_links(f.rc, MultidestMode::kPath, n(0, 0), dests) * 10, 80u);
  EXPECT_EQ(stripped_path_flit_hops(f.rc, n(0, 0), {n(7, 7)}, 4), 4u * 14);
  // Two addresses per header flit: only the second destination strips, 20 + 30 + 27 = 77.
  EXPECT_EQ(stripped_path_flit_hops(f.rc, n(0, 0), dests, 10, 2), 77u);
}

// Buffered header decode (docs/multidestination.md, "Header decode"): a 16x16 mesh has 8-bit
// addresses; in 2-byte flits two fit a flit. A path worm to 7 destinations has 7 x 8 = 56
// bits, 4 header flits (entries 0-1 in the head, 2-3 in flit 1, 4-5 in flit 2, 6
// in flit 3). At its target i a router reads entry i + 1: flit (i + 1) / 2, so it holds
// (i + 1) / 2 + 1 flits; elsewhere, and at the last target, the head alone. A tree worm reads
// its whole list at every router: 4 flits as an address list, 256 bits = 16 flits as a
// bit-string; address flits put entry e in flit e.
TEST(HeaderFlitsRead, PathTargetsReadTheNextEntryTreesTheWholeList) {
  Fixture f(testing::mesh_config({16, 16}));
  auto n = [&](int x, int y) { return f.topology.node_at({x, y}); };
  MulticastTable table;
  const std::vector<NodeId> path{n(1, 0), n(2, 0), n(3, 0), n(4, 0), n(5, 0), n(6, 0), n(7, 0)};
  const std::uint32_t worm = table.add(MultidestMode::kPath, n(0, 0), path, 10);
  const std::uint32_t tree = table.add(MultidestMode::kTree, n(0, 0), path, 10);
  auto route = [&](HeaderDecode d, HeaderEncoding e, PathIr ir = PathIr::kFull) {
    return MulticastRoute(f.topology, f.rc, table, ir, 1, HeaderReading{d, e, 256, 2});
  };
  Flit head;
  head.mcast = worm;
  const MulticastRoute list = route(HeaderDecode::kBuffered, HeaderEncoding::kAddressList);
  for (std::uint16_t i = 0; i < path.size(); ++i) {
    head.mpos = i;
    const int expect = i + 1u < path.size() ? (i + 1) / 2 + 1 : 1;
    EXPECT_EQ(list.header_flits_read(path[i], head), expect) << "target " << i;
    EXPECT_EQ(list.header_flits_read(n(0, 0), head), 1) << "not at target " << i;
  }
  head.mpos = 2;
  EXPECT_EQ(route(HeaderDecode::kBuffered, HeaderEncoding::kAddressFlits)
                .header_flits_read(path[2], head),
            4);
  EXPECT_EQ(
      route(HeaderDecode::kBuffered, HeaderEncoding::kBitString).header_flits_read(path[2], head),
      16);
  Flit at_last = head;
  at_last.mpos = 6;
  EXPECT_EQ(route(HeaderDecode::kBuffered, HeaderEncoding::kBitString)
                .header_flits_read(path[6], at_last),
            1);
  // head_flit, and the minimal router (its head flit holds the current address): the head.
  EXPECT_EQ(
      route(HeaderDecode::kHeadFlit, HeaderEncoding::kBitString).header_flits_read(path[2], head),
      1);
  EXPECT_EQ(route(HeaderDecode::kBuffered, HeaderEncoding::kAddressFlits, PathIr::kMinimal)
                .header_flits_read(path[2], head),
            1);
  Flit tree_head;
  tree_head.mcast = tree;
  for (NodeId at : {n(0, 0), n(3, 0), n(7, 0)}) {
    EXPECT_EQ(list.header_flits_read(at, tree_head), 4) << at;
    EXPECT_EQ(
        route(HeaderDecode::kBuffered, HeaderEncoding::kBitString).header_flits_read(at, tree_head),
        16)
        << at;
  }
}

TEST(Brcp, XyRoutesAcceptOnRouteListsInOrderOnly) {
  Fixture f(testing::mesh_config({8, 8}));
  auto n = [&](int x, int y) { return f.topology.node_at({x, y}); };
  const NodeId src = n(1, 1);
  EXPECT_EQ(brcp_violation(f.rc, src, {n(3, 1), n(5, 1), n(5, 4), n(5, 6)}), "");
  EXPECT_EQ(brcp_violation(f.rc, src, {n(1, 5)}), "");
  EXPECT_NE(brcp_violation(f.rc, src, {n(5, 4), n(3, 1)}), "");  // out of order
  EXPECT_NE(brcp_violation(f.rc, src, {n(3, 2), n(5, 6)}), "");  // (3,2) off the XY route
  EXPECT_NE(brcp_violation(f.rc, src, {n(3, 1), n(3, 1)}), "");  // twice
  EXPECT_NE(brcp_violation(f.rc, src, {src, n(3, 1)}), "");      // the source
  EXPECT_NE(brcp_violation(f.rc, src, {}), "");
  const std::string why = brcp_violation(f.rc, src, {n(3, 2), n(5, 6)});
  EXPECT_NE(why.find("destination 0"), std::string::npos) << why;
}

TEST(Brcp, TorusRoutesTakeTheMinimalDirection) {
  Fixture f(testing::torus_config({8, 8}));
  auto n = [&](int x, int y) { return f.topology.node_at({x, y}); };
  // From (1,0) to (6,0) the minimal way is through the wrap: 0, 7, 6.
  EXPECT_EQ(brcp_violation(f.rc, n(1, 0), {n(0, 0), n(7, 0), n(6, 0)}), "");
  EXPECT_NE(brcp_violation(f.rc, n(1, 0), {n(3, 0), n(6, 0)}), "");
}

TEST(Brcp, HamiltonianListsMustBeMonotoneInLabel) {
  Fixture f(hamiltonian_mesh(4, 4));
  auto n = [&](int x, int y) { return f.topology.node_at({x, y}); };
  // Boustrophedon labels: row 0 left to right, row 1 right to left.
  EXPECT_EQ(f.rc.label(n(0, 0)), 0);
  EXPECT_EQ(f.rc.label(n(3, 0)), 3);
  EXPECT_EQ(f.rc.label(n(3, 1)), 4);
  EXPECT_EQ(f.rc.label(n(0, 1)), 7);
  EXPECT_EQ(f.rc.label(n(0, 2)), 8);
  EXPECT_EQ(brcp_violation(f.rc, n(1, 0), {n(3, 0), n(0, 1), n(2, 3)}), "");
  EXPECT_EQ(brcp_violation(f.rc, n(2, 3), {n(0, 2), n(0, 0)}), "");
  EXPECT_NE(brcp_violation(f.rc, n(1, 0), {n(0, 1), n(3, 0)}), "");
  EXPECT_NE(brcp_violation(f.rc, n(1, 1), {n(0, 0), n(3, 3)}), "");  // low then high
}

TEST(HamiltonianRouting, EveryRouteFollowsTheLabelsMonotonically) {
  Fixture f(hamiltonian_mesh(5, 4));
  const int nodes = f.topology.nodes();
  for (NodeId s = 0; s < static_cast<NodeId>(nodes); ++s)
    for (NodeId d = 0; d < static_cast<NodeId>(nodes); ++d) {
      if (s == d) continue;
      const bool up = f.rc.label(d) > f.rc.label(s);
      int hops = 0;
      for (NodeId n = s; n != d; ++hops) {
        const NodeId next = f.rc.next_node(n, d);
        ASSERT_NE(next, kNoNode);
        EXPECT_TRUE(up ? f.rc.label(next) > f.rc.label(n) : f.rc.label(next) < f.rc.label(n));
        EXPECT_TRUE(up ? f.rc.label(next) <= f.rc.label(d) : f.rc.label(next) >= f.rc.label(d));
        n = next;
      }
      EXPECT_EQ(hops, f.rc.route_hops(s, d));
      EXPECT_GE(hops, f.topology.distance(s, d));
    }
}

void expect_partition(const Fixture& f, NodeId src, const std::vector<NodeId>& dests,
                      const std::vector<std::vector<NodeId>>& paths) {
  std::multiset<NodeId> covered;
  for (const auto& p : paths) {
    EXPECT_EQ(brcp_violation(f.rc, src, p), "");
    covered.insert(p.begin(), p.end());
  }
  std::set<NodeId> wanted(dests.begin(), dests.end());
  wanted.erase(src);
  EXPECT_EQ(std::multiset<NodeId>(wanted.begin(), wanted.end()), covered);
}

TEST(SplitIntoPaths, RandomSetsBecomeConformingPathsCoveringEachDestinationOnce) {
  std::mt19937_64 rng(7);
  for (const Config& c : {testing::mesh_config({8, 8}), testing::torus_config({6, 5}),
                          testing::hypercube_config(5), hamiltonian_mesh(8, 8)}) {
    Fixture f(c);
    const int nodes = f.topology.nodes();
    for (int trial = 0; trial < 50; ++trial) {
      const NodeId src = static_cast<NodeId>(rng() % static_cast<unsigned>(nodes));
      std::vector<NodeId> dests;
      const int m = 1 + static_cast<int>(rng() % static_cast<unsigned>(nodes - 1));
      for (int i = 0; i < m; ++i)
        dests.push_back(static_cast<NodeId>(rng() % static_cast<unsigned>(nodes)));
      const auto paths = split_into_paths(f.rc, f.topology, src, dests);
      expect_partition(f, src, dests, paths);
      if (f.rc.hamiltonian()) {
        EXPECT_LE(paths.size(), 2u);  // dual-path: high and low chains
      }
    }
  }
}

TEST(SplitIntoPaths, XyBroadcastNeedsOnePathPerColumnSegment) {
  Fixture f(testing::mesh_config({4, 4}));
  std::vector<NodeId> all;
  for (NodeId n = 0; n < 16; ++n) all.push_back(n);
  const NodeId src = f.topology.node_at({1, 1});
  const auto paths = split_into_paths(f.rc, f.topology, src, all);
  expect_partition(f, src, all, paths);
  // Under XY a path turns at most once, so it ends in at most one column half (the nodes
  // above or below row 1 in one column); the row's nodes ride along. From (1,1) on 4x4 there
  // are 8 column halves (columns 0..3, above and below), so 8 paths is the minimum.
  EXPECT_EQ(paths.size(), 8u);
}

TEST(RandomBrcpPath, ConformsAndHasTheRequestedLengthWhenTheRouteAllows) {
  std::mt19937_64 rng(3);
  for (const Config& c :
       {testing::mesh_config({8, 8}), testing::torus_config({8, 8}), hamiltonian_mesh(8, 8)}) {
    Fixture f(c);
    for (int trial = 0; trial < 200; ++trial) {
      const NodeId src = static_cast<NodeId>(rng() % 64);
      const int m = 1 + static_cast<int>(rng() % 6);
      const std::vector<NodeId> p = random_brcp_path(f.rc, f.topology, src, m, rng);
      EXPECT_EQ(brcp_violation(f.rc, src, p), "");
      EXPECT_LE(static_cast<int>(p.size()), m);
      EXPECT_GE(p.size(), 1u);
    }
  }
}

}  // namespace
}  // namespace wormsim::multicast_route_test
