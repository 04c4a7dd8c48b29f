// Seed 001's hypercube multicasts end to end in the collective harness: u_cube, maxport,
// combine and w_sort on all-port n-cubes (u_cube on one-port too), random destination sets
// and broadcasts from sampled roots, both E-cube resolution orders:
//   - every destination's bytes verified by the harness, one message per destination;
//   - the steps the harness reads from the message tags equal the pure function's
//     (fw::CubeMulticast, whose trees cube_multicast_test checks against Figs. 3-8), and the
//     one-port U-cube's equal the tight bound ceil(log2(m + 1)) (section 2);
//   - zero contention in the simulator's counters, stepwise and depth: the seed's claim that
//     the algorithms' trees are contention-free (section 3.4, Theorems 3 and 6; Definition 4),
//     checked on the flits rather than on paths.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "collective_harness.h"
#include "collective_test_util.h"
#include "cube_multicast.h"
#include "network_test_util.h"

namespace wormsim::cube_collectives_test {
namespace {

struct CubeCase {
  std::string name;
  CollectiveAlgorithm alg;
  PortModel ports;
  int n;
  EcubeOrder order;
  int random_destinations;  // 0: broadcast; -1: the 5-cube set below, from node 0
  int sample;
  std::vector<std::uint32_t> bytes;
  // The seed's claim (Theorems 3, 6; U-cube on one port [9]): no contention event at all.
  // U-cube on all ports makes none either on most sets (rare, cube_multicast_test).
  bool contention_free = true;
};

// A 5-cube set on which U-cube on all ports sends two step-2 unicasts over one arc
// (cube_multicast_test UCubeOnAllPorts).
const std::vector<NodeId> kUCubeClash{4, 10, 11, 12, 13, 15, 18, 19, 25, 26, 31};

fw::CubeAlgorithm pure(CollectiveAlgorithm a) {
  switch (a) {
    case CollectiveAlgorithm::kMaxport: return fw::CubeAlgorithm::kMaxport;
    case CollectiveAlgorithm::kCombine: return fw::CubeAlgorithm::kCombine;
    case CollectiveAlgorithm::kWSort: return fw::CubeAlgorithm::kWSort;
    default: return fw::CubeAlgorithm::kUCube;
  }
}

class CubeCollectives : public ::testing::TestWithParam<CubeCase> {};

TEST_P(CubeCollectives, VerifiedInThePureFunctionsStepsWithoutContention) {
  const CubeCase& e = GetParam();
  Config c = testing::hypercube_config(e.n);
  c.network.routing.ecube_order = e.order;
  c.network.router.port_model = e.ports;
  c.workload = Workload::kCollective;
  c.collective.algorithms = {e.alg};
  c.collective.roots = e.random_destinations < 0 ? RootSelection::kOne : RootSelection::kSample;
  c.collective.sample = e.sample;
  if (e.random_destinations < 0)
    c.collective.destinations = kUCubeClash;
  else
    c.collective.random_destinations = e.random_destinations;
  c.collective.message_bytes = e.bytes;
  c.collective.seed = 7;
  c.node.alpha_cycles = 20;
  c.node.gamma_cycles = 10;
  c.validate();
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(testing::run_collective_clean(h));
  std::vector<int> order;
  for (int d = 0; d < e.n; ++d) order.push_back(d);
  if (e.order == EcubeOrder::kHighToLow) std::reverse(order.begin(), order.end());
  ASSERT_EQ(h.results().size(), static_cast<std::size_t>(e.sample) * e.bytes.size());
  std::set<NodeId> roots;
  for (const OperationResult& r : h.results()) {
    const std::size_t m = r.op.destinations.size();
    ASSERT_EQ(m, e.random_destinations > 0   ? std::size_t(e.random_destinations)
                 : e.random_destinations < 0 ? kUCubeClash.size()
                                             : (std::size_t{1} << e.n) - 1);
    const fw::CubeMulticast tree(pure(e.alg), order, r.op.root, r.op.destinations, e.ports);
    EXPECT_EQ(r.steps, tree.steps()) << describe_operation(r.op);
    if (e.ports == PortModel::kOnePort) {
      EXPECT_EQ(r.steps, static_cast<int>(std::ceil(std::log2(static_cast<double>(m) + 1))));
    }
    EXPECT_EQ(r.messages, m);
    EXPECT_EQ(r.latency.size(), m);
    if (e.contention_free) {
      EXPECT_EQ(r.contention_stepwise, 0u) << describe_operation(r.op);
      EXPECT_EQ(r.contention_depth, 0u) << describe_operation(r.op);
    } else if (r.op.bytes >= 4096) {
      // Long enough for the two step-2 worms to overlap on the shared arc.
      EXPECT_GT(r.contention_stepwise, 0u) << describe_operation(r.op);
    }
    roots.insert(r.op.root);
  }
  EXPECT_EQ(roots.size(), static_cast<std::size_t>(e.sample));
}

INSTANTIATE_TEST_SUITE_P(Seed001, CubeCollectives,
                         ::testing::Values(CubeCase{"u_cube_one_port_6cube",
                                                    CollectiveAlgorithm::kUCube,
                                                    PortModel::kOnePort,
                                                    6,
                                                    EcubeOrder::kHighToLow,
                                                    20,
                                                    4,
                                                    {64, 1024}},
                                           CubeCase{"u_cube_all_port_6cube",
                                                    CollectiveAlgorithm::kUCube,
                                                    PortModel::kAllPort,
                                                    6,
                                                    EcubeOrder::kHighToLow,
                                                    20,
                                                    4,
                                                    {64, 1024},
                                                    false},
                                           CubeCase{"u_cube_all_port_clash",
                                                    CollectiveAlgorithm::kUCube,
                                                    PortModel::kAllPort,
                                                    5,
                                                    EcubeOrder::kHighToLow,
                                                    -1,
                                                    1,
                                                    {4096},
                                                    false},
                                           CubeCase{"u_cube_one_port_clash_set",
                                                    CollectiveAlgorithm::kUCube,
                                                    PortModel::kOnePort,
                                                    5,
                                                    EcubeOrder::kHighToLow,
                                                    -1,
                                                    1,
                                                    {4096}},
                                           CubeCase{"w_sort_clash_set",
                                                    CollectiveAlgorithm::kWSort,
                                                    PortModel::kAllPort,
                                                    5,
                                                    EcubeOrder::kHighToLow,
                                                    -1,
                                                    1,
                                                    {4096}},
                                           CubeCase{"maxport_6cube",
                                                    CollectiveAlgorithm::kMaxport,
                                                    PortModel::kAllPort,
                                                    6,
                                                    EcubeOrder::kHighToLow,
                                                    35,
                                                    4,
                                                    {64, 1024}},
                                           CubeCase{"combine_6cube_low_to_high",
                                                    CollectiveAlgorithm::kCombine,
                                                    PortModel::kAllPort,
                                                    6,
                                                    EcubeOrder::kLowToHigh,
                                                    35,
                                                    4,
                                                    {64, 1024}},
                                           CubeCase{"w_sort_6cube",
                                                    CollectiveAlgorithm::kWSort,
                                                    PortModel::kAllPort,
                                                    6,
                                                    EcubeOrder::kHighToLow,
                                                    12,
                                                    4,
                                                    {64, 1024}},
                                           CubeCase{"w_sort_7cube_low_to_high",
                                                    CollectiveAlgorithm::kWSort,
                                                    PortModel::kAllPort,
                                                    7,
                                                    EcubeOrder::kLowToHigh,
                                                    50,
                                                    3,
                                                    {512}},
                                           CubeCase{"w_sort_broadcast_5cube",
                                                    CollectiveAlgorithm::kWSort,
                                                    PortModel::kAllPort,
                                                    5,
                                                    EcubeOrder::kHighToLow,
                                                    0,
                                                    3,
                                                    {256}},
                                           CubeCase{"u_cube_broadcast_5cube",
                                                    CollectiveAlgorithm::kUCube,
                                                    PortModel::kAllPort,
                                                    5,
                                                    EcubeOrder::kHighToLow,
                                                    0,
                                                    3,
                                                    {256}}),
                         [](const ::testing::TestParamInfo<CubeCase>& i) { return i.param.name; });

}  // namespace
}  // namespace wormsim::cube_collectives_test
