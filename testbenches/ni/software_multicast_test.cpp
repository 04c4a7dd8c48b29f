// Software multicast on unicast routers (systemc/ni/software_multicast.h, the Terminal's part
// in systemc/ni/terminal.h): the U-mesh plan reaches every destination exactly once in
// ceil(log2(m + 1)) message-passing steps (counted by walking the plan, the bound computed
// apart), the chain follows the routing's resolution order (hand-sorted examples), the record
// counts an operation until its last destination, and end to end on an idle network a scripted
// operation completes in the cycle derived by hand from docs/timing-model.md (T0 = H + L + 1 with
// P = Lk = Cr = 1, B = 4; one-port injection sends one packet at a time) with every destination
// receiving once. Synthetic mixes with network.router.multidest none now run, drain only when
// every operation has completed (forward overheads included), and the watchdog still fires;
// path and tree runs ignore the software keys.
#include "software_multicast.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "network_test_util.h"

namespace wormsim::software_multicast_test {
namespace {

// ---- The plan ------------------------------------------------------------------------------

// Smallest s with 2^s >= p: the message-passing steps of a binomial tree over p nodes.
int ceil_log2(std::uint32_t p) {
  int s = 0;
  while ((std::uint32_t{1} << s) < p) ++s;
  return s;
}

struct Walk {
  std::vector<int> received;  // per chain index: packets received
  std::vector<int> step;      // per chain index: message-passing step it received in
  int packets = 0;
};

// Follows the plan from `root` over a chain of `p` nodes: a holder that received in step s
// sends its k-th message (k = 1, 2, ...) in step s + k.
Walk walk(SoftwareMulticastScheme scheme, std::uint32_t p, std::uint32_t root) {
  Walk w;
  w.received.assign(p, 0);
  w.step.assign(p, 0);
  struct Holder {
    std::uint32_t index, lo, hi;
    int step;
  };
  std::vector<Holder> todo{{root, 0, p - 1, 0}};
  while (!todo.empty()) {
    const Holder h = todo.back();
    todo.pop_back();
    int k = 0;
    for (const SoftwareSend& s : software_sends(scheme, h.index, h.lo, h.hi)) {
      ++k;
      ++w.packets;
      ++w.received[s.target];
      w.step[s.target] = h.step + k;
      EXPECT_LE(s.lo, s.target);
      EXPECT_LE(s.target, s.hi);
      todo.push_back({s.target, s.lo, s.hi, h.step + k});
    }
  }
  return w;
}

TEST(SoftwarePlan, BinomialTreeReachesEveryNodeOnceInCeilLog2Steps) {
  for (std::uint32_t p = 2; p <= 72; ++p) {
    for (std::uint32_t root = 0; root < p; ++root) {
      const Walk w = walk(SoftwareMulticastScheme::kBinomialTree, p, root);
      for (std::uint32_t i = 0; i < p; ++i)
        ASSERT_EQ(w.received[i], i == root ? 0 : 1) << "p " << p << " root " << root << " i " << i;
      EXPECT_EQ(w.packets, static_cast<int>(p) - 1);
      EXPECT_EQ(*std::max_element(w.step.begin(), w.step.end()), ceil_log2(p))
          << "p " << p << " root " << root;
    }
  }
}

// Seed 000 section 3.2.2: in the lower half the holder sends to the first node of the upper
// half, in the upper half to the last node of the lower half (the lower half has the extra
// node), and keeps halving its own half.
TEST(SoftwarePlan, UMeshSendsToTheNearestNodeOfTheFarHalf) {
  auto sends = [](std::uint32_t holder, std::uint32_t lo, std::uint32_t hi) {
    std::vector<std::vector<std::uint32_t>> out;
    for (const SoftwareSend& s :
         software_sends(SoftwareMulticastScheme::kBinomialTree, holder, lo, hi))
      out.push_back({s.target, s.lo, s.hi});
    return out;
  };
  using V = std::vector<std::vector<std::uint32_t>>;
  // 8 nodes, root 0: halves [0,3] [4,7] -> 4; [0,1] [2,3] -> 2; [0] [1] -> 1.
  EXPECT_EQ(sends(0, 0, 7), (V{{4, 4, 7}, {2, 2, 3}, {1, 1, 1}}));
  // Root 5: [0,3] [4,7] -> 3 (last of the lower half); [4,5] [6,7] -> 6; [4] [5] -> 4.
  EXPECT_EQ(sends(5, 0, 7), (V{{3, 0, 3}, {6, 6, 7}, {4, 4, 4}}));
  // 5 nodes, root 0: [0,2] [3,4] -> 3; [0,1] [2] -> 2; [0] [1] -> 1.
  EXPECT_EQ(sends(0, 0, 4), (V{{3, 3, 4}, {2, 2, 2}, {1, 1, 1}}));
  EXPECT_EQ(sends(3, 3, 4), (V{{4, 4, 4}}));
  EXPECT_EQ(sends(2, 2, 2), V{});
}

TEST(SoftwarePlan, SeparateAddressingSendsToEveryOtherNodeInChainOrder) {
  std::vector<std::uint32_t> targets;
  for (const SoftwareSend& s :
       software_sends(SoftwareMulticastScheme::kSeparateAddressing, 2, 0, 5)) {
    targets.push_back(s.target);
    EXPECT_EQ(s.lo, s.target);
    EXPECT_EQ(s.hi, s.target);
  }
  EXPECT_EQ(targets, (std::vector<std::uint32_t>{0, 1, 3, 4, 5}));
  const Walk w = walk(SoftwareMulticastScheme::kSeparateAddressing, 9, 4);
  EXPECT_EQ(w.packets, 8);
  EXPECT_EQ(*std::max_element(w.step.begin(), w.step.end()), 8);  // one send per step
}

// ---- The chain -----------------------------------------------------------------------------

TEST(SoftwareChain, SortsInTheRoutingsResolutionOrder) {
  const PortLayout layout = PortLayout::make(PortModel::kOnePort, 4, 1);
  TopologyConfig tc;
  tc.dims = {4, 4};
  const Topology mesh(tc);
  const auto at = [&](int x, int y) { return mesh.node_at({x, y}); };
  const std::vector<NodeId> nodes{at(3, 0), at(0, 1), at(1, 0), at(0, 0)};
  RoutingConfig xy;
  xy.order = {0, 1};
  const RouteCompute rc_xy(mesh, xy, layout, 1);
  EXPECT_EQ(routing_ordered_chain(rc_xy, mesh, nodes),
            (std::vector<NodeId>{at(0, 0), at(0, 1), at(1, 0), at(3, 0)}));
  RoutingConfig yx;
  yx.order = {1, 0};
  const RouteCompute rc_yx(mesh, yx, layout, 1);
  EXPECT_EQ(routing_ordered_chain(rc_yx, mesh, nodes),
            (std::vector<NodeId>{at(0, 0), at(1, 0), at(3, 0), at(0, 1)}));

  TopologyConfig hc;
  hc.kind = TopologyKind::kHypercube;
  hc.hypercube_dimension = 3;
  const Topology cube(hc);
  const PortLayout cube_layout = PortLayout::make(PortModel::kOnePort, 3, 1);
  RoutingConfig low;
  low.algorithm = RoutingAlgorithm::kEcube;
  low.ecube_order = EcubeOrder::kLowToHigh;  // bit 0 first, so most significant in the sort
  const RouteCompute rc_low(cube, low, cube_layout, 1);
  EXPECT_EQ(routing_ordered_chain(rc_low, cube, {1, 2, 4, 3}), (std::vector<NodeId>{4, 2, 1, 3}));
  RoutingConfig high = low;
  high.ecube_order = EcubeOrder::kHighToLow;
  const RouteCompute rc_high(cube, high, cube_layout, 1);
  EXPECT_EQ(routing_ordered_chain(rc_high, cube, {1, 2, 4, 3}), (std::vector<NodeId>{1, 2, 3, 4}));
}

// ---- The record ----------------------------------------------------------------------------

TEST(SoftwareMulticastRecord, CountsAnOperationUntilItsLastDestination) {
  SoftwareMulticast sm(SoftwareMulticastScheme::kBinomialTree, 0);
  // Chain 10, 11, 12, 13 from index 0 at cycle 100 (measured): 0 -> 2 (responsible for 2..3),
  // 0 -> 1; then 2 -> 3.
  std::vector<SoftwareMulticast::Packet> root = sm.begin({10, 11, 12, 13}, 0, 5, 100, true);
  ASSERT_EQ(root.size(), 2u);
  EXPECT_EQ(root[0].dst, 12u);
  EXPECT_EQ(root[1].dst, 11u);
  EXPECT_EQ(root[0].length, 5);
  sm.on_created(1000, root[0].hop);
  sm.on_created(1001, root[1].hop);
  EXPECT_TRUE(sm.packets_live());
  std::vector<SoftwareMulticast::Packet> fwd;
  EXPECT_FALSE(sm.on_delivered(999, 105, fwd));  // not a packet of an operation
  ASSERT_TRUE(sm.on_delivered(1000, 110, fwd));
  ASSERT_EQ(fwd.size(), 1u);
  EXPECT_EQ(fwd[0].dst, 13u);
  sm.on_created(1002, fwd[0].hop);
  ASSERT_TRUE(sm.on_delivered(1001, 115, fwd));
  EXPECT_TRUE(fwd.empty());
  EXPECT_TRUE(sm.latencies().empty());
  EXPECT_EQ(sm.operations_outstanding(), 1u);
  ASSERT_TRUE(sm.on_delivered(1002, 130, fwd));
  EXPECT_TRUE(fwd.empty());
  EXPECT_FALSE(sm.packets_live());
  EXPECT_EQ(sm.operations_outstanding(), 0u);
  EXPECT_EQ(sm.latencies(), (std::vector<std::uint32_t>{30}));
  EXPECT_DOUBLE_EQ(sm.packets_per_operation(), 3.0);
  // An operation created outside the window completes but adds no sample.
  for (const auto& p : sm.begin({1, 2}, 1, 5, 200, false)) sm.on_created(2000, p.hop);
  ASSERT_TRUE(sm.on_delivered(2000, 210, fwd));
  EXPECT_EQ(sm.operations_created(), 2u);
  EXPECT_EQ(sm.operations_completed(), 2u);
  EXPECT_EQ(sm.latencies().size(), 1u);
}

// ---- End to end, idle network --------------------------------------------------------------

// 8x8 mesh, XY, one-port, P = Lk = Cr = 1, B = 4 (>= R = 3): T0(H) = H + L + 1.
Config idle_mesh(SoftwareMulticastScheme scheme, Cycle forward_cycles) {
  Config c = testing::mesh_config({8, 8});
  c.network.router.port_model = PortModel::kOnePort;
  c.network.router.vcs = 2;
  c.network.router.buffer_depth = 4;
  c.traffic.injection_rate = 0;
  c.traffic.software_multicast = scheme;
  c.traffic.software_forward_cycles = forward_cycles;
  c.simulation.warmup_cycles = 0;
  c.simulation.measure_cycles = 100;  // the scripted operation (cycle 10) is measured
  return c;
}

testing::RunOptions logged() {
  testing::RunOptions o;
  o.synthetic_traffic = false;
  o.record_packets = true;
  return o;
}

// Node (x, 0) -> delivery cycle; every packet of the log must be a software multicast packet
// and reach a distinct destination.
std::map<NodeId, Cycle> deliveries(const SyntheticNetwork& net) {
  std::map<NodeId, Cycle> out;
  for (const DeliveredPacket& d : net.stats().packet_log()) {
    EXPECT_TRUE(d.record.software_multicast);
    EXPECT_FALSE(d.record.measured);
    EXPECT_TRUE(out.emplace(d.record.dst, d.delivered).second) << "twice to " << d.record.dst;
  }
  return out;
}

void expect_clean(const SyntheticNetwork& net) {
  EXPECT_EQ(net.outcome(), RunOutcome::kCompleted);
  EXPECT_EQ(net.scoreboard().violation_count(), 0u);
  EXPECT_EQ(net.scoreboard().live_packets(), 0u);
  EXPECT_EQ(net.software_multicast().operations_outstanding(), 0u);
  EXPECT_EQ(net.software_multicast().operations_completed(), 1u);
  EXPECT_TRUE(net.stats().latencies().empty());  // no unicast-class packet
}

// Source (0,0), destinations (1,0)..(7,0), L = 5, created in cycle c = 10. The chain is the
// row; U-mesh: 0 -> 4 [4..7], 0 -> 2 [2..3], 0 -> 1; 4 -> 6 [6..7], 4 -> 5; 6 -> 7; 2 -> 3.
// The source's three packets leave one after another (L cycles each); a receiver's forward k
// enters its queue k*F cycles after it consumed the tail (serialised), and starts when its
// injection channel is free. Delivery = start + T0(H) = start + H + 6.
void run_row(Cycle f, const std::map<NodeId, Cycle>& expected_by_x, Cycle expected_latency) {
  Config c = idle_mesh(SoftwareMulticastScheme::kBinomialTree, f);
  const Topology topo(c.network.topology);
  std::vector<NodeId> dests;
  for (int x = 1; x < 8; ++x) dests.push_back(topo.node_at({x, 0}));
  auto net = testing::run(c, logged(), [&](SyntheticNetwork& n) {
    n.schedule_multicast(topo.node_at({0, 0}), dests, 5, 10);
  });
  expect_clean(*net);
  std::map<NodeId, Cycle> expected;
  for (const auto& [x, cycle] : expected_by_x)
    expected[topo.node_at({static_cast<int>(x), 0})] = cycle;
  EXPECT_EQ(deliveries(*net), expected);
  EXPECT_EQ(net->software_multicast().latencies(),
            std::vector<std::uint32_t>{static_cast<std::uint32_t>(expected_latency)});
  EXPECT_DOUBLE_EQ(net->software_multicast().packets_per_operation(), 7.0);  // = destinations
}

TEST(SoftwareMulticastZeroLoad, BinomialTreeRowAtHandComputedCycles) {
  // 0 -> 4 at 10, +10 = 20; 0 -> 2 at 15, +8 = 23; 0 -> 1 at 20, +7 = 27;
  // 4 -> 6 at 20, +8 = 28; 4 -> 5 at 25, +7 = 32; 2 -> 3 at 23, +7 = 30; 6 -> 7 at 28, +7 = 35.
  // Last destination 35: latency 25 = T0(4) + T0(2) + T0(1), three steps = ceil(log2 8).
  run_row(0, {{1, 27}, {2, 23}, {3, 30}, {4, 20}, {5, 32}, {6, 28}, {7, 35}}, 25);
}

TEST(SoftwareMulticastZeroLoad, BinomialTreeRowWithForwardOverhead) {
  // F = 2. The source pays none: 4 at 20, 2 at 23, 1 at 27. 4 -> 6 enters at 22, +8 = 30;
  // 4 -> 5 enters at 24 but its channel is busy until 27, +7 = 34; 2 -> 3 at 25, +7 = 32;
  // 6 -> 7 at 32, +7 = 39. Latency 29 = T0(4) + T0(2) + T0(1) + 2 F.
  run_row(2, {{1, 27}, {2, 23}, {3, 32}, {4, 20}, {5, 34}, {6, 30}, {7, 39}}, 29);
}

TEST(SoftwareMulticastZeroLoad, SeparateAddressingSerialisesOnTheInjectionChannel) {
  // The source sends to (1,0), (2,0), ..., (7,0) in chain order: packet k (k = 0..6) starts at
  // 10 + 5k and is delivered at 10 + 5k + T0(k + 1) = 17 + 6k; the last at 53, latency 43.
  Config c = idle_mesh(SoftwareMulticastScheme::kSeparateAddressing, 50);  // F unused
  const Topology topo(c.network.topology);
  std::vector<NodeId> dests;
  for (int x = 7; x >= 1; --x) dests.push_back(topo.node_at({x, 0}));  // order given: irrelevant
  auto net = testing::run(c, logged(), [&](SyntheticNetwork& n) {
    n.schedule_multicast(topo.node_at({0, 0}), dests, 5, 10);
  });
  expect_clean(*net);
  std::map<NodeId, Cycle> expected;
  for (int k = 0; k < 7; ++k) expected[topo.node_at({k + 1, 0})] = 17 + 6 * static_cast<Cycle>(k);
  EXPECT_EQ(deliveries(*net), expected);
  EXPECT_EQ(net->software_multicast().latencies(), std::vector<std::uint32_t>{43});
  EXPECT_DOUBLE_EQ(net->software_multicast().packets_per_operation(), 7.0);
}

// Random sets on a torus, a hypercube and an all-port mesh, operations overlapping: each
// destination receives each operation's packet once (the scoreboard checks every packet), every
// operation completes, and each sends exactly one packet per destination.
TEST(SoftwareMulticastZeroLoad, OverlappingRandomSetsReachEachDestinationOnce) {
  std::vector<Config> configs{testing::torus_config({4, 4}), testing::hypercube_config(4),
                              testing::mesh_config({4, 4})};
  configs[2].network.router.port_model = PortModel::kAllPort;
  std::vector<std::unique_ptr<SyntheticNetwork>> nets;
  std::mt19937 rng(7);
  std::map<std::size_t, std::vector<std::vector<NodeId>>> sets;
  for (std::size_t i = 0; i < configs.size(); ++i) {
    Config& c = configs[i];
    c.traffic.injection_rate = 0;
    c.traffic.software_forward_cycles = i;  // 0, 1, 2
    c.simulation.warmup_cycles = 0;
    c.simulation.measure_cycles = 400;
    c.validate();
    NetworkOptions o;
    o.quiet = true;
    o.record_packets = true;
    nets.push_back(std::make_unique<SyntheticNetwork>(("net" + std::to_string(i)).c_str(), c, o));
    for (int op = 0; op < 20; ++op) {
      const NodeId src = static_cast<NodeId>(rng() % 16);
      std::vector<NodeId> d;
      const std::size_t m = 1 + rng() % 15;
      while (d.size() < m) {
        const NodeId n = static_cast<NodeId>(rng() % 16);
        if (n != src && std::find(d.begin(), d.end(), n) == d.end()) d.push_back(n);
      }
      nets.back()->schedule_multicast(src, d, 3, static_cast<Cycle>(5 + 7 * op));
      sets[i].push_back(d);
    }
  }
  sc_core::sc_start();
  for (std::size_t i = 0; i < nets.size(); ++i) {
    const SyntheticNetwork& n = *nets[i];
    EXPECT_EQ(n.outcome(), RunOutcome::kCompleted) << i;
    EXPECT_EQ(n.scoreboard().violation_count(), 0u) << i;
    EXPECT_EQ(n.software_multicast().operations_completed(), 20u) << i;
    EXPECT_EQ(n.software_multicast().latencies().size(), 20u) << i;
    std::size_t total = 0;
    for (const auto& d : sets[i]) total += d.size();
    EXPECT_EQ(n.stats().packet_log().size(), total) << i;
    EXPECT_DOUBLE_EQ(n.software_multicast().packets_per_operation(),
                     static_cast<double>(total) / 20.0)
        << i;
  }
}

TEST(SoftwareMulticastZeroLoad, BadListsAreRejected) {
  Config c = idle_mesh(SoftwareMulticastScheme::kBinomialTree, 0);
  c.validate();
  NetworkOptions o;
  o.quiet = true;
  SyntheticNetwork net("net", c, o);
  EXPECT_THROW(net.schedule_multicast(0, {}, 5, 10), std::invalid_argument);
  EXPECT_THROW(net.schedule_multicast(0, {0, 1}, 5, 10), std::invalid_argument);
  EXPECT_THROW(net.schedule_multicast(0, {1, 1}, 5, 10), std::invalid_argument);
  EXPECT_THROW(net.schedule_multicast(0, {64}, 5, 10), std::invalid_argument);
}

// ---- Synthetic mixes -----------------------------------------------------------------------

class SoftwareMix : public ::testing::TestWithParam<SoftwareMulticastScheme> {};

// Before software multicasts, multidest none with multicast_fraction > 0 was a config error.
TEST_P(SoftwareMix, MultidestNoneWithAMulticastFractionRunsAndDrains) {
  Config c = testing::mesh_config({8, 8});
  c.network.router.port_model = PortModel::kAllPort;
  c.traffic.injection_rate = 0.05;
  c.traffic.packet_length = 4;
  c.traffic.multicast_fraction = 0.2;
  c.traffic.multicast_destinations = 6;
  c.traffic.software_multicast = GetParam();
  c.traffic.software_forward_cycles = 3;
  c.traffic.seed = 99;
  c.simulation.warmup_cycles = 500;
  c.simulation.measure_cycles = 3000;
  testing::RunOptions o;
  o.record_packets = true;
  auto net = testing::run(c, o);
  ASSERT_EQ(net->outcome(), RunOutcome::kCompleted);
  EXPECT_EQ(net->scoreboard().violation_count(), 0u);
  const SoftwareMulticast& sm = net->software_multicast();
  EXPECT_GT(sm.operations_created(), 100u);  // 64 x 3500 x 0.05 / 4 x 0.2 = 560 expected
  EXPECT_EQ(sm.operations_completed(), sm.operations_created());
  EXPECT_EQ(sm.operations_outstanding(), 0u);
  EXPECT_GT(sm.latencies().size(), 50u);
  EXPECT_DOUBLE_EQ(sm.packets_per_operation(), 6.0);
  // Unicast latency samples are exactly the measured packets that are not software multicast.
  std::size_t unicast = 0;
  std::size_t software = 0;
  for (const DeliveredPacket& d : net->stats().packet_log()) {
    if (d.record.software_multicast) {
      ++software;
      EXPECT_FALSE(d.record.measured);
    } else if (d.record.measured) {
      ++unicast;
    }
  }
  EXPECT_EQ(net->stats().latencies().size(), unicast);
  EXPECT_EQ(software, 6 * sm.operations_created());
}

INSTANTIATE_TEST_SUITE_P(Schemes, SoftwareMix,
                         ::testing::Values(SoftwareMulticastScheme::kSeparateAddressing,
                                           SoftwareMulticastScheme::kBinomialTree),
                         [](const auto& param_info) { return to_string(param_info.param); });

// A forward that waits out its software overhead holds the windowed run open: with F = 3000
// (longer than the watchdog's 500 still cycles, which must not fire: no flit is in flight),
// the row operation of BinomialTreeRowAtHandComputedCycles created at 150 completes at
// 150 + T0(4) + T0(2) + T0(1) + 2F = 6175 (node 4's second forward waits for its first:
// 4 -> 5 enters at 160 + 2F = 6160 and arrives at 6167), long after the window ends at 200.
TEST(SoftwareMulticastDrain, ForwardOverheadHoldsTheRunOpen) {
  Config c = idle_mesh(SoftwareMulticastScheme::kBinomialTree, 3000);
  c.simulation.measure_cycles = 200;
  c.simulation.watchdog_cycles = 500;
  const Topology topo(c.network.topology);
  std::vector<NodeId> dests;
  for (int x = 1; x < 8; ++x) dests.push_back(topo.node_at({x, 0}));
  auto net = testing::run(c, logged(), [&](SyntheticNetwork& n) {
    n.schedule_multicast(topo.node_at({0, 0}), dests, 5, 150);
  });
  expect_clean(*net);
  EXPECT_EQ(net->software_multicast().latencies(), std::vector<std::uint32_t>{6025});
  EXPECT_EQ(deliveries(*net).at(topo.node_at({5, 0})), 6167u);
  EXPECT_EQ(net->cycles(), 6176u);  // ends in the cycle of the last delivery
}

// The watchdog still catches a deadlock with software multicasts in the mix.
TEST(SoftwareMulticastDrain, DeadlockIsStillDetected) {
  Config c = testing::deadlock_prone_torus();
  c.traffic.multicast_fraction = 0.3;
  c.traffic.multicast_destinations = 5;
  auto net = testing::run(c);
  EXPECT_EQ(net->outcome(), RunOutcome::kDeadlock);
  ASSERT_TRUE(net->deadlock().has_value());
  EXPECT_GT(net->software_multicast().operations_created(), 0u);
}

// Path and tree runs are multidestination worms as before: the software keys change nothing
// (two runs of one seeded mix in one simulation, identical packet by packet) and no operation
// is created.
TEST(SoftwareMulticastKeys, PathAndTreeRunsIgnoreThem) {
  std::vector<std::unique_ptr<SyntheticNetwork>> nets;
  for (const MultidestMode mode : {MultidestMode::kPath, MultidestMode::kTree}) {
    for (int variant = 0; variant < 2; ++variant) {
      Config c = testing::mesh_config({6, 6});
      c.network.router.multidest = mode;
      c.network.router.port_model = PortModel::kAllPort;
      c.network.router.vcs = 2;
      c.network.router.buffer_depth = 8;
      c.traffic.packet_length = 4;
      c.traffic.injection_rate = 0.05;
      c.traffic.multicast_fraction = 0.3;
      c.traffic.multicast_destinations = 4;
      c.traffic.seed = 4242;
      c.simulation.warmup_cycles = 200;
      c.simulation.measure_cycles = 2000;
      if (variant == 1) {
        c.traffic.software_multicast = SoftwareMulticastScheme::kSeparateAddressing;
        c.traffic.software_forward_cycles = 77;
      }
      c.validate();
      NetworkOptions o;
      o.quiet = true;
      o.record_packets = true;
      nets.push_back(std::make_unique<SyntheticNetwork>(
          fmt::format("{}{}", to_string(mode), variant).c_str(), c, o));
    }
  }
  sc_core::sc_start();
  auto log = [](const SyntheticNetwork& n) {
    std::vector<std::vector<std::uint64_t>> out;
    for (const DeliveredPacket& d : n.stats().packet_log()) {
      EXPECT_FALSE(d.record.software_multicast);
      out.push_back({d.id, d.record.dst, d.record.created, d.delivered});
    }
    return out;
  };
  for (std::size_t i = 0; i < nets.size(); i += 2) {
    for (std::size_t k = i; k < i + 2; ++k) {
      EXPECT_EQ(nets[k]->outcome(), RunOutcome::kCompleted);
      EXPECT_EQ(nets[k]->scoreboard().violation_count(), 0u);
      EXPECT_EQ(nets[k]->software_multicast().operations_created(), 0u);
    }
    const auto a = log(*nets[i]);
    EXPECT_GT(a.size(), 1000u);
    EXPECT_EQ(a, log(*nets[i + 1]));
    EXPECT_EQ(nets[i]->stats().latencies(), nets[i + 1]->stats().latencies());
    EXPECT_EQ(nets[i]->cycles(), nets[i + 1]->cycles());
  }
}

}  // namespace
}  // namespace wormsim::software_multicast_test
