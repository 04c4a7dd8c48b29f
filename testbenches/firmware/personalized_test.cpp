// Personalized and synchronizing collectives (firmware/all_to_one.cpp, all_to_all.cpp,
// barrier.cpp; what each node holds and must deliver: firmware/collective_data.h):
//   - the data definitions: a gather's root gets every node's block in node order, an
//     all-to-all's node j block i->j of every i, and no two blocks are alike;
//   - every algorithm on meshes, tori and hypercubes, one-port and all-port, from every root:
//     every receiver delivers exactly its bytes once, with the steps and message counts the
//     algorithm's definition gives (a2o_1_lev_dir: 1 step, p - 1 messages; a2a_1_lev_dir:
//     p - 1 steps, p(p - 1) messages; dissemination barrier: ceil(log2 p) steps, p per step);
//   - a gather between two neighbours takes the closed node-stack latency
//     alpha + 1 + T0 + 1 + gamma (docs/timing-model.md);
//   - the harness rejects a gather that places blocks by arrival instead of by source, and a
//     barrier that lets a node out before the last one is in.
#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <systemc>

#include "collective_data.h"
#include "collective_harness.h"
#include "collective_report.h"
#include "collective_test_util.h"
#include "network_test_util.h"

namespace wormsim::personalized_test {
namespace {

fw::Operation op_of(CollectiveAlgorithm alg, NodeId root, std::uint32_t bytes, int nodes) {
  fw::Operation op;
  op.index = 3;
  op.algorithm = alg;
  op.root = root;
  op.bytes = bytes;
  for (int n = 0; n < nodes; ++n)
    if (static_cast<NodeId>(n) != root) op.destinations.push_back(static_cast<NodeId>(n));
  return op;
}

std::vector<std::uint8_t> slice(const std::vector<std::uint8_t>& v, std::size_t i, std::size_t n) {
  return {v.begin() + static_cast<std::ptrdiff_t>(i * n),
          v.begin() + static_cast<std::ptrdiff_t>((i + 1) * n)};
}

TEST(CollectiveData, GatherRootGetsEveryNodesBlockInNodeOrder) {
  const int p = 12;
  const Topology topo(testing::mesh_config({3, 4}).network.topology);
  const fw::Operation op = op_of(CollectiveAlgorithm::kGatherDirect, 5, 16, p);
  const auto root = fw::expected_delivery(op, 5, topo);
  ASSERT_TRUE(root.has_value());
  ASSERT_EQ(root->size(), 16u * p);
  for (int i = 0; i < p; ++i) {
    EXPECT_EQ(slice(*root, static_cast<std::size_t>(i), 16),
              fw::input_data(op, static_cast<NodeId>(i), topo))
        << i;
    if (i != 5) {
      EXPECT_FALSE(fw::expected_delivery(op, static_cast<NodeId>(i), topo).has_value());
    }
  }
  EXPECT_EQ(fw::receivers(op, topo), std::vector<NodeId>{5});
}

TEST(CollectiveData, AlltoallNodeJGetsBlockIToJOfEveryNode) {
  const int p = 9;
  const Topology topo(testing::mesh_config({3, 3}).network.topology);
  const fw::Operation op = op_of(CollectiveAlgorithm::kAlltoallDirect, 0, 8, p);
  std::set<std::vector<std::uint8_t>> distinct;
  for (int j = 0; j < p; ++j) {
    const auto got = fw::expected_delivery(op, static_cast<NodeId>(j), topo);
    ASSERT_TRUE(got.has_value());
    ASSERT_EQ(got->size(), 8u * p);
    for (int i = 0; i < p; ++i) {
      const auto in = fw::input_data(op, static_cast<NodeId>(i), topo);
      ASSERT_EQ(in.size(), 8u * p);
      EXPECT_EQ(slice(*got, static_cast<std::size_t>(i), 8),
                slice(in, static_cast<std::size_t>(j), 8));
      distinct.insert(slice(in, static_cast<std::size_t>(j), 8));
    }
  }
  EXPECT_EQ(distinct.size(), static_cast<std::size_t>(p * p));  // no two blocks alike
  EXPECT_EQ(fw::receivers(op, topo).size(), static_cast<std::size_t>(p));
}

TEST(CollectiveData, BarrierArrivalsAreStaggeredWithinAThousandCycles) {
  const fw::Operation op = op_of(CollectiveAlgorithm::kBarrierDissemination, 0, 0, 16);
  std::set<Cycle> seen;
  for (NodeId n = 0; n < 64; ++n) {
    const Cycle a = fw::barrier_arrival(op, n);
    EXPECT_LE(a, 990u);
    EXPECT_EQ(a % 10, 0u);
    seen.insert(a);
  }
  EXPECT_GE(seen.size(), 20u);
  EXPECT_EQ(fw::expected_delivery(op, 7, Topology(testing::mesh_config({4, 4}).network.topology)),
            std::vector<std::uint8_t>{});
}

// ---- Every algorithm end to end -------------------------------------------------------------

struct Case {
  std::string name;
  TopologyKind topology;
  std::vector<int> dims;  // mesh/torus sides; hypercube: {dimension}
  PortModel ports;
};

Config config_for(const Case& k, CollectiveAlgorithm alg) {
  Config c;
  if (k.topology == TopologyKind::kHypercube) {
    c = testing::mesh_config({2, 2});
    c.network.topology.kind = TopologyKind::kHypercube;
    c.network.topology.dims.clear();
    c.network.topology.hypercube_dimension = k.dims[0];
    c.network.routing.algorithm = RoutingAlgorithm::kEcube;
  } else {
    c = testing::mesh_config(k.dims);
    c.network.topology.kind = k.topology;
    if (k.topology == TopologyKind::kTorus) c.network.router.vcs = 2;
  }
  c.network.router.port_model = k.ports;
  c.workload = Workload::kCollective;
  c.collective.algorithms = {alg};
  c.collective.roots = RootSelection::kAll;
  c.collective.message_bytes = {8, 40};  // whole int32 elements for the reductions
  c.node.alpha_cycles = 20;
  c.node.gamma_cycles = 10;
  return c;
}

class Personalized : public ::testing::TestWithParam<std::tuple<CollectiveAlgorithm, Case>> {};

TEST_P(Personalized, EveryReceiverGetsItsBytesOnceInTheDefinedSteps) {
  const auto& [alg, k] = GetParam();
  const Config c = config_for(k, alg);
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(testing::run_collective_clean(h));
  const std::size_t p = static_cast<std::size_t>(h.network().topology().nodes());
  int log2p = 0;
  while ((std::size_t{1} << log2p) < p) ++log2p;
  // Rootless operations run once per size, the gather from every root.
  EXPECT_EQ(h.results().size(), 2 * (is_rootless(alg) ? 1 : p));
  for (const OperationResult& r : h.results()) {
    switch (alg) {
      case CollectiveAlgorithm::kGatherDirect:
        EXPECT_EQ(r.steps, 1);
        EXPECT_EQ(r.messages, p - 1);
        EXPECT_EQ(r.latency.size(), 1u);
        break;
      case CollectiveAlgorithm::kAlltoallDirect:
        EXPECT_EQ(r.steps, static_cast<int>(p - 1));
        EXPECT_EQ(r.messages, p * (p - 1));
        EXPECT_EQ(r.latency.size(), p);
        break;
      case CollectiveAlgorithm::kReduceBinomial:
        EXPECT_EQ(r.steps, log2p);
        EXPECT_EQ(r.messages, p - 1);
        EXPECT_EQ(r.latency.size(), 1u);
        break;
      case CollectiveAlgorithm::kAllreduceRecursiveDoubling: {
        std::size_t p2 = 1;
        int rounds = 0;
        while (p2 * 2 <= p) p2 *= 2, ++rounds;
        const std::size_t extra = p - p2;
        EXPECT_EQ(r.steps, rounds + (extra > 0 ? 2 : 0));
        EXPECT_EQ(r.messages, 2 * extra + p2 * static_cast<std::size_t>(rounds));
        EXPECT_EQ(r.latency.size(), p);
        break;
      }
      case CollectiveAlgorithm::kAllgatherRing:
        EXPECT_EQ(r.steps, static_cast<int>(p - 1));
        EXPECT_EQ(r.messages, p * (p - 1));
        EXPECT_EQ(r.latency.size(), p);
        break;
      default:
        EXPECT_EQ(r.steps, log2p);
        EXPECT_EQ(r.messages, p * static_cast<std::size_t>(log2p));
        EXPECT_EQ(r.latency.size(), p);
        break;
    }
  }
}

const Case kCases[] = {
    {"mesh4x4_one_port", TopologyKind::kMesh, {4, 4}, PortModel::kOnePort},
    {"mesh3x5_all_port", TopologyKind::kMesh, {3, 5}, PortModel::kAllPort},
    {"mesh2x2x3_one_port", TopologyKind::kMesh, {2, 2, 3}, PortModel::kOnePort},
    {"torus4x4_all_port", TopologyKind::kTorus, {4, 4}, PortModel::kAllPort},
    {"hypercube3_one_port", TopologyKind::kHypercube, {3}, PortModel::kOnePort},
};

INSTANTIATE_TEST_SUITE_P(
    Algorithms, Personalized,
    ::testing::Combine(::testing::Values(CollectiveAlgorithm::kGatherDirect,
                                         CollectiveAlgorithm::kAlltoallDirect,
                                         CollectiveAlgorithm::kBarrierDissemination,
                                         CollectiveAlgorithm::kReduceBinomial,
                                         CollectiveAlgorithm::kAllreduceRecursiveDoubling,
                                         CollectiveAlgorithm::kAllgatherRing),
                       ::testing::ValuesIn(kCases)),
    [](const ::testing::TestParamInfo<std::tuple<CollectiveAlgorithm, Case>>& i) {
      return to_string(std::get<0>(i.param)) + "_" + std::get<1>(i.param).name;
    });

// ---- Reductions: operators, element types, user operators, combine cost -------------------

std::vector<std::uint8_t> ints(const std::vector<std::int32_t>& v) {
  std::vector<std::uint8_t> b(v.size() * 4);
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}
std::vector<std::uint8_t> doubles(const std::vector<double>& v) {
  std::vector<std::uint8_t> b(v.size() * 8);
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

TEST(BuiltinCombine, ComputesElementwiseSumMaxMinPerType) {
  auto acc = ints({1, -2, 70000});
  fw::builtin_combine(ReduceOp::kSum, ReduceType::kInt32)(acc, ints({3, 4, -80000}));
  EXPECT_EQ(acc, ints({4, 2, -10000}));
  fw::builtin_combine(ReduceOp::kMax, ReduceType::kInt32)(acc, ints({5, -1, -20000}));
  EXPECT_EQ(acc, ints({5, 2, -10000}));
  auto d = doubles({0.5, -3.25});
  fw::builtin_combine(ReduceOp::kMin, ReduceType::kFloat64)(d, doubles({0.25, 7.0}));
  EXPECT_EQ(d, doubles({0.25, -3.25}));
  fw::builtin_combine(ReduceOp::kSum, ReduceType::kFloat64)(d, doubles({1.0, 0.25}));
  EXPECT_EQ(d, doubles({1.25, -3.0}));
}

class ReductionOperators
    : public ::testing::TestWithParam<std::tuple<CollectiveAlgorithm, ReduceOp, ReduceType>> {};

TEST_P(ReductionOperators, EveryContributionCountedOnceOnANonPowerOfTwoMesh) {
  const auto& [alg, op, type] = GetParam();
  Config c = testing::mesh_config({3, 5});
  c.workload = Workload::kCollective;
  c.collective.algorithms = {alg};
  c.collective.roots = RootSelection::kOne;
  c.collective.root = 7;
  c.collective.message_bytes = {8, 64};
  c.collective.reduce_op = op;
  c.collective.reduce_type = type;
  c.validate();
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(testing::run_collective_clean(h));
}

INSTANTIATE_TEST_SUITE_P(
    OpsAndTypes, ReductionOperators,
    ::testing::Combine(::testing::Values(CollectiveAlgorithm::kReduceBinomial,
                                         CollectiveAlgorithm::kAllreduceRecursiveDoubling),
                       ::testing::Values(ReduceOp::kSum, ReduceOp::kMax, ReduceOp::kMin),
                       ::testing::Values(ReduceType::kInt32, ReduceType::kInt64,
                                         ReduceType::kFloat32, ReduceType::kFloat64)),
    [](const auto& i) {
      return to_string(std::get<0>(i.param)) + "_" + to_string(std::get<1>(i.param)) + "_" +
             to_string(std::get<2>(i.param));
    });

// A user operator (bitwise xor of the bytes) through the same algorithm: the root gets the xor
// of every node's vector, which the test computes itself from the inputs.
TEST(ReductionOperators, UserOperatorRunsThroughTheReduceAlgorithm) {
  Config c = testing::mesh_config({4, 3});
  c.workload = Workload::kCollective;
  c.collective.algorithms = {CollectiveAlgorithm::kReduceBinomial};
  c.collective.roots = RootSelection::kOne;
  c.collective.root = 5;
  c.collective.message_bytes = {16};
  const fw::Combine xor_bytes = [](std::vector<std::uint8_t>& acc,
                                   const std::vector<std::uint8_t>& in) {
    for (std::size_t i = 0; i < acc.size(); ++i) acc[i] ^= in[i];
  };
  std::vector<std::uint8_t> got;
  const CollectiveFirmware firmware = [&](fw::Runtime& rt, const fw::Operation& op,
                                          const std::vector<std::uint8_t>& data, const fw::Deliver&,
                                          const fw::FirmwareTables&) {
    fw::reduce_binomial(
        rt, op, data, [&](const std::vector<std::uint8_t>& r) { got = r; }, xor_bytes, 0);
  };
  CollectiveHarness h("h", c, {}, firmware);
  sc_core::sc_start();
  h.finish();
  ASSERT_TRUE(h.all_operations_run());
  const Topology topo(c.network.topology);
  std::vector<std::uint8_t> want(16, 0);
  for (NodeId n = 0; n < 12; ++n) xor_bytes(want, fw::input_data(h.operations()[0], n, topo));
  EXPECT_EQ(got, want);
}

// Two neighbours: one message and one combine, so the reduction's latency is the node stack's
// closed formula plus the combine time (elements x node.combine_cycles_per_element).
TEST(ReduceLatency, TwoNeighboursTakeTheNodeStackPlusOneCombine) {
  Config c = testing::mesh_config({2});
  c.workload = Workload::kCollective;
  c.collective.algorithms = {CollectiveAlgorithm::kReduceBinomial};
  c.collective.roots = RootSelection::kOne;
  c.collective.message_bytes = {8, 64, 400};
  c.collective.reduce_type = ReduceType::kFloat64;
  c.node.alpha_cycles = 30;
  c.node.gamma_cycles = 12;
  c.node.combine_cycles_per_element = 3;
  CollectiveHarness h("h", c);
  sc_core::sc_start();
  h.finish();
  ASSERT_EQ(h.verification_errors(), 0u) << collective_summary_text(h);
  const RouterConfig& r = c.network.router;
  for (const OperationResult& op : h.results()) {
    const int flits = static_cast<int>((op.op.bytes + 7) / 8);
    const Cycle network = testing::zero_load_formula(1, flits, r.pipeline_depth, r.link_latency,
                                                     r.credit_latency, r.buffer_depth);
    EXPECT_EQ(op.max_latency,
              static_cast<double>(30 + 1 + network + 1 + 12 + 3 * (op.op.bytes / 8)))
        << op.op.bytes << " bytes";
  }
}

// ---- Transpose ------------------------------------------------------------------------------

TEST(Transpose, EveryNodeGetsItsMirrorsBlockInOneStep) {
  for (const TopologyKind kind : {TopologyKind::kMesh}) {
    Config c = testing::mesh_config({5, 5});
    c.network.topology.kind = kind;
    c.workload = Workload::kCollective;
    c.collective.algorithms = {CollectiveAlgorithm::kDirectTranspose};
    c.collective.message_bytes = {4, 100};
    c.validate();
    CollectiveHarness h("h", c);
    sc_core::sc_start();
    h.finish();
    ASSERT_EQ(h.results().size(), 2u);
    EXPECT_EQ(h.verification_errors(), 0u) << collective_summary_text(h);
    for (const OperationResult& r : h.results()) {
      EXPECT_EQ(r.steps, 1);
      EXPECT_EQ(r.messages, 20u);  // n (n - 1)
      EXPECT_EQ(r.latency.size(), 25u);
    }
  }
}

// Two neighbours: the gather is one unicast of the non-root's block, so its latency is the
// node stack's closed formula (docs/timing-model.md, "node stack").
TEST(GatherLatency, TwoNeighboursTakeAlphaPlusOnePlusT0PlusOnePlusGamma) {
  Config c = testing::mesh_config({2});
  c.workload = Workload::kCollective;
  c.collective.algorithms = {CollectiveAlgorithm::kGatherDirect};
  c.collective.roots = RootSelection::kOne;
  c.collective.message_bytes = {1, 24, 200};
  c.node.alpha_cycles = 30;
  c.node.gamma_cycles = 12;
  CollectiveHarness h("h", c);
  sc_core::sc_start();
  h.finish();
  ASSERT_EQ(h.verification_errors(), 0u) << collective_summary_text(h);
  const RouterConfig& r = c.network.router;
  for (const OperationResult& op : h.results()) {
    const int flits = static_cast<int>((op.op.bytes + 7) / 8);  // 8-byte flits
    EXPECT_EQ(op.max_latency, static_cast<double>(30 + 1 +
                                                  testing::zero_load_formula(
                                                      1, flits, r.pipeline_depth, r.link_latency,
                                                      r.credit_latency, r.buffer_depth) +
                                                  1 + 12))
        << op.op.bytes << " bytes";
  }
}

// ---- The harness's checks bite -------------------------------------------------------------

Config gather_on_mesh() {
  Config c = testing::mesh_config({4, 4});
  c.workload = Workload::kCollective;
  c.collective.algorithms = {CollectiveAlgorithm::kGatherDirect};
  c.collective.roots = RootSelection::kOne;
  c.collective.root = 0;
  c.collective.message_bytes = {16};
  return c;
}

TEST(PersonalizedChecks, GatherPlacingBlocksByArrivalIsCaught) {
  const CollectiveFirmware by_arrival = [](fw::Runtime& rt, const fw::Operation& op,
                                           const std::vector<std::uint8_t>& data,
                                           const fw::Deliver& deliver, const fw::FirmwareTables&) {
    if (rt.id() != op.root) {
      rt.send(op.root, data, 1);
      return;
    }
    std::vector<std::uint8_t> all = data;  // own block first, then in arrival order
    for (int k = 1; k < rt.nodes(); ++k) {
      const fw::Message m = rt.receive();
      all.insert(all.end(), m.data.begin(), m.data.end());
    }
    deliver(all);
  };
  CollectiveHarness h("h", gather_on_mesh(), {}, by_arrival);
  sc_core::sc_start();
  h.finish();
  ASSERT_EQ(h.results().size(), 1u);
  ASSERT_EQ(h.results()[0].errors.size(), 1u);
  EXPECT_EQ(h.results()[0].errors[0], "node 0 delivered wrong bytes");
}

TEST(PersonalizedReport, ResultsNameEachOperationsKind) {
  CollectiveHarness h("h", gather_on_mesh());
  sc_core::sc_start();
  h.finish();
  const auto j = collective_json(h);
  ASSERT_EQ(j["operations"].size(), 1u);
  EXPECT_EQ(j["operations"][0]["kind"], "gather");
  EXPECT_EQ(j["summary"][0]["kind"], "gather");
  EXPECT_EQ(j["operations"][0]["steps"], 1);
}

TEST(PersonalizedChecks, BarrierThatDoesNotWaitIsCaught) {
  Config c = gather_on_mesh();
  c.collective.algorithms = {CollectiveAlgorithm::kBarrierDissemination};
  const CollectiveFirmware no_wait = [](fw::Runtime& rt, const fw::Operation& op,
                                        const std::vector<std::uint8_t>&,
                                        const fw::Deliver& deliver, const fw::FirmwareTables&) {
    rt.compute(fw::barrier_arrival(op, rt.id()));
    deliver({});
  };
  CollectiveHarness h("h", c, {}, no_wait);
  sc_core::sc_start();
  h.finish();
  ASSERT_EQ(h.results().size(), 1u);
  ASSERT_FALSE(h.results()[0].errors.empty());
  EXPECT_NE(h.results()[0].errors[0].find("left the barrier at cycle"), std::string::npos)
      << h.results()[0].errors[0];
}

}  // namespace
}  // namespace wormsim::personalized_test
