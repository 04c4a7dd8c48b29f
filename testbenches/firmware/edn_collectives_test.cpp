// EDN reduction and gather and the direct matrix transpose end to end in the collective harness
// (seed 000 sections 3.5-3.6; docs/edn-reduction-transpose.md):
//   - edn_reduce and edn_gather on 4x4 (every root), 8x8 and 16x16 (sampled roots), and on
//     meshes that are not 2^k x 2^k (5x5, 10x10, 20x20 of Table 3.7, 6x6, 7x7, 8x4, 5x9), all-port,
//     XY: every receiver's bytes verified by the harness (firmware/collective_data.h), N - 1
//     messages, the steps the harness reads from the message tags equal to the pure
//     function's (fw::EdnReduction, checked against seed 000 Table 3.6 in edn_reduction_test),
//     and no contention between two messages of the same step: seed 000 section 3.5's point
//     of the rotated pattern is that every step's unicasts share no channel;
//   - direct_transpose on 4x4 and 8x8 meshes with long messages, so that every pair of
//     messages that shares a channel overlaps in time: the number of messages involved in a
//     contention event (as waiter or holder) is n^2 - n - 2, seed 000 section 3.6 / Fig. 3.27
//     ("only two of the messages do not have to compete for at least one channel"), and the
//     two free ones are (row 1, column 0) -> (0, 1) and (n - 2, n - 1) -> (n - 1, n - 2);
//     the harness's contention_stepwise counts (waiter, holder) pairs, not messages, so the
//     test checks it against the pairs of messages that share a link, walked here by hand;
//   - edn_transpose on 4x4, 8x8 and 16x16, all-port, XY (seed 000 section 3.6, Fig. 3.28):
//     every node's block verified byte for byte by the harness, k steps for 2^k x 2^k as the
//     seed states, the pure function's messages (fw::EdnTranspose, checked for link-disjoint
//     XY steps in edn_transpose_test), and no contention between two messages of one step:
//     the seed's claim for even k (4x4, 16x16); for odd k (8x8) the seed counts 3n/4 messages
//     in contention, and the reconstruction is link-disjoint there too
//     (docs/edn-reduction-transpose.md), so the test expects none either;
//   - edn_broadcast on meshes other than 2^k x 2^k (seed 000 sections 3.3.2-3.4, fw::EdnMesh):
//     5x5, 6x6, 7x7 (Fig. 3.11's blocks), 10x10, 12x12, 14x14 (Tables 3.2-3.4), an 8x4 and a 9x9
//     mesh, 4x4x4, 4x4x5 and 8x8x5 (Table 3.5), all-port, XY/XYZ: every node gets the root's
//     bytes once (N - 1 messages), the harness's steps equal the pure function's (startup +
//     tree height, checked against the seed's tables in edn_mesh_test) and lie in the table's
//     [min total, max total], and no two messages of one step meet (stepwise contention 0,
//     the seed's "without channel contention");
//   - edn_transpose on 8x8 and 32x32 (odd k) with 2048-byte blocks: the messages involved in
//     contention events between steps, counted from the contention log for comparison with the
//     seed's 3n/4 (recorded as test properties and printed; the docs report the numbers). The
//     seed explains it by nodes that run ahead ("messages in those blocks along the major
//     diagonal may begin transmission at the same time that other messages from off-diagonal
//     blocks are being sent across the network"); the test asserts only that every event
//     pairs messages of different steps over a shared link (walked here).
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <set>

#include "collective_data.h"
#include "collective_harness.h"
#include "collective_test_util.h"
#include "edn_mesh.h"
#include "edn_reduction.h"
#include "edn_transpose.h"
#include "network_test_util.h"

