// sld_broadcast end to end in the collective harness (seed 000 section 3.2; fw::SldPattern,
// checked as a pure function in sld_pattern_test; docs/edn-general.md "SLD broadcast"):
//   - 4x4 and 5x7 from every root, 8x8 from sampled roots, one-port and all-port, XY: every
//     node gets the root's bytes exactly once (the harness verifies them; N - 1 messages), the
//     steps the harness reads from the message tags equal the pure function's, and no two
//     messages of one step meet (stepwise contention 0: U-mesh's unicasts are contention-free,
//     section 3.2.2 after [103], and the neighbour sends avoid the links U-mesh worms use in
//     their step);
//   - Fig. 3.3 in the simulator: from (2,0) on the all-port 4x4 mesh, 3 steps (section 3.2.3:
//     "The dominating nodes send the message to the remaining nodes in step 3"), and the
//     nodes that receive in step 1 are (1,0) and (2,3), read from the message log.
#include <gtest/gtest.h>

#include <set>

#include "collective_harness.h"
#include "collective_test_util.h"
#include "network_test_util.h"
#include "sld_pattern.h"

namespace wormsim::sld_broadcast_test {
namespace {

struct SldCase {
  std::string name;
  int w, h;
  PortModel ports;
  RootSelection roots;
  int sample;
};

Config sld_config(int w, int h, PortModel ports) {
  Config c = testing::mesh_config({w, h});
  c.network.router.port_model = ports;
  c.workload = Workload::kCollective;
  c.collective.algorithms = {CollectiveAlgorithm::kSldBroadcast};
  c.collective.message_bytes = {24};
  c.node.alpha_cycles = 20;
  c.node.gamma_cycles = 10;
  return c;
}

class SldBroadcast : public ::testing::TestWithParam<SldCase> {};

TEST_P(SldBroadcast, VerifiedInThePatternsStepsWithoutStepwiseContention) {
  const SldCase& s = GetParam();
  Config c = sld_config(s.w, s.h, s.ports);
  c.collective.roots = s.roots;
  if (s.roots == RootSelection::kSample) c.collective.sample = s.sample;
  c.validate();
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(testing::run_collective_clean(h));
  const fw::SldPattern pattern(s.w, s.h);
  const auto nodes = static_cast<std::size_t>(pattern.nodes());
  const std::size_t roots = s.roots == RootSelection::kAll ? nodes : std::size_t(s.sample);
  ASSERT_EQ(h.results().size(), roots);
  std::set<NodeId> seen;
  for (const OperationResult& r : h.results()) {
    EXPECT_EQ(r.messages, nodes - 1) << "root " << r.op.root;
    EXPECT_EQ(r.steps, pattern.steps(r.op.root, s.ports)) << "root " << r.op.root;
    EXPECT_EQ(r.contention_stepwise, 0u) << "root " << r.op.root;
    seen.insert(r.op.root);
  }
  EXPECT_EQ(seen.size(), roots);
}

INSTANTIATE_TEST_SUITE_P(
    Sizes, SldBroadcast,
    ::testing::Values(
        SldCase{"m4x4_all_port", 4, 4, PortModel::kAllPort, RootSelection::kAll, 0},
        SldCase{"m4x4_one_port", 4, 4, PortModel::kOnePort, RootSelection::kAll, 0},
        SldCase{"m5x7_all_port", 5, 7, PortModel::kAllPort, RootSelection::kAll, 0},
        SldCase{"m5x7_one_port", 5, 7, PortModel::kOnePort, RootSelection::kAll, 0},
        SldCase{"m8x8_all_port", 8, 8, PortModel::kAllPort, RootSelection::kSample, 8},
        SldCase{"m8x8_one_port", 8, 8, PortModel::kOnePort, RootSelection::kSample, 8}),
    [](const auto& param_info) { return param_info.param.name; });

TEST(Fig33, ThreeStepsFromTwoZeroOnTheAllPortFourByFour) {
  Config c = sld_config(4, 4, PortModel::kAllPort);
  c.collective.roots = RootSelection::kOne;
  c.collective.root = 2;  // (2,0)
  c.validate();
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(testing::run_collective_clean(h));
  ASSERT_EQ(h.results().size(), 1u);
  EXPECT_EQ(h.results()[0].steps, 3);
  EXPECT_EQ(h.results()[0].contention_stepwise, 0u);
  std::set<NodeId> step1;
  for (const MessageRecord& m : h.log().records())
    if (m.tag == 1) step1.insert(m.dst);
  EXPECT_EQ(step1, (std::set<NodeId>{1, 14}));  // (1,0) and (2,3)
}

}  // namespace
}  // namespace wormsim::sld_broadcast_test
