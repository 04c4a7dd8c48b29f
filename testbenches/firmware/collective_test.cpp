// Collective harness end to end: processors, NIs and routers running the firmware.
//   - zero-load unicast latency through the whole node stack is exactly
//     alpha + 1 + T0(L, h) + 1 + gamma cycles (docs/timing-model.md, "node stack");
//   - the tau-model fit of simulated ping-pong recovers the preset's T_s and T_n (seed 000
//     section 5.2) within 2%;
//   - EDN broadcast takes seed 000 Table 3.1's steps from every source tried, recursive
//     doubling ceil(log2 N), and every node gets the right bytes exactly once;
//   - contention between messages of one operation is detected and classified.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "collective_harness.h"
#include "collective_report.h"
#include "collective_test_util.h"
#include "machine_preset.h"
#include "network_test_util.h"

namespace wormsim::collective_test {
namespace {

Config collective_config(std::vector<int> dims) {
  Config c = testing::mesh_config(std::move(dims));
  c.workload = Workload::kCollective;
  c.collective.roots = RootSelection::kOne;
  return c;
}

// A clean run (testing::run_collective_clean) that the network also reports as completed.
void run(CollectiveHarness& h) {
  ASSERT_NO_FATAL_FAILURE(testing::run_collective_clean(h));
  EXPECT_EQ(h.network().outcome(), RunOutcome::kCompleted);
}

struct UnicastCase {
  std::string name;
  Cycle alpha, gamma;
  int flit_bytes, pipeline, link, credit, depth;
  NodeId root, peer;
  PortModel ports = PortModel::kOnePort;
};

class NodeStackLatency : public ::testing::TestWithParam<UnicastCase> {};

TEST_P(NodeStackLatency, EqualsAlphaPlusNetworkPlusGamma) {
  const UnicastCase& u = GetParam();
  Config c = collective_config({8, 8});
  c.node.alpha_cycles = u.alpha;
  c.node.gamma_cycles = u.gamma;
  c.network.flit_bytes = u.flit_bytes;
  c.network.router.pipeline_depth = u.pipeline;
  c.network.router.link_latency = u.link;
  c.network.router.credit_latency = u.credit;
  c.network.router.buffer_depth = u.depth;
  c.network.router.port_model = u.ports;
  c.collective.algorithms = {CollectiveAlgorithm::kPingPong};
  c.collective.message_bytes = {1, 8, 40, 333};
  c.collective.root = u.root;
  c.collective.peer = u.peer;
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(run(h));
  const int hops = h.network().topology().distance(u.root, u.peer);
  for (const OperationResult& r : h.results()) {
    const int flits = static_cast<int>((r.op.bytes + static_cast<std::uint32_t>(u.flit_bytes) - 1) /
                                       static_cast<std::uint32_t>(u.flit_bytes));
    const Cycle expected =
        u.alpha + 1 +
        testing::zero_load_formula(hops, flits, u.pipeline, u.link, u.credit, u.depth) + 1 +
        u.gamma;
    // Ping-pong: both directions take the same time, so the one-way latency is exact.
    EXPECT_EQ(r.max_latency, static_cast<double>(expected)) << r.op.bytes << " bytes";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Timing, NodeStackLatency,
    ::testing::Values(UnicastCase{"neighbour", 100, 80, 1, 1, 1, 1, 4, 0, 1},
                      UnicastCase{"corner_to_corner", 7, 3, 4, 1, 1, 1, 8, 0, 63},
                      UnicastCase{"pipelined", 0, 0, 8, 3, 2, 1, 4, 9, 54},
                      UnicastCase{"shallow_buffers", 12, 40, 2, 2, 1, 3, 2, 27, 4},
                      UnicastCase{"all_port", 50, 50, 1, 1, 1, 1, 4, 18, 45, PortModel::kAllPort}),
    [](const auto& param_info) { return param_info.param.name; });

class TauFitTest : public ::testing::TestWithParam<std::string> {};

TEST_P(TauFitTest, RecoversThePresetWithin2Percent) {
  Config c = collective_config({8, 8});
  c.machine.preset = GetParam();
  apply_machine_preset(c);
  c.collective.algorithms = {CollectiveAlgorithm::kPingPong};
  c.collective.message_bytes = {32, 256, 1024, 2048, 4096, 8192};
  c.collective.root = 27;
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(run(h));
  const std::optional<TauFit> f = tau_fit(h);
  ASSERT_TRUE(f.has_value());
  const MachinePreset p = *find_machine_preset(GetParam());
  // Exactly: T_s = alpha + gamma + 3 + h cycles (node-stack formula with 1-byte flits, one
  // hop), T_n = one cycle per byte.
  const double cycle = c.network.clock_period_ns / 1000.0;
  EXPECT_NEAR(f->ts_us,
              static_cast<double>(c.node.alpha_cycles + c.node.gamma_cycles + 3 + 1) * cycle, 1e-9);
  EXPECT_NEAR(f->tn_us_per_byte, cycle, 1e-12);
  // Against the seed's numbers: within 2%, except where the fixed hardware cost (4 cycles)
  // is itself more than 2% of T_s (t3d_low_startup: 0.15 us; docs/collectives.md).
  const double ts = p.alpha_us + p.gamma_us;
  if (4 * cycle < 0.01 * ts) {
    EXPECT_NEAR(f->ts_us, ts, 0.02 * ts);
  }
  EXPECT_NEAR(f->tn_us_per_byte, p.beta_us_per_byte, 0.02 * p.beta_us_per_byte);
  RecordProperty("ts_us", std::to_string(f->ts_us));
  RecordProperty("tn_us_per_byte", std::to_string(f->tn_us_per_byte));
}

INSTANTIATE_TEST_SUITE_P(Presets, TauFitTest,
                         ::testing::Values("ncube2", "t3d", "t3d_low_startup", "paragon", "sp2"));

struct BroadcastCase {
  std::string name;
  int side;
  RootSelection roots;
  int sample;
};

class EdnBroadcast : public ::testing::TestWithParam<BroadcastCase> {};

// Seed 000 Table 3.1 for 2^k x 2^k meshes: log2(side) + 1 steps from every source; recursive
// doubling ceil(log2 N).
TEST_P(EdnBroadcast, Table31StepsExactlyOnceDataVerified) {
  const BroadcastCase& b = GetParam();
  Config c = collective_config({b.side, b.side});
  c.network.router.port_model = PortModel::kAllPort;
  c.network.router.vcs = 1;
  c.network.router.buffer_depth = 2;
  c.network.flit_bytes = 4;
  c.node.alpha_cycles = 3;
  c.node.gamma_cycles = 3;
  c.collective.algorithms = {CollectiveAlgorithm::kEdnBroadcast};
  if (b.side <= 32) c.collective.algorithms.push_back(CollectiveAlgorithm::kRecursiveDoubling);
  c.collective.message_bytes = {12};
  c.collective.roots = b.roots;
  c.collective.sample = b.sample;
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(run(h));
  const int k = static_cast<int>(std::lround(std::log2(b.side)));
  for (const OperationResult& r : h.results()) {
    EXPECT_EQ(r.op.destinations.size(), static_cast<std::size_t>(b.side * b.side - 1));
    if (r.op.algorithm == CollectiveAlgorithm::kEdnBroadcast)
      EXPECT_EQ(r.steps, k + 1) << "EDN from root " << r.op.root;
    else
      EXPECT_EQ(r.steps, 2 * k) << "RD from root " << r.op.root;
    EXPECT_EQ(r.messages, static_cast<std::size_t>(b.side * b.side - 1));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, EdnBroadcast,
    ::testing::Values(BroadcastCase{"k2_all_roots", 4, RootSelection::kAll, 0},
                      BroadcastCase{"k3_all_roots", 8, RootSelection::kAll, 0},
                      BroadcastCase{"k4_sample", 16, RootSelection::kSample, 12},
                      BroadcastCase{"k5_sample", 32, RootSelection::kSample, 4},
                      BroadcastCase{"k6_sample", 64, RootSelection::kSample, 2},
                      // k = 8 (256x256, 65536 nodes) with the default config's T3D timing:
                      // CliTest.LARGE_EdnBroadcast256x256AllPortOneRootFitsIn4GB.
                      BroadcastCase{"LARGE_k7_one", 128, RootSelection::kSample, 1}),
    [](const auto& param_info) { return param_info.param.name; });

TEST(Collectives, SeparateAddressingMulticastAndDimensionalBroadcastDeliverOnce) {
  Config c = collective_config({5, 7});
  c.node.alpha_cycles = 10;
  c.node.gamma_cycles = 10;
  c.collective.algorithms = {CollectiveAlgorithm::kSeparateAddressing,
                             CollectiveAlgorithm::kRecursiveDoubling,
                             CollectiveAlgorithm::kDimensionalBroadcast};
  c.collective.message_bytes = {0, 100};
  c.collective.roots = RootSelection::kSample;
  c.collective.sample = 3;
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(run(h));
  for (const OperationResult& r : h.results()) {
    const int expected =
        r.op.algorithm == CollectiveAlgorithm::kSeparateAddressing  ? 34  // one send per step
        : r.op.algorithm == CollectiveAlgorithm::kRecursiveDoubling ? 6   // ceil(log2 35)
                                                                    : 3 + 3;
    EXPECT_EQ(r.steps, expected) << to_string(r.op.algorithm);
  }
}

TEST(Collectives, MulticastToASubsetReachesOnlyThatSubset) {
  Config c = collective_config({8, 8});
  c.collective.algorithms = {CollectiveAlgorithm::kRecursiveDoubling,
                             CollectiveAlgorithm::kSeparateAddressing};
  c.collective.destinations = {3, 17, 22, 40, 41, 63, 5};
  c.collective.message_bytes = {64};
  c.collective.root = 9;
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(run(h));
  for (const OperationResult& r : h.results()) EXPECT_EQ(r.messages, 7u);
  EXPECT_EQ(h.results()[0].steps, 3);  // 8 members: log2 8
}

TEST(Collectives, DepthContentionIsDetected) {
  // Separate addressing sends to node 2 in step 1 and to node 3 in step 2; with alpha = 0
  // both leave node 0 at once on two injection channels (k-port, k = 2) and share the x+
  // link out of node 0: depth contention (seed 000 section 4.2).
  Config c = collective_config({8, 8});
  c.network.router.port_model = PortModel::kKPort;
  c.network.router.ports = 2;
  c.collective.algorithms = {CollectiveAlgorithm::kSeparateAddressing};
  c.collective.destinations = {2, 3};
  c.collective.message_bytes = {256};
  c.collective.root = 0;
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(run(h));
  EXPECT_EQ(h.results()[0].steps, 2);
  EXPECT_GE(h.results()[0].contention_depth, 1u);
  EXPECT_EQ(h.results()[0].contention_stepwise, 0u);
  // The two 32-flit worms (256 bytes, 8-byte flits) share the x+ links out of nodes 0 and 1
  // on different VCs: while both have a flit ready one of them loses the switch, so their
  // blocked flit-cycles add up to at least one worm length.
  EXPECT_GE(h.results()[0].blocked_cycles, 32u);
  EXPECT_EQ(h.results()[0].contention_stepwise + h.results()[0].contention_depth,
            h.log().contention().size());
}

TEST(Collectives, AMultiPacketMessageAloneIsNeverBlocked) {
  // Its packets queue behind each other and may take different VCs, but blocking counts
  // only waits on other messages (MessageRecord::blocked_cycles).
  Config c = collective_config({8, 8});
  c.network.router.vcs = 2;
  c.network.router.buffer_depth = 2;
  c.node.max_packet_bytes = 32;
  c.node.header_bytes = 4;
  c.collective.algorithms = {CollectiveAlgorithm::kPingPong};
  c.collective.message_bytes = {400, 1000};
  c.collective.root = 9;
  c.collective.peer = 62;
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(run(h));
  for (const OperationResult& r : h.results()) EXPECT_EQ(r.blocked_cycles, 0u) << r.op.bytes;
}

TEST(Collectives, EdnBeatsRecursiveDoublingForLongMessages) {
  // Seed 000 Figs. 3.14 and 3.16 at 2048 bytes (docs/collectives.md has the full curves).
  for (const char* preset : {"t3d"}) {
    Config c = collective_config({8, 8});
    c.machine.preset = preset;
    apply_machine_preset(c);
    c.network.router.port_model = PortModel::kAllPort;
    c.collective.algorithms = {CollectiveAlgorithm::kEdnBroadcast,
                               CollectiveAlgorithm::kRecursiveDoubling};
    c.collective.message_bytes = {2048};
    c.collective.roots = RootSelection::kSample;
    c.collective.sample = 4;
    CollectiveHarness h("h", c);
    ASSERT_NO_FATAL_FAILURE(run(h));
    const auto rows = summarise(h);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_LT(rows[0].max_latency_cycles, rows[1].max_latency_cycles);
    EXPECT_LT(rows[0].avg_path_length, rows[1].avg_path_length);
  }
}

// Hops of every message of a recursive-doubling broadcast over `chain` from chain[root],
// walked here: the holder of [lo, hi] sends to the first node of the upper half when it is in
// the lower half (the lower half takes the extra node), else to the last node of the lower
// half (seed 000 section 3.3.3).
void rd_hops(const std::vector<std::pair<int, int>>& chain, std::size_t h, std::size_t lo,
             std::size_t hi, std::vector<int>& hops) {
  while (hi > lo) {
    const std::size_t mid = lo + (hi - lo + 2) / 2;  // first of the upper half
    const std::size_t to = h < mid ? mid : mid - 1;
    hops.push_back(std::abs(chain[h].first - chain[to].first) +
                   std::abs(chain[h].second - chain[to].second));
    if (h < mid) {
      rd_hops(chain, to, mid, hi, hops);
      hi = mid - 1;
    } else {
      rd_hops(chain, to, lo, mid - 1, hops);
      lo = mid;
    }
  }
}

TEST(Collectives, RecursiveDoublingRotatedStartsTheChainAtTheRoot) {
  // recursive_doubling_rotated: the XY chain (x most significant) rotated to start at the
  // root. Steps ceil(log2 N) and the path lengths of the tree walked here; the plain chain's
  // paths are shorter from a root inside the mesh, which is why seed 000's RD (4.16 hops on
  // 32x32, section 3.3.5) is reconstructed as the rotated one (docs/collectives.md).
  Config c = collective_config({8, 8});
  c.network.router.port_model = PortModel::kAllPort;
  c.collective.algorithms = {CollectiveAlgorithm::kRecursiveDoubling,
                             CollectiveAlgorithm::kRecursiveDoublingRotated};
  c.collective.message_bytes = {16};
  c.collective.roots = RootSelection::kSample;
  c.collective.sample = 5;
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(run(h));
  std::vector<std::pair<int, int>> xy;  // sorted by x, then y
  for (int x = 0; x < 8; ++x)
    for (int y = 0; y < 8; ++y) xy.emplace_back(x, y);
  for (const OperationResult& r : h.results()) {
    EXPECT_EQ(r.steps, 6);
    const std::pair<int, int> root{static_cast<int>(r.op.root % 8),
                                   static_cast<int>(r.op.root / 8)};
    std::vector<std::pair<int, int>> chain = xy;
    std::size_t at =
        static_cast<std::size_t>(std::find(chain.begin(), chain.end(), root) - chain.begin());
    if (r.op.algorithm == CollectiveAlgorithm::kRecursiveDoublingRotated) {
      std::rotate(chain.begin(), chain.begin() + static_cast<std::ptrdiff_t>(at), chain.end());
      at = 0;
    }
    std::vector<int> hops;
    rd_hops(chain, at, 0, chain.size() - 1, hops);
    ASSERT_EQ(hops.size(), 63u);
    double sum = 0;
    for (int x : hops) sum += x;
    EXPECT_DOUBLE_EQ(r.avg_path_length, sum / 63) << describe_operation(r.op);
  }
}

}  // namespace
}  // namespace wormsim::collective_test

namespace wormsim::collective_test {
namespace {

// Hardware multicast through the node stack (docs/multidestination.md): one multidestination
// message per worm, every destination gets the bytes exactly once (the harness verifies).
TEST(MultidestCollectives, PathWormsReachRandomSetsAndBroadcastsExactlyOnce) {
  Config c = collective_config({8, 8});
  c.network.router.multidest = MultidestMode::kPath;
  c.network.router.port_model = PortModel::kOnePort;
  c.node.alpha_cycles = 20;
  c.node.gamma_cycles = 10;
  c.node.max_packet_bytes = 64;  // several packets (worms) per message
  c.node.header_bytes = 8;
  c.collective.algorithms = {CollectiveAlgorithm::kPathMulticast};
  c.collective.random_destinations = 13;
  c.collective.message_bytes = {1, 200};
  c.collective.roots = RootSelection::kSample;
  c.collective.sample = 4;
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(run(h));
  for (const OperationResult& r : h.results()) {
    EXPECT_EQ(r.messages, 13u);
    EXPECT_GE(r.steps, 1);
    EXPECT_LE(r.steps, 13);  // one worm per conforming path, one per step on one port
  }
}

TEST(MultidestCollectives, TreeWormBroadcastsInOneStepWithOneAlpha) {
  Config c = collective_config({6, 6});
  c.network.router.multidest = MultidestMode::kTree;
  c.node.alpha_cycles = 100;
  c.node.gamma_cycles = 50;
  c.collective.algorithms = {CollectiveAlgorithm::kTreeMulticast};
  c.collective.message_bytes = {64};
  c.collective.roots = RootSelection::kAll;
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(run(h));
  for (const OperationResult& r : h.results()) {
    EXPECT_EQ(r.steps, 1);
    EXPECT_EQ(r.messages, 35u);
    // One alpha at the root and one gamma per destination bound the latency from below;
    // replication costs no software time, so it stays far below two alphas.
    EXPECT_GE(r.max_latency, 150.0);
    EXPECT_LT(r.max_latency, 200.0 + 100.0);
  }
}

TEST(MultidestCollectives, AlgorithmsNeedTheirRouterSupport) {
  Config c = collective_config({4, 4});
  c.collective.algorithms = {CollectiveAlgorithm::kTreeMulticast};
  try {
    c.validate();
    FAIL() << "expected a config error";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "collective.algorithms[0]");
  }
}

}  // namespace
}  // namespace wormsim::collective_test
