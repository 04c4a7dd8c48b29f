// allgather_multicast (firmware/allgather.cpp): every node multicasts its block to all others
// at once as multidestination worms. Through the harness on meshes, a torus and a hypercube with
// path and tree worms: every node delivers every block in node order, exactly once (the
// verifier), each node receives p - 1 messages and every (sender, receiver) pair is one
// message record, p(p - 1) in all; tree worms take one set-up and one step per node, path worms
// one step per worm on a one-port node. Zero-load latency on two nodes: both worms cross one
// link in opposite directions without meeting, so each node delivers at alpha + 1 + T0 + 1 +
// gamma (the node-stack formula of docs/timing-model.md for one hop).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "collective_harness.h"
#include "collective_test_util.h"
#include "network_test_util.h"

namespace wormsim::allgather_test {
namespace {

Config allgather_on(Config c, MultidestMode multidest, PortModel ports) {
  c.workload = Workload::kCollective;
  c.collective.algorithms = {CollectiveAlgorithm::kAllgatherMulticast};
  c.collective.message_bytes = {8, 100};
  c.network.router.multidest = multidest;
  c.network.router.port_model = ports;
  c.node.alpha_cycles = 20;
  c.node.gamma_cycles = 10;
  c.trace.timeline = false;
  return c;
}

// Tree worms are safe with asynchronous replication and input buffers that hold a whole worm
// (docs/multidestination.md): 100 bytes are 13 flits and the destination list fits the head.
Config whole_worm_buffers(Config c) {
  c.network.router.buffer_depth = 16;
  return c;
}

struct Case {
  std::string name;
  Config config;
};

class AllgatherMulticast : public ::testing::TestWithParam<Case> {};

TEST_P(AllgatherMulticast, EveryNodeDeliversEveryBlockOnce) {
  const Config& c = GetParam().config;
  c.validate();
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(testing::run_collective_clean(h));
  const std::size_t p = static_cast<std::size_t>(h.network().topology().nodes());
  ASSERT_EQ(h.results().size(), 2u);
  for (const OperationResult& r : h.results()) {
    SCOPED_TRACE(describe_operation(r.op));
    EXPECT_EQ(r.messages, p * (p - 1));
    EXPECT_EQ(r.max_receives, p - 1);
    EXPECT_EQ(r.latency.size(), p);
    if (c.network.router.multidest == MultidestMode::kTree) {
      EXPECT_EQ(r.max_sends, 1u);
      EXPECT_EQ(r.steps, 1);
    } else {
      EXPECT_GE(r.max_sends, 1u);
      EXPECT_LE(r.max_sends, p - 1);
      if (c.network.router.port_model == PortModel::kOnePort) {
        EXPECT_EQ(static_cast<std::size_t>(r.steps), r.max_sends);
      }
    }
  }
}

std::vector<Case> cases() {
  std::vector<Case> out;
  out.push_back({"mesh4x4_path_all_port", allgather_on(testing::mesh_config({4, 4}),
                                                       MultidestMode::kPath, PortModel::kAllPort)});
  out.push_back({"mesh3x3_path_one_port", allgather_on(testing::mesh_config({3, 3}),
                                                       MultidestMode::kPath, PortModel::kOnePort)});
  out.push_back({"mesh3x3_tree_one_port",
                 whole_worm_buffers(allgather_on(testing::mesh_config({3, 3}), MultidestMode::kTree,
                                                 PortModel::kOnePort))});
  out.push_back({"mesh4x4_tree_all_port",
                 whole_worm_buffers(allgather_on(testing::mesh_config({4, 4}), MultidestMode::kTree,
                                                 PortModel::kAllPort))});
  out.push_back(
      {"torus4x4_path_all_port",
       allgather_on(testing::torus_config({4, 4}), MultidestMode::kPath, PortModel::kAllPort)});
  out.push_back({"hypercube3_tree_one_port",
                 whole_worm_buffers(allgather_on(testing::hypercube_config(3), MultidestMode::kTree,
                                                 PortModel::kOnePort))});
  return out;
}

INSTANTIATE_TEST_SUITE_P(Networks, AllgatherMulticast, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& i) { return i.param.name; });

// Two nodes (a 1-cube): each sends one worm over the one link, in opposite directions, and
// receives the other's. Header: one destination of a 2-node network fits the head flit, so a
// worm of b bytes is ceil(b / 8) flits like a unicast.
class AllgatherMulticastZeroLoad : public ::testing::TestWithParam<MultidestMode> {};

TEST_P(AllgatherMulticastZeroLoad, TwoNodesDeliverAtTheNodeStackFormula) {
  Config c = allgather_on(testing::hypercube_config(1), GetParam(), PortModel::kOnePort);
  c.collective.message_bytes = {1, 8, 40, 333};
  c.validate();
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(testing::run_collective_clean(h));
  const RouterConfig& r = c.network.router;
  for (const OperationResult& o : h.results()) {
    const int flits = static_cast<int>((o.op.bytes + 7) / 8);
    const Cycle expected = c.node.alpha_cycles + 1 +
                           testing::zero_load_formula(1, flits, r.pipeline_depth, r.link_latency,
                                                      r.credit_latency, r.buffer_depth) +
                           1 + c.node.gamma_cycles;
    EXPECT_EQ(o.max_latency, static_cast<double>(expected)) << o.op.bytes << " bytes";
    EXPECT_EQ(o.avg_latency, static_cast<double>(expected)) << o.op.bytes << " bytes";
    EXPECT_EQ(o.steps, 1);
    EXPECT_EQ(o.messages, 2u);
  }
}

INSTANTIATE_TEST_SUITE_P(Modes, AllgatherMulticastZeroLoad,
                         ::testing::Values(MultidestMode::kPath, MultidestMode::kTree),
                         [](const ::testing::TestParamInfo<MultidestMode>& i) {
                           return to_string(i.param);
                         });

}  // namespace
}  // namespace wormsim::allgather_test
