// Scatter (firmware/scatter.cpp; seed 003): the binomial plan's structure, HMT's leaders,
// zero-load latency of ST and SMT against the closed formula (sequential alphas, then the
// unicast/path-worm T0 of docs/timing-model.md), exactly-once delivery of each destination's
// own chunk for all four schemes on mesh and torus, and the config errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>

#include "collective_harness.h"
#include "collective_test_util.h"
#include "multicast_route.h"
#include "network_test_util.h"

namespace wormsim::scatter_test {
namespace {

int ceil_log2(std::size_t n) {
  int k = 0;
  while ((std::size_t{1} << k) < n) ++k;
  return k;
}

TEST(BinomialScatter, EveryNodeGetsItsSubtreeOnceInCeilLog2Steps) {
  for (std::size_t n = 1; n <= 40; ++n)
    for (std::size_t root = 0; root < n; ++root) {
      std::vector<NodeId> chain(n);
      std::iota(chain.begin(), chain.end(), 100u);  // ids unrelated to positions
      std::map<NodeId, int> received_from;          // node -> number of messages naming it
      std::map<NodeId, int> step{{chain[root], 0}};
      std::vector<NodeId> frontier{chain[root]};
      int max_step = 0;
      while (!frontier.empty()) {
        const NodeId x = frontier.back();
        frontier.pop_back();
        const fw::BinomialRole role = fw::binomial_scatter_role(chain, root, x);
        for (std::size_t g = 0; g < role.sends.size(); ++g) {
          const fw::ScatterSend& s = role.sends[g];
          ++received_from[s.to];
          // The receiver expects exactly the chunks the sender carries, its own among them.
          const fw::BinomialRole child = fw::binomial_scatter_role(chain, root, s.to);
          EXPECT_EQ(child.receives, s.carries) << "n=" << n << " root=" << root;
          EXPECT_NE(std::find(s.carries.begin(), s.carries.end(), s.to), s.carries.end());
          step[s.to] = step[x] + 1 + static_cast<int>(g);
          max_step = std::max(max_step, step[s.to]);
          frontier.push_back(s.to);
        }
      }
      EXPECT_EQ(received_from.size(), n - 1) << "n=" << n << " root=" << root;
      for (const auto& [node, count] : received_from) EXPECT_EQ(count, 1) << node;
      EXPECT_EQ(received_from.count(chain[root]), 0u);
      EXPECT_EQ(max_step, ceil_log2(n)) << "n=" << n << " root=" << root;
    }
}

TEST(HmtLeaders, LeaderSharesTheRootsLineAndTheNodesCoordinate) {
  const Topology t(testing::mesh_config({8, 8}).network.topology);
  const NodeId root = t.node_at({3, 5});
  for (int n = 0; n < t.nodes(); ++n) {
    const NodeId l = fw::line_leader(t, 0, root, static_cast<NodeId>(n));
    EXPECT_EQ(t.coord(l, 0), t.coord(static_cast<NodeId>(n), 0));
    EXPECT_EQ(t.coord(l, 1), 5);
  }
  EXPECT_EQ(fw::line_leader(t, 1, root, t.node_at({7, 1})), t.node_at({3, 1}));
}

Config scatter_config(std::vector<int> dims, CollectiveAlgorithm alg) {
  Config c = testing::mesh_config(std::move(dims));
  c.workload = Workload::kCollective;
  c.network.router.multidest = MultidestMode::kPath;
  c.network.router.port_model = PortModel::kOnePort;
  c.collective.algorithms = {alg};
  c.collective.roots = RootSelection::kOne;
  return c;
}

// ST at zero load: the i-th unicast's doorbell rings after i alphas (serialised on the root),
// then it takes 1 + T0(h, L) + 1 cycles to the destination NI, then gamma.
TEST(ScatterLatency, SequentialTreeIsIAlphasPlusUnicastT0) {
  Config c = scatter_config({6, 6}, CollectiveAlgorithm::kScatterSequential);
  c.node.alpha_cycles = 300;
  c.node.gamma_cycles = 40;
  c.network.flit_bytes = 4;
  c.collective.root = 14;
  c.collective.message_bytes = {8, 100};
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(testing::run_collective_clean(h));
  const Topology& t = h.network().topology();
  const std::vector<int> order{0, 1};
  for (const OperationResult& r : h.results()) {
    const std::vector<NodeId> chain = fw::dimension_ordered_chain(t, order, r.op.destinations);
    const int flits = static_cast<int>((r.op.bytes + 3) / 4);
    for (std::size_t i = 0; i < chain.size(); ++i) {
      const std::size_t k = static_cast<std::size_t>(
          std::find(r.op.destinations.begin(), r.op.destinations.end(), chain[i]) -
          r.op.destinations.begin());
      const Cycle expected =
          (i + 1) * 300 + 2 +
          testing::zero_load_formula(t.distance(14, chain[i]), flits, 1, 1, 1, 4) + 40;
      EXPECT_EQ(r.latency[k], expected) << "destination " << chain[i] << ", " << r.op.bytes << " B";
    }
    EXPECT_EQ(r.steps, static_cast<int>(chain.size()));  // one unicast per step
    EXPECT_EQ(r.blocked_cycles, 0u);
  }
}

// SMT at zero load: worm i (of the root's conforming paths, in order) rings after i alphas
// and reaches each member d like a unicast over distance(root, d) hops whose length is the
// whole worm: m chunks plus the destination-list header flits.
TEST(ScatterLatency, SmtWormIsIAlphasPlusPathT0OfTheWholeWorm) {
  Config c = scatter_config({6, 6}, CollectiveAlgorithm::kScatterSmt);
  c.node.alpha_cycles = 500;
  c.node.gamma_cycles = 25;
  c.network.flit_bytes = 4;
  c.collective.root = 20;
  c.collective.message_bytes = {4, 24};
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(testing::run_collective_clean(h));
  const Topology& t = h.network().topology();
  const auto paths =
      split_into_paths(h.network().route_compute(), t, 20, h.results().front().op.destinations);
  for (const OperationResult& r : h.results()) {
    EXPECT_EQ(r.messages, r.op.destinations.size());  // one record per destination
    for (std::size_t i = 0; i < paths.size(); ++i) {
      const int extra = header_flits(HeaderEncoding::kAddressList, paths[i].size(), 36, 4) - 1;
      const int flits = static_cast<int>((paths[i].size() * r.op.bytes + 3) / 4) + extra;
      for (NodeId d : paths[i]) {
        const std::size_t k = static_cast<std::size_t>(
            std::find(r.op.destinations.begin(), r.op.destinations.end(), d) -
            r.op.destinations.begin());
        const Cycle expected = (i + 1) * 500 + 2 +
                               testing::zero_load_formula(t.distance(20, d), flits, 1, 1, 1, 4) +
                               25;
        EXPECT_EQ(r.latency[k], expected) << "worm " << i << " destination " << d;
      }
    }
    EXPECT_GT(r.header_flits, 0u);
  }
}

struct SchemeCase {
  std::string name;
  TopologyKind kind;
  PortModel ports;
  int random_destinations;  // 0 = every other node
};

class ScatterSchemes : public ::testing::TestWithParam<SchemeCase> {};

TEST_P(ScatterSchemes, EveryDestinationGetsItsOwnChunkExactlyOnce) {
  const SchemeCase& s = GetParam();
  Config c = scatter_config({4, 4}, CollectiveAlgorithm::kScatterSequential);
  c.network.topology.kind = s.kind;
  c.network.router.port_model = s.ports;
  if (s.kind == TopologyKind::kTorus) c.network.router.vcs = 2;  // dateline classes
  c.node.alpha_cycles = 60;
  c.node.gamma_cycles = 10;
  c.node.max_packet_bytes = 48;  // several packets per message
  c.node.header_bytes = 4;
  c.collective.algorithms = {CollectiveAlgorithm::kScatterSequential,
                             CollectiveAlgorithm::kScatterBinomial,
                             CollectiveAlgorithm::kScatterSmt, CollectiveAlgorithm::kScatterHmt};
  c.collective.message_bytes = {1, 37};
  c.collective.roots = RootSelection::kSample;
  c.collective.sample = 3;
  c.collective.random_destinations = s.random_destinations;
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(testing::run_collective_clean(h));
  std::map<CollectiveAlgorithm, double> latency;
  for (const OperationResult& r : h.results()) {
    const std::size_t d = r.op.destinations.size();
    switch (r.op.algorithm) {
      case CollectiveAlgorithm::kScatterSequential: EXPECT_EQ(r.steps, static_cast<int>(d)); break;
      case CollectiveAlgorithm::kScatterBinomial:
        EXPECT_EQ(r.steps, ceil_log2(d + 1));
        EXPECT_EQ(r.messages, d);
        break;
      default: break;
    }
    if (r.op.bytes == 1) latency[r.op.algorithm] = std::max(latency[r.op.algorithm], r.max_latency);
  }
  // With alpha dominating small chunks, fewer start-ups on the critical path win (seed 003).
  EXPECT_LT(latency[CollectiveAlgorithm::kScatterSmt],
            latency[CollectiveAlgorithm::kScatterSequential]);
  EXPECT_LT(latency[CollectiveAlgorithm::kScatterHmt],
            latency[CollectiveAlgorithm::kScatterSequential]);
}

INSTANTIATE_TEST_SUITE_P(
    Collectives, ScatterSchemes,
    ::testing::Values(
        SchemeCase{"mesh_one_port_all", TopologyKind::kMesh, PortModel::kOnePort, 0},
        SchemeCase{"mesh_all_port_random", TopologyKind::kMesh, PortModel::kAllPort, 9},
        SchemeCase{"torus_all_port_all", TopologyKind::kTorus, PortModel::kAllPort, 0},
        SchemeCase{"torus_one_port_random", TopologyKind::kTorus, PortModel::kOnePort, 6}),
    [](const auto& param_info) { return param_info.param.name; });

// Under Hamiltonian-path routing SMT's paths are the dual-path high and low chains (the low
// one in falling label order); each member still finds its own chunk.
TEST(ScatterSchemes, SmtUnderHamiltonianRoutingUsesTheTwoChains) {
  Config c = scatter_config({4, 4}, CollectiveAlgorithm::kScatterSmt);
  c.network.routing.algorithm = RoutingAlgorithm::kHamiltonian;
  c.node.alpha_cycles = 40;
  c.collective.message_bytes = {3, 20};
  c.collective.roots = RootSelection::kAll;
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(testing::run_collective_clean(h));
  for (const OperationResult& r : h.results()) {
    const auto paths = split_into_paths(h.network().route_compute(), h.network().topology(),
                                        r.op.root, r.op.destinations);
    EXPECT_LE(paths.size(), 2u);
    EXPECT_EQ(r.steps, static_cast<int>(paths.size()));  // one-port: one worm per step
  }
}

TEST(ScatterConfig, ErrorsNameTheKey) {
  const auto key_of = [](const Config& c) {
    try {
      c.validate();
    } catch (const ConfigError& e) {
      return e.key();
    }
    return std::string("(accepted)");
  };
  Config c = scatter_config({8, 8}, CollectiveAlgorithm::kScatterSmt);
  c.node.max_packet_bytes = 4096;               // packets within their 65535 flits
  c.collective.message_bytes = {1024, 270000};  // 63 x 270000 > the 16 MiB message window
  EXPECT_EQ(key_of(c), "collective.message_bytes[1]");
  c.collective.message_bytes = {1024};
  EXPECT_EQ(key_of(c), "(accepted)");
  c.network.router.multidest = MultidestMode::kNone;
  EXPECT_EQ(key_of(c), "collective.algorithms[0]");
  c = scatter_config({8, 8}, CollectiveAlgorithm::kScatterHmt);
  c.collective.message_bytes = {64};
  c.network.routing.algorithm = RoutingAlgorithm::kHamiltonian;
  EXPECT_EQ(key_of(c), "collective.algorithms[0]");
  c = scatter_config({8, 8}, CollectiveAlgorithm::kScatterBinomial);
  c.node.max_packet_bytes = 4096;
  c.collective.message_bytes = {524288};  // BT's first message: 32 of 64 chunks = 16 MiB, fits
  c.network.router.multidest = MultidestMode::kNone;  // unicast schemes need no multidest
  EXPECT_EQ(key_of(c), "(accepted)");
  c.collective.message_bytes = {64, 524289};
  EXPECT_EQ(key_of(c), "collective.message_bytes[1]");
  c.collective.algorithms = {CollectiveAlgorithm::kScatterSequential};  // one chunk per message
  c.collective.message_bytes = {16u << 20};
  EXPECT_EQ(key_of(c), "(accepted)");
}

}  // namespace
}  // namespace wormsim::scatter_test
