// Randomised configurations: every deadlock-free combination of topology, VCs, buffers,
// pipeline, latencies, port model, allocator, traffic pattern and multicasts (path worms with
// either handshake and header encoding; tree worms with asynchronous replication and worm-deep
// buffers; either with cut-through replication; with or without VCs reserved for the worms:
// the configurations docs/multidestination.md argues safe; software multicasts of either
// scheme on unicast routers, every operation completing) must run to
// completion with a clean scoreboard and flit conservation, and no packet may arrive sooner
// than the closed zero-load formula allows for its hops and length (docs/timing-model.md).
// Each seed is its own test (and process); the configuration it draws is printed on failure.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "config_loader.h"
#include "multicast_route.h"
#include "network_test_util.h"

namespace wormsim::testing::network_fuzz_test {
namespace {

Config random_config(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Config c;
  switch (pick(0, 2)) {
    case 0: {
      c.network.topology.kind = TopologyKind::kMesh;
      const int dims = pick(1, 3);
      c.network.topology.dims.clear();
      for (int d = 0; d < dims; ++d) c.network.topology.dims.push_back(pick(2, dims == 3 ? 4 : 7));
      break;
    }
    case 1: {
      c.network.topology.kind = TopologyKind::kTorus;
      const int dims = pick(1, 3);
      c.network.topology.dims.clear();
      for (int d = 0; d < dims; ++d) c.network.topology.dims.push_back(pick(2, dims == 3 ? 4 : 6));
      break;
    }
    default:
      c.network.topology.kind = TopologyKind::kHypercube;
      c.network.topology.hypercube_dimension = pick(1, 6);
      c.network.routing.algorithm = RoutingAlgorithm::kEcube;
      c.network.routing.ecube_order = pick(0, 1) ? EcubeOrder::kHighToLow : EcubeOrder::kLowToHigh;
      break;
  }
  const Topology topo(c.network.topology);
  if (c.network.topology.kind != TopologyKind::kHypercube && pick(0, 1)) {
    std::vector<int> order(static_cast<std::size_t>(topo.dimensions()));
    for (int d = 0; d < topo.dimensions(); ++d) order[static_cast<std::size_t>(d)] = d;
    std::shuffle(order.begin(), order.end(), rng);
    c.network.routing.order = order;
  }
  RouterConfig& r = c.network.router;
  r.vcs = pick(c.network.topology.kind == TopologyKind::kTorus ? 2 : 1, 5);
  r.buffer_depth = pick(1, 6);
  r.pipeline_depth = pick(1, 4);
  r.link_latency = pick(1, 3);
  r.credit_latency = pick(1, 3);
  r.allocator =
      pick(0, 1) ? AllocatorKind::kSeparableInputFirst : AllocatorKind::kSeparableOutputFirst;
  switch (pick(0, 2)) {
    case 0: r.port_model = PortModel::kOnePort; break;
    case 1:
      r.port_model = PortModel::kKPort;
      r.ports = pick(1, topo.network_ports());
      break;
    default: r.port_model = PortModel::kAllPort; break;
  }
  c.network.flit_bytes = pick(1, 32);
  std::vector<TrafficPattern> patterns{TrafficPattern::kUniformRandom,
                                       TrafficPattern::kBitComplement, TrafficPattern::kHotspot,
                                       TrafficPattern::kNearestNeighbor};
  const bool square =
      c.network.topology.kind == TopologyKind::kHypercube
          ? topo.dimensions() % 2 == 0
          : topo.dimensions() >= 2 &&
                std::all_of(c.network.topology.dims.begin(), c.network.topology.dims.end(),
                            [&](int s) { return s == c.network.topology.dims[0]; });
  if (square) patterns.push_back(TrafficPattern::kTranspose);
  c.traffic.pattern =
      patterns[static_cast<std::size_t>(pick(0, static_cast<int>(patterns.size()) - 1))];
  c.traffic.hotspot.nodes = {static_cast<NodeId>(pick(0, topo.nodes() - 1))};
  c.traffic.hotspot.fraction = 0.2;
  c.traffic.packet_length = pick(1, 9);
  c.traffic.injection_rate = std::uniform_real_distribution<double>(0.05, 0.6)(rng);
  c.traffic.seed = seed;
  // Multidestination worms in half the draws (none on 2-node networks: no multicast set).
  const bool meshlike = c.network.topology.kind != TopologyKind::kTorus;
  const int mode = topo.nodes() > 2 ? pick(0, meshlike ? 3 : 2) : 0;
  if (mode == 1) {
    // Software multicasts on unicast routers: trees of unicast packets.
    c.traffic.multicast_fraction = std::uniform_real_distribution<double>(0.05, 0.5)(rng);
    c.traffic.multicast_destinations = pick(1, std::min(6, topo.nodes() - 1));
    c.traffic.software_multicast = pick(0, 1) ? SoftwareMulticastScheme::kBinomialTree
                                              : SoftwareMulticastScheme::kSeparateAddressing;
    c.traffic.software_forward_cycles = static_cast<Cycle>(pick(0, 5));
    c.traffic.injection_rate = std::uniform_real_distribution<double>(0.02, 0.15)(rng);
  }
  if (mode >= 2) {
    r.multidest = mode == 2 ? MultidestMode::kPath : MultidestMode::kTree;
    r.header_encoding = pick(0, 1) ? HeaderEncoding::kAddressList : HeaderEncoding::kBitString;
    c.traffic.multicast_fraction = std::uniform_real_distribution<double>(0.05, 0.5)(rng);
    c.traffic.multicast_destinations = pick(1, std::min(6, topo.nodes() - 1));
    // Every worm fans out to several ejections: keep the offered load moderate.
    c.traffic.injection_rate = std::uniform_real_distribution<double>(0.02, 0.15)(rng);
    if (r.multidest == MultidestMode::kPath) {
      // Safe: a consumption channel per network input (docs/multidestination.md).
      r.replication = pick(0, 1) ? Replication::kSynchronous : Replication::kAsynchronous;
      if (r.port_model != PortModel::kAllPort) r.consumption_channels = topo.network_ports();
    } else {
      // Safe: asynchronous replication, every input buffer holds a whole worm.
      r.replication = Replication::kAsynchronous;
      const int worm = header_flits(r.header_encoding,
                                    static_cast<std::size_t>(c.traffic.multicast_destinations),
                                    topo.nodes(), c.network.flit_bytes) +
                       c.traffic.packet_length;
      r.buffer_depth = std::max(r.buffer_depth, worm);
    }
    // Drawn after the choices above, so they stay what they were for every seed. Cut-through
    // replication in a third of the draws: safe with either handshake and the port model's
    // consumption channels. VCs reserved for the worms: unicast packets keep a VC per class.
    if (pick(0, 2) == 0) {
      r.replication_flow = ReplicationFlow::kCutThrough;
      r.replication = pick(0, 1) ? Replication::kSynchronous : Replication::kAsynchronous;
      r.consumption_channels = 0;
      const int worm = header_flits(r.header_encoding,
                                    static_cast<std::size_t>(c.traffic.multicast_destinations),
                                    topo.nodes(), c.network.flit_bytes) +
                       c.traffic.packet_length - 1;
      r.buffer_depth = std::max(r.buffer_depth, worm);
    }
    r.multidest_vcs =
        pick(0, c.network.topology.kind == TopologyKind::kTorus ? r.vcs / 2 - 1 : r.vcs - 1);
  }
  c.simulation.warmup_cycles = 200;
  c.simulation.measure_cycles = 1500;
  c.simulation.watchdog_cycles = 3000;
  c.simulation.drain_max_cycles = 400000;
  return c;
}

class RandomConfig : public ::testing::TestWithParam<int> {};

TEST_P(RandomConfig, CompletesCleanly) {
  const Config c = random_config(static_cast<std::uint64_t>(GetParam()) * 7919u + 17u);
  SCOPED_TRACE(to_json(c).dump());
  RunOptions options;
  options.record_packets = true;
  auto net = run(c, options);
  EXPECT_EQ(net->outcome(), RunOutcome::kCompleted);
  EXPECT_FALSE(net->deadlock().has_value());
  EXPECT_EQ(net->scoreboard().violation_count(), 0u);
  for (const std::string& m : net->scoreboard().violations()) ADD_FAILURE() << m;
  // Every flit that entered (injected, or copied by a replicating or absorbing router) left.
  EXPECT_EQ(net->stats().flits_injected() + net->stats().flits_replicated(),
            net->stats().flits_ejected());
  EXPECT_EQ(net->flits_in_network(), 0u);
  EXPECT_EQ(net->scoreboard().live_packets(), 0u);
  // Every packet created reached its destinations (the scoreboard checks each exactly once);
  // a unicast packet has one, a multidestination worm several.
  const auto& log = net->stats().packet_log();
  std::set<PacketId> delivered;
  for (const DeliveredPacket& d : log) delivered.insert(d.id);
  EXPECT_EQ(delivered.size(), net->stats().packets_created());
  EXPECT_EQ(net->scoreboard().delivered_packets(), log.size());
  if (c.network.router.multidest == MultidestMode::kNone) {
    EXPECT_EQ(log.size(), net->stats().packets_created());
    // Every software multicast completed, with one packet per destination.
    const SoftwareMulticast& sm = net->software_multicast();
    EXPECT_EQ(sm.operations_outstanding(), 0u);
    EXPECT_EQ(sm.operations_completed(), sm.operations_created());
    if (!sm.latencies().empty()) {
      EXPECT_DOUBLE_EQ(sm.packets_per_operation(), c.traffic.multicast_destinations);
    }
  }
  EXPECT_EQ(net->multicast_table().live(), 0u);
  // No delivery beats the zero-load latency of its hops and length (a multidestination worm's
  // destination list only adds flits).
  const RouterConfig& r = c.network.router;
  ASSERT_FALSE(log.empty());
  for (const DeliveredPacket& d : log) {
    const Cycle bound =
        zero_load_formula(d.hops, static_cast<int>(d.record.length), r.pipeline_depth,
                          r.link_latency, r.credit_latency, r.buffer_depth);
    ASSERT_GE(d.delivered - d.record.created, bound)
        << "packet " << d.id << " " << d.record.src << "->" << d.record.dst
        << " L=" << d.record.length << " H=" << d.hops;
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, RandomConfig, ::testing::Range(0, 100),
                         ::testing::PrintToStringParamName());

// The 100 seeds above cover every variant the fuzz claims to draw, each several times.
TEST(RandomConfigDraws, CoverEveryTopologyPortModelAndMultidestinationMode) {
  std::map<std::string, int> seen;
  for (int i = 0; i < 100; ++i) {
    const Config c = random_config(static_cast<std::uint64_t>(i) * 7919u + 17u);
    const RouterConfig& r = c.network.router;
    ++seen[to_string(c.network.topology.kind)];
    ++seen[to_string(r.port_model)];
    ++seen["multidest " + to_string(r.multidest)];
    if (r.multidest == MultidestMode::kPath) ++seen["path " + to_string(r.replication)];
    if (r.multidest != MultidestMode::kNone) ++seen[to_string(r.header_encoding)];
    if (r.multidest != MultidestMode::kNone)
      ++seen[to_string(r.multidest) + " " + to_string(r.replication_flow)];
    if (r.multidest_vcs > 0) ++seen["reserved VCs"];
  }
  for (const char* k :
       {"mesh", "torus", "hypercube", "one_port", "k_port", "all_port", "multidest none",
        "multidest path", "multidest tree", "path synchronous", "path asynchronous", "address_list",
        "bit_string", "path cut_through", "tree cut_through", "reserved VCs"})
    EXPECT_GE(seen[k], 4) << k;
}

}  // namespace
}  // namespace wormsim::testing::network_fuzz_test