namespace wormsim::edn_collectives_test {
namespace {

Config edn_config(int side, CollectiveAlgorithm alg) {
  Config c = testing::mesh_config({side, side});
  c.network.router.port_model = PortModel::kAllPort;
  c.workload = Workload::kCollective;
  c.collective.algorithms = {alg};
  c.node.alpha_cycles = 20;
  c.node.gamma_cycles = 10;
  c.node.combine_cycles_per_element = 1;
  return c;
}

struct EdnCase {
  std::string name;
  CollectiveAlgorithm alg;
  int side;
  RootSelection roots;
  int sample;
  std::vector<std::uint32_t> bytes;
};

class EdnReduceGather : public ::testing::TestWithParam<EdnCase> {};

TEST_P(EdnReduceGather, VerifiedInThePureFunctionsStepsWithoutStepwiseContention) {
  const EdnCase& e = GetParam();
  Config c = edn_config(e.side, e.alg);
  c.collective.roots = e.roots;
  if (e.roots == RootSelection::kSample) c.collective.sample = e.sample;
  c.collective.message_bytes = e.bytes;
  c.validate();
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(testing::run_collective_clean(h));
  int k = 0;
  while ((1 << k) < e.side) ++k;
  const fw::EdnReduction pattern(k);
  const std::size_t nodes = static_cast<std::size_t>(e.side * e.side);
  const std::size_t roots = e.roots == RootSelection::kAll ? nodes : std::size_t(e.sample);
  ASSERT_EQ(h.results().size(), roots * e.bytes.size());
  std::set<NodeId> seen;
  for (const OperationResult& r : h.results()) {
    int steps = 0;
    for (const fw::EdnSend& s : pattern.sends(r.op.root)) steps = std::max(steps, s.step);
    EXPECT_EQ(r.steps, steps) << "root " << r.op.root;
    EXPECT_EQ(r.messages, nodes - 1) << "root " << r.op.root;
    EXPECT_EQ(r.latency.size(), 1u);
    EXPECT_EQ(r.contention_stepwise, 0u) << "root " << r.op.root;
    seen.insert(r.op.root);
  }
  EXPECT_EQ(seen.size(), roots);
}

INSTANTIATE_TEST_SUITE_P(Sizes, EdnReduceGather,
                         ::testing::Values(EdnCase{"reduce_4x4_all_roots",
                                                   CollectiveAlgorithm::kEdnReduce,
                                                   4,
                                                   RootSelection::kAll,
                                                   0,
                                                   {8, 64}},
                                           EdnCase{"gather_4x4_all_roots",
                                                   CollectiveAlgorithm::kEdnGather,
                                                   4,
                                                   RootSelection::kAll,
                                                   0,
                                                   {8, 40}},
                                           EdnCase{"reduce_8x8_sample",
                                                   CollectiveAlgorithm::kEdnReduce,
                                                   8,
                                                   RootSelection::kSample,
                                                   6,
                                                   {16, 256}},
                                           EdnCase{"gather_8x8_sample",
                                                   CollectiveAlgorithm::kEdnGather,
                                                   8,
                                                   RootSelection::kSample,
                                                   6,
                                                   {16}},
                                           EdnCase{"reduce_16x16_sample",
                                                   CollectiveAlgorithm::kEdnReduce,
                                                   16,
                                                   RootSelection::kSample,
                                                   3,
                                                   {32}},
                                           EdnCase{"gather_16x16_sample",
                                                   CollectiveAlgorithm::kEdnGather,
                                                   16,
                                                   RootSelection::kSample,
                                                   2,
                                                   {8}}),
                         [](const auto& param_info) { return param_info.param.name; });

// Seed 000 section 3.5 on meshes other than 2^k x 2^k (Table 3.7's 5 x 2^k, the 6 x 2^k and
// 7 x 2^k the text says behave alike, and rectangles): verified, N - 1 messages, the pure
// function's steps, no contention within a step.
struct EdnMeshReduceCase {
  std::string name;
  CollectiveAlgorithm alg;
  std::vector<int> dims;
  int sample;
};

class EdnMeshReduceGather : public ::testing::TestWithParam<EdnMeshReduceCase> {};

TEST_P(EdnMeshReduceGather, VerifiedInThePureFunctionsStepsWithoutStepwiseContention) {
  const EdnMeshReduceCase& e = GetParam();
  Config c = edn_config(4, e.alg);
  c.network.topology.dims = e.dims;
  c.collective.roots = RootSelection::kSample;
  c.collective.sample = e.sample;
  c.collective.message_bytes = {16, 200};
  c.node.max_packet_bytes = 64;  // 200-byte blocks travel in several packets
  c.validate();
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(testing::run_collective_clean(h));
  const fw::EdnReduction pattern(e.dims);
  const std::size_t nodes = static_cast<std::size_t>(e.dims[0] * e.dims[1]);
  ASSERT_EQ(h.results().size(), static_cast<std::size_t>(e.sample) * 2);
  for (const OperationResult& r : h.results()) {
    int steps = 0;
    for (const fw::EdnSend& s : pattern.sends(r.op.root)) steps = std::max(steps, s.step);
    EXPECT_EQ(r.steps, steps) << "root " << r.op.root;
    EXPECT_EQ(r.messages, nodes - 1) << "root " << r.op.root;
    EXPECT_EQ(r.contention_stepwise, 0u) << "root " << r.op.root;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Meshes, EdnMeshReduceGather,
    ::testing::Values(
        EdnMeshReduceCase{"reduce_5x5", CollectiveAlgorithm::kEdnReduce, {5, 5}, 6},
        EdnMeshReduceCase{"gather_5x5", CollectiveAlgorithm::kEdnGather, {5, 5}, 6},
        EdnMeshReduceCase{"reduce_10x10", CollectiveAlgorithm::kEdnReduce, {10, 10}, 4},
        EdnMeshReduceCase{"gather_6x6", CollectiveAlgorithm::kEdnGather, {6, 6}, 4},
        EdnMeshReduceCase{"reduce_7x7", CollectiveAlgorithm::kEdnReduce, {7, 7}, 4},
        EdnMeshReduceCase{"reduce_20x20", CollectiveAlgorithm::kEdnReduce, {20, 20}, 2},
        EdnMeshReduceCase{"gather_8x4", CollectiveAlgorithm::kEdnGather, {8, 4}, 4},
        EdnMeshReduceCase{"reduce_5x9", CollectiveAlgorithm::kEdnReduce, {5, 9}, 4}),
    [](const auto& param_info) { return param_info.param.name; });

// Another operator and element type than the default int32 sum, from one root (the harness
// checks the root's vector against the element-wise maximum it computes itself).
TEST(EdnReduce, MaxOverFloat64) {
  Config c = edn_config(8, CollectiveAlgorithm::kEdnReduce);
  c.collective.roots = RootSelection::kOne;
  c.collective.root = 27;
  c.collective.reduce_op = ReduceOp::kMax;
  c.collective.reduce_type = ReduceType::kFloat64;
  c.collective.message_bytes = {8, 96};
  c.validate();
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(testing::run_collective_clean(h));
  EXPECT_EQ(h.results().size(), 2u);
}

// ---- Direct transpose: seed 000 Fig. 3.27 ---------------------------------------------------

// Node (x, y) is id x + y * n; XY routing resolves x first. Directed links of the route.
std::vector<std::pair<int, int>> xy_links(int n, int ax, int ay, int bx, int by) {
  std::vector<std::pair<int, int>> out;
  for (; ax != bx; ax += bx > ax ? 1 : -1) out.emplace_back(ax + ay * n, bx > ax ? 0 : 1);
  for (; ay != by; ay += by > ay ? 1 : -1) out.emplace_back(ax + ay * n, by > ay ? 2 : 3);
  return out;
}

class DirectTranspose : public ::testing::TestWithParam<int> {};

TEST_P(DirectTranspose, AllButTwoMessagesMeetContention) {
  const int n = GetParam();
  Config c = testing::mesh_config({n, n});
  c.network.router.port_model = PortModel::kAllPort;
  c.workload = Workload::kCollective;
  c.collective.algorithms = {CollectiveAlgorithm::kDirectTranspose};
  c.collective.message_bytes = {2048};  // long: every two messages on one link overlap
  c.validate();
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(testing::run_collective_clean(h));
  ASSERT_EQ(h.results().size(), 1u);
  const OperationResult& r = h.results()[0];
  EXPECT_EQ(r.steps, 1);
  EXPECT_EQ(r.messages, static_cast<std::size_t>(n * n - n));
  // Messages involved in contention, from the harness's contention log.
  const auto& recs = h.log().records();
  std::set<std::size_t> involved;
  for (const ContentionEvent& e : h.log().contention()) {
    involved.insert(e.waiting);
    involved.insert(e.holder);
  }
  EXPECT_EQ(involved.size(), static_cast<std::size_t>(n * n - n - 2));
  std::set<std::pair<NodeId, NodeId>> free;
  for (std::size_t i = 0; i < recs.size(); ++i)
    if (!involved.count(i)) free.insert({recs[i].src, recs[i].dst});
  const auto id = [n](int x, int y) { return static_cast<NodeId>(x + y * n); };
  // (row 1, column 0) -> (row 0, column 1) and (n - 2, n - 1) -> (n - 1, n - 2), as (x, y).
  EXPECT_EQ(free, (std::set<std::pair<NodeId, NodeId>>{{id(0, 1), id(1, 0)},
                                                       {id(n - 1, n - 2), id(n - 2, n - 1)}}));
  // Pairs of messages that share a directed link; each such pair overlaps in time, so one of
  // the two waits for the other at least once.
  std::vector<std::vector<std::pair<int, int>>> routes;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x)
      if (x != y) routes.push_back(xy_links(n, x, y, y, x));
  std::size_t sharing = 0;
  for (std::size_t a = 0; a < routes.size(); ++a)
    for (std::size_t b = a + 1; b < routes.size(); ++b)
      if (std::any_of(routes[a].begin(), routes[a].end(), [&](const auto& l) {
            return std::find(routes[b].begin(), routes[b].end(), l) != routes[b].end();
          }))
        ++sharing;
  std::set<std::pair<std::size_t, std::size_t>> pairs;
  for (const ContentionEvent& e : h.log().contention())
    pairs.insert({std::min(e.waiting, e.holder), std::max(e.waiting, e.holder)});
  EXPECT_LE(pairs.size(), sharing);
  EXPECT_GE(pairs.size(), static_cast<std::size_t>(n * n - n - 2) / 2);
  // Every event of this one-step operation is stepwise (ordered pairs: both directions count).
  EXPECT_EQ(r.contention_stepwise, h.log().contention().size());
  EXPECT_EQ(r.contention_depth, 0u);
}

INSTANTIATE_TEST_SUITE_P(Sizes, DirectTranspose, ::testing::Values(4, 8),
                         [](const auto& param_info) {
                           return "n" + std::to_string(param_info.param);
                         });

// ---- EDN transpose: seed 000 section 3.6, Fig. 3.28 -----------------------------------------

class EdnTransposeRun : public ::testing::TestWithParam<int> {};

TEST_P(EdnTransposeRun, VerifiedInKStepsWithoutStepwiseContention) {
  const int side = GetParam();
  Config c = edn_config(side, CollectiveAlgorithm::kEdnTranspose);
  c.collective.message_bytes = {8, 2048};  // 2048: messages that share a link would overlap
  c.validate();
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(testing::run_collective_clean(h));
  int k = 0;
  while ((1 << k) < side) ++k;
  const fw::EdnTranspose pattern(k);
  ASSERT_EQ(h.results().size(), 2u);
  for (const OperationResult& r : h.results()) {
    EXPECT_EQ(r.steps, k) << r.op.bytes << " bytes";
    EXPECT_EQ(r.messages, pattern.sends().size()) << r.op.bytes << " bytes";
    EXPECT_EQ(r.latency.size(), static_cast<std::size_t>(side * side));
    EXPECT_EQ(r.contention_stepwise, 0u) << r.op.bytes << " bytes";
  }
}

INSTANTIATE_TEST_SUITE_P(Sizes, EdnTransposeRun, ::testing::Values(4, 8, 16),
                         [](const auto& param_info) {
                           return "n" + std::to_string(param_info.param);
                         });

class EdnTransposeOddK : public ::testing::TestWithParam<int> {};

TEST_P(EdnTransposeOddK, ContentionOnlyBetweenSteps) {
  const int n = GetParam();
  Config c = edn_config(n, CollectiveAlgorithm::kEdnTranspose);
  c.collective.message_bytes = {2048};
  c.validate();
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(testing::run_collective_clean(h));
  int k = 0;
  while ((1 << k) < n) ++k;
  ASSERT_EQ(k % 2, 1);
  const auto exchange = static_cast<std::uint32_t>(k / 2 + 1);  // the middle step
  const auto& recs = h.log().records();
  std::set<std::size_t> involved, involved_exchange;
  for (const ContentionEvent& e : h.log().contention()) {
    involved.insert(e.waiting);
    involved.insert(e.holder);
    const MessageRecord& a = recs[e.waiting];
    const MessageRecord& b = recs[e.holder];
    EXPECT_NE(a.tag, b.tag) << "contention within one step";
    const auto ra = xy_links(n, static_cast<int>(a.src) % n, static_cast<int>(a.src) / n,
                             static_cast<int>(a.dst) % n, static_cast<int>(a.dst) / n);
    const auto rb = xy_links(n, static_cast<int>(b.src) % n, static_cast<int>(b.src) / n,
                             static_cast<int>(b.dst) % n, static_cast<int>(b.dst) / n);
    EXPECT_TRUE(std::any_of(ra.begin(), ra.end(), [&](const auto& l) {
      return std::find(rb.begin(), rb.end(), l) != rb.end();
    }));
    if (a.tag == exchange) involved_exchange.insert(e.waiting);
    if (b.tag == exchange) involved_exchange.insert(e.holder);
  }
  ASSERT_EQ(h.results().size(), 1u);
  EXPECT_EQ(h.results()[0].contention_stepwise, 0u);
  RecordProperty("messages_in_contention", static_cast<int>(involved.size()));
  RecordProperty("exchange_messages_in_contention", static_cast<int>(involved_exchange.size()));
  RecordProperty("seed_3n_over_4", 3 * n / 4);
  std::cout << n << "x" << n << ": " << involved.size() << " messages in contention events ("
            << involved_exchange.size() << " of the " << n
            << " exchange messages); seed: 3n/4 = " << 3 * n / 4 << "\n";
}

INSTANTIATE_TEST_SUITE_P(Sizes, EdnTransposeOddK, ::testing::Values(8, 32),
                         [](const auto& param_info) {
                           return "n" + std::to_string(param_info.param);
                         });

// ---- EDN broadcast on general meshes: seed 000 sections 3.3.2-3.4 ---------------------------

struct BroadcastCase {
  std::string name;
  std::vector<int> dims;
  RootSelection roots;
  int sample;
  int min_total, max_total;  // seed 000 Tables 3.2-3.5 (0: no table row)
};

class EdnBroadcastGeneral : public ::testing::TestWithParam<BroadcastCase> {};

TEST_P(EdnBroadcastGeneral, VerifiedInThePatternsStepsWithoutStepwiseContention) {
  const BroadcastCase& b = GetParam();
  Config c = testing::mesh_config(b.dims);
  c.network.router.port_model = PortModel::kAllPort;
  c.workload = Workload::kCollective;
  c.collective.algorithms = {CollectiveAlgorithm::kEdnBroadcast};
  c.collective.roots = b.roots;
  if (b.roots == RootSelection::kSample) c.collective.sample = b.sample;
  c.collective.message_bytes = {24};
  c.node.alpha_cycles = 20;
  c.node.gamma_cycles = 10;
  c.validate();
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(testing::run_collective_clean(h));
  const fw::EdnMesh pattern(b.dims);
  const auto nodes = static_cast<std::size_t>(pattern.nodes());
  const std::size_t roots = b.roots == RootSelection::kAll ? nodes : std::size_t(b.sample);
  ASSERT_EQ(h.results().size(), roots);
  for (const OperationResult& r : h.results()) {
    EXPECT_EQ(r.messages, nodes - 1) << "root " << r.op.root;
    EXPECT_EQ(r.steps, pattern.startup_steps(r.op.root) + pattern.height()) << "root " << r.op.root;
    if (b.max_total > 0) {
      EXPECT_GE(r.steps, b.min_total) << "root " << r.op.root;
      EXPECT_LE(r.steps, b.max_total) << "root " << r.op.root;
    }
    EXPECT_EQ(r.contention_stepwise, 0u) << "root " << r.op.root;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, EdnBroadcastGeneral,
    ::testing::Values(BroadcastCase{"m5x5_all_roots", {5, 5}, RootSelection::kAll, 0, 3, 4},
                      BroadcastCase{"m6x6_sample", {6, 6}, RootSelection::kSample, 8, 3, 4},
                      BroadcastCase{"m7x7_all_roots", {7, 7}, RootSelection::kAll, 0, 3, 4},
                      BroadcastCase{"m10x10_sample", {10, 10}, RootSelection::kSample, 6, 4, 5},
                      BroadcastCase{"m12x12_sample", {12, 12}, RootSelection::kSample, 4, 4, 5},
                      BroadcastCase{"m14x14_sample", {14, 14}, RootSelection::kSample, 4, 4, 5},
                      BroadcastCase{"m8x4_all_roots", {8, 4}, RootSelection::kAll, 0, 0, 0},
                      BroadcastCase{"m9x9_sample", {9, 9}, RootSelection::kSample, 4, 0, 0},
                      BroadcastCase{"m4x4x4_sample", {4, 4, 4}, RootSelection::kSample, 8, 4, 4},
                      BroadcastCase{"m4x4x5_sample", {4, 4, 5}, RootSelection::kSample, 4, 4, 4},
                      BroadcastCase{"m8x8x5_sample", {8, 8, 5}, RootSelection::kSample, 2, 5, 5}),
    [](const auto& param_info) { return param_info.param.name; });

}  // namespace
}  // namespace wormsim::edn_collectives_test
