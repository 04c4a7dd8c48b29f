// Randomised configurations: every deadlock-free combination of topology, VCs, buffers,
// pipeline, latencies, port model, allocator and traffic pattern must run to completion with
// a clean scoreboard and flit conservation. Each seed is its own test (and process); the
// configuration it draws is printed on failure.
#include <gtest/gtest.h>

#include <random>

#include "config_loader.h"
#include "network_test_util.h"

namespace wormsim::testing {
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
  auto net = run(c);
  EXPECT_EQ(net->outcome(), RunOutcome::kCompleted);
  EXPECT_FALSE(net->deadlock().has_value());
  EXPECT_EQ(net->scoreboard().violation_count(), 0u);
  for (const std::string& m : net->scoreboard().violations()) ADD_FAILURE() << m;
  EXPECT_EQ(net->stats().flits_injected(), net->stats().flits_ejected());
  EXPECT_EQ(net->flits_in_network(), 0u);
  EXPECT_EQ(net->scoreboard().live_packets(), 0u);
  EXPECT_EQ(net->scoreboard().delivered_packets(), net->stats().packets_created());
}

INSTANTIATE_TEST_SUITE_P(Seeds, RandomConfig, ::testing::Range(0, 100));

}  // namespace
}  // namespace wormsim::testing
