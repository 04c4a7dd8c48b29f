// Lock-step equivalence of the RTL router (rtl/wormsim_router.sv, Verilated, behind
// systemc/cosim/rtl_router.h) and the C++ router (systemc/router/router.cpp), DESIGN.md section 10 and
// docs/rtl.md: the same workload through a network of C++ routers and a network of RTL routers
// (or a mixed one), elaborated side by side, must give identical per-flit events (cycle,
// router, output port, VC, packet id, flit index), checked cycle by cycle while they run
// (systemc/cosim/lockstep_checker.h). The checker is shown to catch a difference once: C++ routers
// against RTL routers one pipeline stage deeper are reported at the first differing cycle,
// with both sides' router state.
#include <gtest/gtest.h>

#include <systemc>

#include "collective_harness.h"
#include "config.h"
#include "flit_event_log.h"
#include "header_format.h"
#include "lockstep_checker.h"
#include "rtl_limits.h"
#include "rtl_router_factory.h"
#include "synthetic_network.h"
#include "topology.h"
#include "network_test_util.h"
#include "rtl_router.h"

namespace wormsim {
namespace {

// Uniform random traffic at a load that keeps VCs and switches contended.
Config loaded(Config c, double rate = 0.25) {
  c.traffic.injection_rate = rate;
  c.traffic.packet_length = 5;
  c.traffic.seed = 7;
  c.simulation.warmup_cycles = 100;
  c.simulation.measure_cycles = 1200;
  return c;
}

Config as_rtl(Config c, std::vector<NodeId> nodes = {}) {
  c.network.router.implementation = RouterImplementation::kRtl;
  c.network.router.rtl_nodes = std::move(nodes);
  return c;
}

struct PairRun {
  FlitLogComparison comparison;
  std::size_t events = 0;
  std::uint64_t delivered_a = 0;
  std::uint64_t replicated_a = 0;  // flit copies made by replicating routers
  std::uint64_t replicated_b = 0;
  std::uint64_t stripped_a = 0;  // address flits stripped (minimal path-IR router)
  std::uint64_t stripped_b = 0;
};

// Options of a network whose config may ask for RTL routers (each network its own factory and
// Verilator context).
NetworkOptions rtl_capable() {
  NetworkOptions o;
  o.quiet = true;
  o.router_factory = std::make_shared<RtlRouterFactory>();
  return o;
}

// Runs `a` and `b` in one elaboration with synthetic traffic, compared in lock-step.
PairRun run_pair(const Config& a, const Config& b, const std::string& a_name = "network a",
                 const std::string& b_name = "network b") {
  SyntheticNetwork net_a("a", a, rtl_capable());
  SyntheticNetwork net_b("b", b, rtl_capable());
  LockstepChecker checker("lockstep", net_a, net_b, a_name, b_name);
  sc_core::sc_start();
  EXPECT_EQ(net_a.outcome(), RunOutcome::kCompleted);
  EXPECT_EQ(net_b.outcome(), RunOutcome::kCompleted);
  EXPECT_EQ(net_a.scoreboard().violation_count(), 0u);
  EXPECT_EQ(net_b.scoreboard().violation_count(), 0u);
  PairRun r;
  r.comparison = checker.finish();
  r.events = checker.events_a();
  r.delivered_a = net_a.stats().flits_ejected();
  r.replicated_a = net_a.stats().flits_replicated();
  r.replicated_b = net_b.stats().flits_replicated();
  r.stripped_a = net_a.stats().flits_stripped();
  r.stripped_b = net_b.stats().flits_stripped();
  return r;
}

void expect_equivalent(const Config& systemc, const Config& rtl) {
  const PairRun r = run_pair(systemc, rtl, "systemc", "rtl");
  // A run too light to exercise the routers would make the comparison vacuous.
  EXPECT_GT(r.events, 5000u);
  EXPECT_EQ(r.comparison.mismatches, 0u) << r.comparison.first_mismatch;
  EXPECT_EQ(r.replicated_a, r.replicated_b);
  // Multidestination runs must replicate (absorb-and-forward counts as one copy more).
  if (systemc.network.router.multidest != MultidestMode::kNone) {
    EXPECT_GT(r.replicated_b, 500u);
  }
  // The minimal path-IR router strips an address flit at every destination but a worm's last.
  EXPECT_EQ(r.stripped_a, r.stripped_b);
  if (systemc.network.router.path_ir == PathIr::kMinimal) {
    EXPECT_GT(r.stripped_b, 300u);
  }
  std::cout << r.events << " flit events, " << r.replicated_b << " replicated flits, "
            << r.stripped_b << " stripped address flits\n";
}

TEST(RtlEquivalence, Mesh4x4OnePort) {
  Config c = loaded(testing::mesh_config({4, 4}));
  c.network.router.port_model = PortModel::kOnePort;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, Mesh4x4AllPort) {
  Config c = loaded(testing::mesh_config({4, 4}), 0.4);
  c.network.router.port_model = PortModel::kAllPort;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, Mesh8x8OnePort) {
  Config c = loaded(testing::mesh_config({8, 8}), 0.2);
  c.network.router.port_model = PortModel::kOnePort;
  c.simulation.measure_cycles = 600;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, Mesh8x8AllPortYxOrder) {
  Config c = loaded(testing::mesh_config({8, 8}), 0.3);
  c.network.router.port_model = PortModel::kAllPort;
  c.network.routing.order = {1, 0};
  c.simulation.measure_cycles = 600;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, Torus4x4DatelineClasses) {
  Config c = loaded(testing::torus_config({4, 4}), 0.35);
  c.network.router.port_model = PortModel::kOnePort;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, Torus4x4AllPortDatelineClasses) {
  Config c = loaded(testing::torus_config({4, 4}), 0.35);
  c.network.router.port_model = PortModel::kAllPort;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, Torus5x3AllPortThreeVcs) {
  Config c = loaded(testing::torus_config({5, 3}), 0.35);
  c.network.router.port_model = PortModel::kAllPort;
  c.network.router.vcs = 3;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, Hypercube4HighToLowAllPort) {
  Config c = loaded(testing::hypercube_config(4), 0.35);
  c.network.router.port_model = PortModel::kAllPort;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, Hypercube4LowToHighOnePort) {
  Config c = loaded(testing::hypercube_config(4), 0.3);
  c.network.routing.ecube_order = EcubeOrder::kLowToHigh;
  c.network.router.port_model = PortModel::kOnePort;
  expect_equivalent(c, as_rtl(c));
}

// Fewer than 4 network ports: the C++ router numbers its NI channels from 2 or 3, the RTL
// from 4 (docs/rtl.md), so these exercise the port mapping of the cosimulation.
TEST(RtlEquivalence, Ring7AllPortTwoPipelineStages) {
  Config c = loaded(testing::torus_config({7}), 0.3);
  c.network.router.port_model = PortModel::kAllPort;
  c.network.router.pipeline_depth = 2;
  c.simulation.measure_cycles = 2000;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, Line6OnePortTwoConsumptionChannels) {
  Config c = loaded(testing::mesh_config({6}), 0.25);
  c.network.router.port_model = PortModel::kOnePort;
  c.network.router.consumption_channels = 2;
  c.simulation.measure_cycles = 2500;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, Hypercube3KPortOutputFirst) {
  Config c = loaded(testing::hypercube_config(3), 0.35);
  c.network.router.port_model = PortModel::kKPort;
  c.network.router.ports = 2;
  c.network.router.allocator = AllocatorKind::kSeparableOutputFirst;
  c.simulation.measure_cycles = 2000;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, Torus4x4WithoutDatelinesTwoVcs) {
  Config c = loaded(testing::torus_config({4, 4}), 0.08);
  c.network.routing.dateline = false;
  c.network.router.vcs = 2;
  c.simulation.measure_cycles = 4000;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, Mesh4x4PipelinedOutputFirstShallowBuffers) {
  Config c = loaded(testing::mesh_config({4, 4}), 0.3);
  c.network.router.pipeline_depth = 3;
  c.network.router.link_latency = 2;
  c.network.router.credit_latency = 2;
  c.network.router.buffer_depth = 2;
  c.network.router.vcs = 2;
  c.network.router.allocator = AllocatorKind::kSeparableOutputFirst;
  c.network.router.port_model = PortModel::kKPort;
  c.network.router.ports = 2;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, Mesh4x4HamiltonianRoutingOneVcDeepBuffers) {
  Config c = loaded(testing::mesh_config({4, 4}), 0.2);
  c.network.routing.algorithm = RoutingAlgorithm::kHamiltonian;
  c.network.router.vcs = 1;
  c.network.router.buffer_depth = 8;
  c.network.router.pipeline_depth = 4;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, MixedNetworkEqualsAllSystemc) {
  Config c = loaded(testing::mesh_config({4, 4}), 0.3);
  c.network.router.port_model = PortModel::kOnePort;
  expect_equivalent(c, as_rtl(c, {0, 5, 6, 9, 15}));
}

TEST(RtlEquivalence, MixedNetworkEqualsAllRtl) {
  Config c = loaded(testing::mesh_config({4, 4}), 0.3);
  c.network.router.port_model = PortModel::kOnePort;
  const PairRun r = run_pair(as_rtl(c, {0, 5, 6, 9, 15}), as_rtl(c), "mixed", "rtl");
  EXPECT_GT(r.events, 5000u);
  EXPECT_EQ(r.comparison.mismatches, 0u) << r.comparison.first_mismatch;
}

TEST(RtlEquivalence, ConsumptionChannelsAndHotspot) {
  Config c = loaded(testing::mesh_config({4, 4}), 0.3);
  c.network.router.port_model = PortModel::kAllPort;
  c.network.router.consumption_channels = 2;
  c.traffic.pattern = TrafficPattern::kHotspot;
  expect_equivalent(c, as_rtl(c));
}

// Multidestination worms (docs/multidestination.md): a share of the packets are path worms
// absorbed and forwarded at their destinations, or tree worms replicated at the branch
// points of the dimension-ordered tree; both replication handshakes.
Config multidest(Config c, MultidestMode mode, Replication replication, double rate,
                 int destinations = 4) {
  c = loaded(std::move(c), rate);
  c.network.router.multidest = mode;
  c.network.router.replication = replication;
  c.traffic.multicast_fraction = 0.3;
  c.traffic.multicast_destinations = destinations;
  return c;
}

TEST(RtlEquivalence, Mesh4x4PathWormsAsynchronousOnePort) {
  Config c = multidest(testing::mesh_config({4, 4}), MultidestMode::kPath,
                       Replication::kAsynchronous, 0.12);
  c.network.router.port_model = PortModel::kOnePort;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, Mesh4x4PathWormsSynchronousAllPortShallowBuffers) {
  Config c = multidest(testing::mesh_config({4, 4}), MultidestMode::kPath,
                       Replication::kSynchronous, 0.12);
  c.network.router.port_model = PortModel::kAllPort;
  c.network.router.buffer_depth = 2;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, Mesh4x4TreeWormsAsynchronousAllPort) {
  Config c = multidest(testing::mesh_config({4, 4}), MultidestMode::kTree,
                       Replication::kAsynchronous, 0.1, 6);
  c.network.router.port_model = PortModel::kAllPort;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, Mesh4x4TreeWormsSynchronousOnePortPipelined) {
  Config c = multidest(testing::mesh_config({4, 4}), MultidestMode::kTree,
                       Replication::kSynchronous, 0.08, 6);
  c.network.router.port_model = PortModel::kOnePort;
  c.network.router.pipeline_depth = 2;
  expect_equivalent(c, as_rtl(c));
}

// One elaboration per process (gtest_discover_tests), so one pair of networks per TEST.
TEST(RtlEquivalence, Mesh8x8TreeWorms) {
  Config c = multidest(testing::mesh_config({8, 8}), MultidestMode::kTree,
                       Replication::kAsynchronous, 0.05, 8);
  c.simulation.measure_cycles = 500;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, Mesh8x8PathWormsAllPort) {
  Config c = multidest(testing::mesh_config({8, 8}), MultidestMode::kPath,
                       Replication::kAsynchronous, 0.08, 8);
  c.network.router.port_model = PortModel::kAllPort;
  c.simulation.measure_cycles = 500;
  expect_equivalent(c, as_rtl(c));
}

// Destination lists in the head flit's data bits (docs/rtl.md, "Destination lists in header
// flits"; these fit the head flit, the RtlHeaderFlits cases below do not): 8-bit addresses on a 16x16
// mesh (eight fill the 64 bits; the side field of earlier RTL named at most 255 nodes), a
// tree bit-string in 4-byte flits, and 4-bit addresses in 2-byte flits (four per head flit).
TEST(RtlEquivalence, Mesh16x16PathWormsEightDestinationsMixedNetwork) {
  Config c = multidest(testing::mesh_config({16, 16}), MultidestMode::kPath,
                       Replication::kAsynchronous, 0.06, 8);
  c.simulation.measure_cycles = 500;
  expect_equivalent(
      c, as_rtl(c, {17, 18, 33, 34, 51, 68, 85, 102, 119, 120, 136, 153, 170, 187, 204, 221, 238}));
}

TEST(RtlEquivalence, Mesh4x4TreeWormsBitStringFourByteFlits) {
  Config c = multidest(testing::mesh_config({4, 4}), MultidestMode::kTree,
                       Replication::kSynchronous, 0.1, 6);
  c.network.router.header_encoding = HeaderEncoding::kBitString;
  c.network.flit_bytes = 4;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, Mesh4x4PathWormsTwoByteFlitsFourDestinations) {
  Config c = multidest(testing::mesh_config({4, 4}), MultidestMode::kPath,
                       Replication::kAsynchronous, 0.12, 4);
  c.network.flit_bytes = 2;
  c.network.router.port_model = PortModel::kAllPort;
  expect_equivalent(c, as_rtl(c));
}

// header_decode buffered (docs/multidestination.md, "Header decode") on lists of one header
// flit, the only ones the RTL takes: the C++ router reads no flit beyond the head, like the
// RTL, so the run is accepted and stays lock-step equal.
TEST(RtlEquivalence, Mesh4x4TreeWormsBufferedHeaderDecode) {
  Config c = multidest(testing::mesh_config({4, 4}), MultidestMode::kTree,
                       Replication::kAsynchronous, 0.1, 6);
  c.network.router.header_decode = HeaderDecode::kBuffered;
  c.network.flit_bytes = 2;  // the 16-node bit-string fills the head flit
  c.network.router.header_encoding = HeaderEncoding::kBitString;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, Torus4x4TreeWormsDatelineClasses) {
  Config c = multidest(testing::torus_config({4, 4}), MultidestMode::kTree,
                       Replication::kAsynchronous, 0.1);
  c.network.router.port_model = PortModel::kOnePort;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, Torus4x4PathWormsSynchronous) {
  Config c = multidest(testing::torus_config({4, 4}), MultidestMode::kPath,
                       Replication::kSynchronous, 0.1);
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, Hypercube4TreeWormsHighToLow) {
  Config c =
      multidest(testing::hypercube_config(4), MultidestMode::kTree, Replication::kSynchronous, 0.1);
  c.network.router.port_model = PortModel::kAllPort;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, Hypercube4PathWormsLowToHigh) {
  Config c = multidest(testing::hypercube_config(4), MultidestMode::kPath,
                       Replication::kAsynchronous, 0.1);
  c.network.routing.ecube_order = EcubeOrder::kLowToHigh;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, Mesh4x4HamiltonianPathWormsMixedNetwork) {
  Config c = multidest(testing::mesh_config({4, 4}), MultidestMode::kPath,
                       Replication::kAsynchronous, 0.1, 6);
  c.network.routing.algorithm = RoutingAlgorithm::kHamiltonian;
  c.network.router.vcs = 1;
  c.network.router.buffer_depth = 4;
  expect_equivalent(c, as_rtl(c, {1, 2, 5, 6, 9, 10}));
}

// More than 4 network ports: the wide RTL build (rtl::kWidePorts network ports and NI
// channels; docs/rtl.md). 3D meshes and tori, 5- to 7-cubes, unicast and multidestination.
TEST(RtlEquivalence, Mesh3x3x3OnePortWideBuild) {
  Config c = loaded(testing::mesh_config({3, 3, 3}), 0.25);
  c.network.router.port_model = PortModel::kOnePort;
  c.simulation.measure_cycles = 800;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, Torus3x4x3AllPortDatelineClassesZyxOrder) {
  Config c = loaded(testing::torus_config({3, 4, 3}), 0.35);
  c.network.router.port_model = PortModel::kAllPort;
  c.network.router.vcs = 4;
  c.network.routing.order = {2, 1, 0};
  c.simulation.measure_cycles = 600;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, Hypercube5OutputFirstThreeConsumptionChannels) {
  Config c = loaded(testing::hypercube_config(5), 0.3);
  c.network.router.allocator = AllocatorKind::kSeparableOutputFirst;
  c.network.router.consumption_channels = 3;
  c.simulation.measure_cycles = 800;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, Hypercube7LowToHighAllPort) {
  Config c = loaded(testing::hypercube_config(7), 0.3);
  c.network.router.port_model = PortModel::kAllPort;
  c.network.routing.ecube_order = EcubeOrder::kLowToHigh;
  c.simulation.warmup_cycles = 50;
  c.simulation.measure_cycles = 150;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, Mesh3x3x3MixedNetworkWideAndCppRouters) {
  Config c = loaded(testing::mesh_config({3, 3, 3}), 0.25);
  c.network.router.port_model = PortModel::kAllPort;
  c.simulation.measure_cycles = 600;
  expect_equivalent(c, as_rtl(c, {0, 4, 13, 14, 22, 26}));
}

TEST(RtlEquivalence, Mesh3x3x3TreeWormsAsynchronousAllPort) {
  Config c = multidest(testing::mesh_config({3, 3, 3}), MultidestMode::kTree,
                       Replication::kAsynchronous, 0.08, 6);
  c.network.router.port_model = PortModel::kAllPort;
  c.simulation.measure_cycles = 800;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, Torus3x3x3PathWormsSynchronous) {
  Config c = multidest(testing::torus_config({3, 3, 3}), MultidestMode::kPath,
                       Replication::kSynchronous, 0.1, 6);
  c.simulation.measure_cycles = 800;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, Hypercube6TreeWormsSynchronousHighToLow) {
  Config c = multidest(testing::hypercube_config(6), MultidestMode::kTree,
                       Replication::kSynchronous, 0.06, 8);
  c.simulation.measure_cycles = 500;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, Hypercube5PathWormsAsynchronousKPort) {
  Config c = multidest(testing::hypercube_config(5), MultidestMode::kPath,
                       Replication::kAsynchronous, 0.1, 6);
  c.network.router.port_model = PortModel::kKPort;
  c.network.router.ports = 3;
  c.simulation.measure_cycles = 800;
  expect_equivalent(c, as_rtl(c));
}

// 8- to 16-cubes: the cube builds (rtl::kCubePorts network ports, no multidestination hardware;
// docs/rtl.md): one-port routers on Vwormsim_router_cube1 (one injection and one ejection
// channel), the others on Vwormsim_router_cube (as many channels as network ports). 256 RTL
// routers simulate about a hundred cycles per second (docs/performance.md), so these runs are
// short; the load keeps them contended.
TEST(RtlEquivalence, Hypercube8OnePortCubeBuild) {
  Config c = loaded(testing::hypercube_config(8), 0.3);
  c.network.router.port_model = PortModel::kOnePort;
  c.simulation.warmup_cycles = 20;
  c.simulation.measure_cycles = 40;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, Hypercube8AllPortLowToHighOutputFirstCubeBuild) {
  Config c = loaded(testing::hypercube_config(8), 0.4);
  c.network.router.port_model = PortModel::kAllPort;
  c.network.router.allocator = AllocatorKind::kSeparableOutputFirst;
  c.network.routing.ecube_order = EcubeOrder::kLowToHigh;
  c.network.router.vcs = 2;
  c.simulation.warmup_cycles = 20;
  c.simulation.measure_cycles = 40;
  expect_equivalent(c, as_rtl(c));
}

// A 10-cube of C++ routers with a few cube-build RTL routers among them (neighbours, so
// worms cross from RTL to RTL router too), k-port with consumption channels.
TEST(RtlEquivalence, Hypercube10MixedNetworkCubeBuildKPort) {
  Config c = loaded(testing::hypercube_config(10), 0.2);
  c.network.router.port_model = PortModel::kKPort;
  c.network.router.ports = 3;
  c.network.router.consumption_channels = 2;
  c.simulation.warmup_cycles = 30;
  c.simulation.measure_cycles = 120;
  expect_equivalent(c, as_rtl(c, {0, 1, 3, 7, 15, 511, 1023, 640, 641}));
}

// A deadlock-prone torus (one VC, no dateline classes, heavy load): the RTL network deadlocks
// in the same cycle with the same flit history as the C++ one, and the deadlock report built
// from the RTL routers' mirrored state finds a wait-for cycle.
TEST(RtlEquivalence, DeadlockIsTheSameAndReportedWithAWaitForCycle) {
  Config c = testing::deadlock_prone_torus();
  c.simulation.measure_cycles = 3000;
  SyntheticNetwork cpp("a", c, rtl_capable());
  SyntheticNetwork rtl("b", as_rtl(c), rtl_capable());
  LockstepChecker checker("lockstep", cpp, rtl, "systemc", "rtl");
  sc_core::sc_start();
  ASSERT_EQ(cpp.outcome(), RunOutcome::kDeadlock);
  ASSERT_EQ(rtl.outcome(), RunOutcome::kDeadlock);
  EXPECT_EQ(cpp.cycles(), rtl.cycles());
  const FlitLogComparison& cmp = checker.finish();
  EXPECT_GT(checker.events_a(), 100u);
  EXPECT_EQ(cmp.mismatches, 0u) << cmp.first_mismatch;
  ASSERT_TRUE(rtl.deadlock().has_value());
  EXPECT_FALSE(rtl.deadlock()->cycle.empty()) << rtl.deadlock()->text();
  EXPECT_EQ(rtl.deadlock()->cycle.size(), cpp.deadlock()->cycle.size());
  EXPECT_EQ(rtl.deadlock()->text(), cpp.deadlock()->text());
}

// The checker reports a difference: C++ routers against RTL routers with one more pipeline
// stage (a changed RTL, as far as the comparison can tell), at the first differing cycle and
// with both sides' state of the routers involved.
TEST(RtlEquivalence, OneMorePipelineStageIsReportedAsAMismatch) {
  Config c = loaded(testing::mesh_config({4, 4}), 0.2);
  Config deeper = c;
  deeper.network.router.pipeline_depth = 2;
  const PairRun r = run_pair(c, as_rtl(deeper), "systemc", "rtl");
  ASSERT_GT(r.comparison.mismatches, 0u);
  const std::string& s = r.comparison.first_mismatch;
  EXPECT_NE(s.find("first differing cycle " + std::to_string(r.comparison.first_cycle)),
            std::string::npos)
      << s;
  // The deeper pipeline sends nothing in the first cycle the C++ routers send a flit.
  EXPECT_NE(s.find("only in rtl (0 events)"), std::string::npos) << s;
  const std::size_t cpp_state = s.find("state of systemc after cycle");
  const std::size_t rtl_state = s.find("state of rtl after cycle");
  ASSERT_NE(cpp_state, std::string::npos) << s;
  ASSERT_NE(rtl_state, std::string::npos) << s;
  EXPECT_NE(s.find("(systemc,", cpp_state), std::string::npos) << s;
  EXPECT_NE(s.find("(rtl,", rtl_state), std::string::npos) << s;
  std::cout << s;
}

// Node firmware (collective operations) through both router models: identical logs and
// identical operation latencies.
void expect_equivalent_collectives(const Config& c) {
  NetworkOptions options;
  options.quiet = true;
  CollectiveHarness a("a", c, options);
  CollectiveHarness b("b", as_rtl(c), options);
  LockstepChecker checker("lockstep", a.network(), b.network(), "systemc", "rtl");
  sc_core::sc_start();
  a.finish();
  b.finish();
  ASSERT_TRUE(a.all_operations_run());
  ASSERT_TRUE(b.all_operations_run());
  EXPECT_EQ(a.verification_errors(), 0u);
  EXPECT_EQ(b.verification_errors(), 0u);
  const FlitLogComparison& cmp = checker.finish();
  EXPECT_GT(checker.events_a(), 1000u);
  EXPECT_EQ(cmp.mismatches, 0u) << cmp.first_mismatch;
  EXPECT_EQ(a.network().stats().flits_replicated(), b.network().stats().flits_replicated());
  ASSERT_EQ(a.results().size(), b.results().size());
  for (std::size_t i = 0; i < a.results().size(); ++i) {
    EXPECT_EQ(a.results()[i].end, b.results()[i].end) << i;
    EXPECT_EQ(a.results()[i].max_latency, b.results()[i].max_latency) << i;
  }
}

Config collective_config(std::vector<CollectiveAlgorithm> algorithms) {
  Config c = testing::mesh_config({4, 4});
  c.workload = Workload::kCollective;
  c.collective.roots = RootSelection::kSample;
  c.collective.sample = 3;
  c.collective.message_bytes = {32, 512};
  c.collective.algorithms = std::move(algorithms);
  c.node.alpha_cycles = 20;
  c.node.gamma_cycles = 5;
  return c;
}

TEST(RtlEquivalence, CollectiveFirmwareMesh4x4) {
  expect_equivalent_collectives(collective_config({CollectiveAlgorithm::kEdnBroadcast,
                                                   CollectiveAlgorithm::kRecursiveDoubling,
                                                   CollectiveAlgorithm::kScatterBinomial}));
}

// Multicast firmware sending path worms (absorbed and forwarded at each destination).
TEST(RtlEquivalence, CollectiveFirmwarePathWormsMesh4x4) {
  Config c = collective_config({CollectiveAlgorithm::kPathMulticast});
  c.network.router.multidest = MultidestMode::kPath;
  c.network.router.port_model = PortModel::kAllPort;
  expect_equivalent_collectives(c);
}

// The same firmware on a 3D mesh of wide-build RTL routers.
TEST(RtlEquivalence, CollectiveFirmwareMesh3x3x3WideBuild) {
  Config c = collective_config(
      {CollectiveAlgorithm::kDimensionalBroadcast, CollectiveAlgorithm::kScatterBinomial});
  c.network.topology.dims = {3, 3, 3};
  c.network.router.port_model = PortModel::kAllPort;
  expect_equivalent_collectives(c);
}

// Collective firmware on an 8-cube of cube-build RTL routers (unicast algorithms: the cube
// build has no multidestination hardware).
TEST(RtlEquivalence, CollectiveFirmwareHypercube8CubeBuild) {
  Config c = collective_config(
      {CollectiveAlgorithm::kRecursiveDoubling, CollectiveAlgorithm::kScatterBinomial});
  c.network.topology = testing::hypercube_config(8).network.topology;
  c.network.router.port_model = PortModel::kAllPort;
  c.collective.sample = 1;
  c.collective.message_bytes = {64};
  expect_equivalent_collectives(c);
}

// Multicast firmware sending one tree worm, synchronous replication.
TEST(RtlEquivalence, CollectiveFirmwareTreeWormsMesh4x4) {
  Config c = collective_config({CollectiveAlgorithm::kTreeMulticast});
  c.network.router.multidest = MultidestMode::kTree;
  c.network.router.replication = Replication::kSynchronous;
  expect_equivalent_collectives(c);
}

// The comparator sees the replication handshake: the same tree traffic through RTL routers
// replicating synchronously and asynchronously gives different logs.
TEST(RtlEquivalence, SynchronousAndAsynchronousReplicationDiffer) {
  Config c = multidest(testing::mesh_config({4, 4}), MultidestMode::kTree,
                       Replication::kAsynchronous, 0.12, 6);
  Config sync = c;
  sync.network.router.replication = Replication::kSynchronous;
  const PairRun r = run_pair(as_rtl(c), as_rtl(sync));
  EXPECT_GT(r.replicated_a, 500u);
  EXPECT_GT(r.comparison.mismatches, 0u);
}

// Staged pipeline models (network.router.pipeline; docs/rtl.md, "Staged pipelines"): RC, VA
// and SA stages per input VC, the ST register, speculative SA. Every model on a contended 4x4
// mesh (some with two VCs, so heads wait in VA and speculation misses), then tree and path
// worms under the classic and the speculative models.
Config staged(Config c, PipelineModel model) {
  c.network.router.pipeline = model;
  c.network.router.pipeline_depth = pipeline_stages(model);
  return c;
}

TEST(RtlEquivalence, StagedClassicMesh4x4) {
  Config c = staged(loaded(testing::mesh_config({4, 4}), 0.3), PipelineModel::kClassic);
  c.network.router.port_model = PortModel::kOnePort;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, StagedLookaheadMesh4x4TwoVcsOutputFirst) {
  Config c = staged(loaded(testing::mesh_config({4, 4}), 0.3), PipelineModel::kLookahead);
  c.network.router.vcs = 2;
  c.network.router.allocator = AllocatorKind::kSeparableOutputFirst;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, StagedSpeculativeMesh4x4TwoVcs) {
  Config c = staged(loaded(testing::mesh_config({4, 4}), 0.3), PipelineModel::kSpeculative);
  c.network.router.vcs = 2;
  c.network.router.port_model = PortModel::kOnePort;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, StagedSpeculativeMesh4x4AllPortOutputFirst) {
  Config c = staged(loaded(testing::mesh_config({4, 4}), 0.4), PipelineModel::kSpeculative);
  c.network.router.port_model = PortModel::kAllPort;
  c.network.router.allocator = AllocatorKind::kSeparableOutputFirst;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, StagedCombinedMesh4x4ShallowBuffers) {
  Config c = staged(loaded(testing::mesh_config({4, 4}), 0.3), PipelineModel::kCombined);
  c.network.router.buffer_depth = 2;
  c.network.router.credit_latency = 2;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, StagedLookaheadSpeculativeMesh4x4TwoVcs) {
  Config c =
      staged(loaded(testing::mesh_config({4, 4}), 0.3), PipelineModel::kLookaheadSpeculative);
  c.network.router.vcs = 2;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, StagedLookaheadCombinedMesh4x4OnePort) {
  Config c = staged(loaded(testing::mesh_config({4, 4}), 0.3), PipelineModel::kLookaheadCombined);
  c.network.router.port_model = PortModel::kOnePort;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, StagedClassicTreeWormsAsynchronous) {
  Config c = staged(multidest(testing::mesh_config({4, 4}), MultidestMode::kTree,
                              Replication::kAsynchronous, 0.1, 6),
                    PipelineModel::kClassic);
  c.network.router.port_model = PortModel::kAllPort;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, StagedClassicPathWormsSynchronous) {
  Config c = staged(multidest(testing::mesh_config({4, 4}), MultidestMode::kPath,
                              Replication::kSynchronous, 0.12),
                    PipelineModel::kClassic);
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, StagedSpeculativeTreeWormsSynchronous) {
  Config c = staged(multidest(testing::mesh_config({4, 4}), MultidestMode::kTree,
                              Replication::kSynchronous, 0.1, 6),
                    PipelineModel::kSpeculative);
  c.network.router.port_model = PortModel::kOnePort;
  expect_equivalent(c, as_rtl(c));
}

// Destination lists longer than the head flit (docs/rtl.md, "Destination lists in header
// flits"): under header_decode buffered the RTL full path and tree routers collect the list
// from the head and the header flits after it, per input VC, and route once the bits the C++
// router reads are in (MulticastRoute::header_flits_read): lock-step equal with 1-byte flits
// (two 4-bit addresses per flit on 16 nodes), under every pipeline model, both replication
// handshakes, address lists and bit-strings, meshes, tori and the 4-cube.
struct HeaderFlitsCase {
  std::string name;
  Config network;
  MultidestMode mode = MultidestMode::kPath;
  Replication replication = Replication::kAsynchronous;
  PipelineModel pipeline = PipelineModel::kDelay;
  int pipeline_depth = 1;  // the delay model's; staged models take their stage count
  HeaderEncoding encoding = HeaderEncoding::kAddressList;
  int destinations = 6;
  PortModel port_model = PortModel::kOnePort;
  int vcs = 4;
  double rate = 0.1;
  int flit_bytes = 1;
};

void PrintTo(const HeaderFlitsCase& k, std::ostream* os) { *os << k.name; }

class RtlHeaderFlits : public ::testing::TestWithParam<HeaderFlitsCase> {};

TEST_P(RtlHeaderFlits, LockStepWithTheCppRouter) {
  const HeaderFlitsCase& k = GetParam();
  Config c = multidest(k.network, k.mode, k.replication, k.rate, k.destinations);
  c.network.router.pipeline = k.pipeline;
  c.network.router.pipeline_depth =
      k.pipeline == PipelineModel::kDelay ? k.pipeline_depth : pipeline_stages(k.pipeline);
  c.network.router.header_encoding = k.encoding;
  c.network.router.header_decode = HeaderDecode::kBuffered;
  c.network.router.port_model = k.port_model;
  c.network.router.vcs = k.vcs;
  c.network.flit_bytes = k.flit_bytes;
  c.network.router.buffer_depth = 4;
  ASSERT_NO_THROW(check_rtl_limits(as_rtl(c)));
  // The runs must route worms whose list spans several flits.
  const int nodes = Topology(c.network.topology).nodes();
  const int list_bits =
      k.encoding == HeaderEncoding::kBitString ? nodes : k.destinations * address_bits(nodes);
  ASSERT_GT(list_bits, 8 * k.flit_bytes);
  expect_equivalent(c, as_rtl(c));
}

std::vector<HeaderFlitsCase> header_flits_cases() {
  std::vector<HeaderFlitsCase> v;
  auto add = [&v](HeaderFlitsCase k) { v.push_back(std::move(k)); };
  {
    HeaderFlitsCase k{"path_mesh_async_delay", testing::mesh_config({4, 4})};
    add(k);
    k.name = "path_mesh_async_delay_pipeline3_allport";  // the last header flit's delay counts
    k.pipeline_depth = 3;
    k.port_model = PortModel::kAllPort;
    k.rate = 0.12;
    add(k);
    k = {"path_torus_sync_classic", testing::torus_config({4, 4})};
    k.replication = Replication::kSynchronous;
    k.pipeline = PipelineModel::kClassic;
    k.port_model = PortModel::kAllPort;
    add(k);
    k = {"path_mesh_lookahead_combined_two_vcs_8_destinations", testing::mesh_config({4, 4})};
    k.pipeline = PipelineModel::kLookaheadCombined;
    k.vcs = 2;
    k.destinations = 8;
    add(k);
    k = {"path_mesh_speculative_sync", testing::mesh_config({4, 4})};
    k.pipeline = PipelineModel::kSpeculative;
    k.replication = Replication::kSynchronous;
    add(k);
    k = {"path_hypercube4_lookahead", testing::hypercube_config(4)};
    k.pipeline = PipelineModel::kLookahead;
    add(k);
  }
  {
    HeaderFlitsCase k{"tree_mesh_async_delay", testing::mesh_config({4, 4})};
    k.mode = MultidestMode::kTree;
    add(k);
    k.name = "tree_mesh_sync_classic_bit_string_allport";
    k.replication = Replication::kSynchronous;
    k.pipeline = PipelineModel::kClassic;
    k.encoding = HeaderEncoding::kBitString;
    k.port_model = PortModel::kAllPort;
    add(k);
    k.name = "tree_torus_async_lookahead_combined_bit_string";
    k.network = testing::torus_config({4, 4});
    k.replication = Replication::kAsynchronous;
    k.pipeline = PipelineModel::kLookaheadCombined;
    k.port_model = PortModel::kOnePort;
    add(k);
    k.name = "tree_hypercube4_speculative_two_vcs";
    k.network = testing::hypercube_config(4);
    k.pipeline = PipelineModel::kSpeculative;
    k.encoding = HeaderEncoding::kAddressList;
    k.vcs = 2;
    add(k);
  }
  {
    // 8x8: 16 6-bit addresses (96 bits) in two 8-byte header flits; a 64-node bit-string in
    // four 2-byte ones.
    HeaderFlitsCase k{"path_mesh8x8_16_destinations_8_byte_flits", testing::mesh_config({8, 8})};
    k.destinations = 16;
    k.flit_bytes = 8;
    k.rate = 0.05;
    add(k);
    k = {"tree_mesh8x8_bit_string_2_byte_flits_classic", testing::mesh_config({8, 8})};
    k.mode = MultidestMode::kTree;
    k.encoding = HeaderEncoding::kBitString;
    k.pipeline = PipelineModel::kClassic;
    k.flit_bytes = 2;
    k.rate = 0.05;
    add(k);
  }
  return v;
}

INSTANTIATE_TEST_SUITE_P(RtlEquivalence, RtlHeaderFlits, ::testing::ValuesIn(header_flits_cases()),
                         [](const ::testing::TestParamInfo<HeaderFlitsCase>& i) {
                           return i.param.name;
                         });

// Collective firmware whose path worms list every other node: 15 4-bit addresses in 8 header
// flits of 1 byte, collected by the RTL routers before they route.
TEST(RtlEquivalence, CollectiveFirmwarePathWormsHeaderFlitsMesh4x4) {
  Config c = collective_config({CollectiveAlgorithm::kPathMulticast});
  c.network.router.multidest = MultidestMode::kPath;
  c.network.router.port_model = PortModel::kAllPort;
  c.network.router.header_decode = HeaderDecode::kBuffered;
  c.network.flit_bytes = 1;
  c.network.router.buffer_depth = 8;
  expect_equivalent_collectives(c);
}

TEST(RtlEquivalence, StagedLookaheadSpeculativePathWormsAsynchronous) {
  Config c = staged(multidest(testing::mesh_config({4, 4}), MultidestMode::kPath,
                              Replication::kAsynchronous, 0.12),
                    PipelineModel::kLookaheadSpeculative);
  c.network.router.vcs = 2;
  expect_equivalent(c, as_rtl(c));
}

// The minimal path-IR router (docs/multidestination.md, "The minimal path-IR router"; the
// Vwormsim_router_min build, docs/rtl.md): path worms of one address flit per destination,
// matched at the buffer head and stripped at every destination but the last, the next address
// flit promoted to head with two branches. Both handshakes, the delay model (pipeline 1, where
// a strip may take the flit of its arrival cycle, and 3, where it waits for the delay) and
// staged models (the promoted head's RC cycle, with and without lookahead).
Config minimal(Config c) {
  c.network.router.path_ir = PathIr::kMinimal;
  c.network.router.header_encoding = HeaderEncoding::kAddressFlits;
  return c;
}

TEST(RtlEquivalence, MinimalPathIrMesh4x4AsynchronousOnePort) {
  Config c = minimal(multidest(testing::mesh_config({4, 4}), MultidestMode::kPath,
                               Replication::kAsynchronous, 0.12));
  c.network.router.port_model = PortModel::kOnePort;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, MinimalPathIrMesh4x4SynchronousAllPortShallowBuffers) {
  Config c = minimal(multidest(testing::mesh_config({4, 4}), MultidestMode::kPath,
                               Replication::kSynchronous, 0.12));
  c.network.router.port_model = PortModel::kAllPort;
  c.network.router.buffer_depth = 2;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, MinimalPathIrTorus4x4AsynchronousPipelinedTwoVcs) {
  Config c = minimal(multidest(testing::torus_config({4, 4}), MultidestMode::kPath,
                               Replication::kAsynchronous, 0.1, 6));
  c.network.router.pipeline_depth = 3;
  c.network.router.vcs = 2;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, MinimalPathIrHypercube4SynchronousOutputFirst) {
  Config c = minimal(multidest(testing::hypercube_config(4), MultidestMode::kPath,
                               Replication::kSynchronous, 0.1));
  c.network.router.allocator = AllocatorKind::kSeparableOutputFirst;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, MinimalPathIrMesh4x4HamiltonianMixedNetwork) {
  Config c = minimal(multidest(testing::mesh_config({4, 4}), MultidestMode::kPath,
                               Replication::kAsynchronous, 0.1, 6));
  c.network.routing.algorithm = RoutingAlgorithm::kHamiltonian;
  c.network.router.vcs = 1;
  c.network.router.buffer_depth = 4;
  expect_equivalent(c, as_rtl(c, {1, 2, 5, 6, 9, 10}));
}

TEST(RtlEquivalence, StagedClassicMinimalPathIrAsynchronous) {
  Config c = staged(minimal(multidest(testing::mesh_config({4, 4}), MultidestMode::kPath,
                                      Replication::kAsynchronous, 0.12)),
                    PipelineModel::kClassic);
  c.network.router.port_model = PortModel::kAllPort;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, StagedLookaheadCombinedMinimalPathIrSynchronous) {
  Config c = staged(minimal(multidest(testing::mesh_config({4, 4}), MultidestMode::kPath,
                                      Replication::kSynchronous, 0.12)),
                    PipelineModel::kLookaheadCombined);
  c.network.router.buffer_depth = 5;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, StagedSpeculativeMinimalPathIrSynchronousTwoVcs) {
  Config c = staged(minimal(multidest(testing::mesh_config({4, 4}), MultidestMode::kPath,
                                      Replication::kSynchronous, 0.12)),
                    PipelineModel::kSpeculative);
  c.network.router.vcs = 2;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, StagedLookaheadMinimalPathIrAsynchronousMixedNetwork) {
  Config c = staged(minimal(multidest(testing::mesh_config({4, 4}), MultidestMode::kPath,
                                      Replication::kAsynchronous, 0.12)),
                    PipelineModel::kLookahead);
  expect_equivalent(c, as_rtl(c, {0, 5, 6, 9, 15}));
}

// More than 4 network ports: the wide minimal path-IR build (Vwormsim_router_wide_min, as many
// injection and ejection channels as network ports, in every port model).
TEST(RtlEquivalence, MinimalPathIrMesh3x3x3SynchronousAllPortWideBuild) {
  Config c = minimal(multidest(testing::mesh_config({3, 3, 3}), MultidestMode::kPath,
                               Replication::kSynchronous, 0.1, 6));
  c.network.router.port_model = PortModel::kAllPort;
  c.simulation.measure_cycles = 800;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, MinimalPathIrHypercube5AsynchronousOnePortWideBuild) {
  Config c = minimal(multidest(testing::hypercube_config(5), MultidestMode::kPath,
                               Replication::kAsynchronous, 0.08, 6));
  c.network.router.port_model = PortModel::kOnePort;
  c.network.router.vcs = 2;
  c.simulation.measure_cycles = 800;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, StagedSpeculativeMinimalPathIrTorus3x3x3KPortMixedNetwork) {
  Config c = staged(minimal(multidest(testing::torus_config({3, 3, 3}), MultidestMode::kPath,
                                      Replication::kAsynchronous, 0.1, 6)),
                    PipelineModel::kSpeculative);
  c.network.router.port_model = PortModel::kKPort;
  c.network.router.ports = 3;
  c.network.router.vcs = 2;
  c.simulation.measure_cycles = 1000;
  expect_equivalent(c, as_rtl(c, {0, 4, 13, 14, 22, 26}));
}

// One VC (a strip blocks the only VC's input port), pipeline 2; all-port, since one
// consumption channel per node lets synchronous path worms deadlock (docs/multidestination.md):
// with one-port routers and synchronous replication both networks deadlocked here, with
// identical histories (2026-11-27).
TEST(RtlEquivalence, MinimalPathIrMesh4x4OneVcPipelineTwoAllPortSixDestinations) {
  Config c = minimal(multidest(testing::mesh_config({4, 4}), MultidestMode::kPath,
                               Replication::kAsynchronous, 0.15, 6));
  c.network.router.vcs = 1;
  c.network.router.pipeline_depth = 2;
  c.network.router.port_model = PortModel::kAllPort;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, StagedCombinedMinimalPathIrAsynchronousAllPort) {
  Config c = staged(minimal(multidest(testing::mesh_config({4, 4}), MultidestMode::kPath,
                                      Replication::kAsynchronous, 0.15, 6)),
                    PipelineModel::kCombined);
  c.network.router.port_model = PortModel::kAllPort;
  c.network.router.credit_latency = 2;
  expect_equivalent(c, as_rtl(c));
}

TEST(RtlEquivalence, StagedLookaheadSpeculativeMinimalPathIrOnePortOutputFirst) {
  Config c = staged(minimal(multidest(testing::torus_config({4, 4}), MultidestMode::kPath,
                                      Replication::kSynchronous, 0.12)),
                    PipelineModel::kLookaheadSpeculative);
  c.network.router.port_model = PortModel::kOnePort;
  c.network.router.allocator = AllocatorKind::kSeparableOutputFirst;
  expect_equivalent(c, as_rtl(c));
}

// The comparator sees the strip: the same address-flit traffic through C++ routers of the full
// path-IR router (which forwards every address flit) and RTL minimal routers differs.
TEST(RtlEquivalence, MinimalPathIrDiffersFromTheFullRouter) {
  const Config c = minimal(multidest(testing::mesh_config({4, 4}), MultidestMode::kPath,
                                     Replication::kAsynchronous, 0.12));
  Config full = c;
  full.network.router.path_ir = PathIr::kFull;
  const PairRun r = run_pair(full, as_rtl(c), "systemc full", "rtl minimal");
  EXPECT_GT(r.comparison.mismatches, 0u);
  EXPECT_EQ(r.stripped_a, 0u);
  EXPECT_GT(r.stripped_b, 300u);
}

// Config::validate() and then the RTL build's limits (cosim/rtl_limits.h), as a run checks them.
void validate_rtl(const Config& c) {
  c.validate();
  check_rtl_limits(c);
}

TEST(RtlConfig, LimitsOfTheVerilatedRouterNameTheKey) {
  auto expect_error = [](const Config& c, const std::string& text) {
    try {
      validate_rtl(c);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const ConfigError& e) {
      EXPECT_EQ(e.key(), "network.router.implementation");
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    }
  };
  Config c = as_rtl(testing::mesh_config({4, 4}));
  c.network.router.vcs = 8;
  expect_error(c, "at most 4 VCs");
  c = as_rtl(testing::mesh_config({4, 4}));
  c.network.router.buffer_depth = 16;
  expect_error(c, "at most 8 flits");
  // 3D meshes and 7-cubes fit the wide build, 8- to 16-cubes the cube build (unicast only).
  c = as_rtl(testing::mesh_config({4, 4, 4}));
  c.network.router.port_model = PortModel::kAllPort;
  EXPECT_NO_THROW(validate_rtl(c));
  c = as_rtl(testing::hypercube_config(7));
  c.network.router.port_model = PortModel::kAllPort;
  EXPECT_NO_THROW(validate_rtl(c));
  c = as_rtl(testing::hypercube_config(8));
  EXPECT_NO_THROW(validate_rtl(c));
  c = as_rtl(testing::hypercube_config(16));
  c.network.router.port_model = PortModel::kAllPort;
  EXPECT_NO_THROW(validate_rtl(c));
  c = as_rtl(testing::hypercube_config(8));
  c.network.router.multidest = MultidestMode::kPath;
  expect_error(c, "(the cube build) has no multidestination hardware");
  c = as_rtl(testing::hypercube_config(8));
  c.network.router.multidest = MultidestMode::kTree;
  expect_error(c, "(the cube build) has no multidestination hardware");
  c = as_rtl(testing::mesh_config({16, 16}));
  c.network.router.multidest = MultidestMode::kTree;
  expect_error(c, "destination sets of at most 64 nodes (got 256)");
  // Destination lists travel in the data bits of the head flit and the header flits after it
  // (docs/rtl.md, "Destination lists in header flits"): a list longer than the head flit
  // needs header_decode buffered, header flits no wider than the RTL's 64 data bits, and at
  // most 256 bits; the key named is the one that sets what is out of range.
  auto expect_list_error = [](const Config& bad, const std::string& key, const std::string& text) {
    try {
      validate_rtl(bad);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const ConfigError& e) {
      EXPECT_EQ(e.key(), key) << e.what();
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    }
  };
  c = as_rtl(testing::mesh_config({16, 16}));  // 8-bit addresses: eight fill 64 bits
  c.network.router.multidest = MultidestMode::kPath;
  c.traffic.multicast_fraction = 0.5;
  c.traffic.multicast_destinations = 8;
  EXPECT_NO_THROW(validate_rtl(c));
  c.traffic.multicast_destinations = 9;
  expect_list_error(c, "network.router.header_decode",
                    "an address_list of 9 8-bit addresses needs 72 bits, more than the 8-byte "
                    "head flit holds");
  c.network.router.header_decode = HeaderDecode::kBuffered;
  c.network.router.buffer_depth = 8;
  EXPECT_NO_THROW(validate_rtl(c));
  c.network.flit_bytes = 16;  // one C++ header flit of 128 bits: wider than the RTL's data
  c.network.router.header_decode = HeaderDecode::kHeadFlit;
  expect_list_error(c, "network.flit_bytes", "header flits of at most 8 bytes");
  c.network.flit_bytes = 3;  // 24 bits per header flit: three of them for four addresses
  c.traffic.multicast_destinations = 4;
  expect_list_error(c, "network.router.header_decode", "needs 32 bits, more than the 3-byte");
  c.network.router.header_decode = HeaderDecode::kBuffered;
  EXPECT_NO_THROW(validate_rtl(c));
  c = as_rtl(testing::mesh_config({8, 8}));
  c.network.router.multidest = MultidestMode::kTree;
  c.network.router.header_encoding = HeaderEncoding::kBitString;
  c.traffic.multicast_fraction = 0.5;
  EXPECT_NO_THROW(validate_rtl(c));
  c.network.flit_bytes = 4;
  expect_list_error(c, "network.router.header_decode", "a 64-node bit_string needs 64 bits");
  c.network.router.header_decode = HeaderDecode::kBuffered;
  EXPECT_NO_THROW(validate_rtl(c));
  // Tree address lists: at most 16 entries decoded.
  c.network.router.header_encoding = HeaderEncoding::kAddressList;
  c.traffic.multicast_destinations = 17;
  c.network.flit_bytes = 8;
  c.network.router.buffer_depth = 8;
  expect_list_error(c, "traffic.multicast_destinations",
                    "address lists of at most 16 destinations (got 17)");
  c = as_rtl(testing::mesh_config({4, 4}));
  c.network.router.multidest = MultidestMode::kPath;
  c.network.router.header_encoding = HeaderEncoding::kBitString;
  expect_list_error(c, "network.router.header_encoding",
                    "reads its next target from an address_list");
  // Collectives may send a worm to every other node: 15 4-bit addresses fit, 63 6-bit ones do not.
  c = as_rtl(testing::mesh_config({4, 4}));
  c.workload = Workload::kCollective;
  c.network.router.port_model = PortModel::kAllPort;  // the default collective's (EDN)
  c.network.router.multidest = MultidestMode::kPath;
  EXPECT_NO_THROW(validate_rtl(c));
  c = as_rtl(testing::mesh_config({8, 8}));
  c.workload = Workload::kCollective;
  c.network.router.port_model = PortModel::kAllPort;
  c.network.router.multidest = MultidestMode::kPath;
  c.network.router.header_decode = HeaderDecode::kBuffered;
  c.network.router.buffer_depth = 8;
  expect_list_error(c, "network.router.implementation",
                    "lists of at most 256 bits: an address_list of 63 6-bit addresses needs 378");
  c = as_rtl(testing::mesh_config({4, 4}));
  c.network.router.multidest = MultidestMode::kPath;
  c.traffic.multicast_fraction = 0.5;
  c.traffic.multicast_destinations = 17;
  try {
    validate_rtl(c);
    ADD_FAILURE() << "a 17-destination path header accepted";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "traffic.multicast_destinations");
  }
  // The minimal path-IR router: no list header, so 16-bit node ids (a 16x16 mesh), in the
  // narrow and wide builds (a 3D mesh is accepted, an 8-cube, which needs the cube build
  // without multidestination hardware, is rejected).
  c = as_rtl(minimal(testing::mesh_config({16, 16})));
  c.network.router.multidest = MultidestMode::kPath;
  EXPECT_NO_THROW(validate_rtl(c));
  c = as_rtl(minimal(testing::mesh_config({3, 3, 3})));
  c.network.router.multidest = MultidestMode::kPath;
  EXPECT_NO_THROW(validate_rtl(c));
  c = as_rtl(minimal(testing::hypercube_config(8)));
  c.network.router.multidest = MultidestMode::kPath;
  expect_error(c, "minimal path-IR RTL router is built with up to 7 network ports");
  c = testing::mesh_config({4, 4});
  c.network.router.rtl_nodes = {16};
  try {
    validate_rtl(c);
    ADD_FAILURE() << "rtl_nodes outside the network accepted";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "network.router.rtl_nodes[0]");
  }
}

}  // namespace
}  // namespace wormsim
