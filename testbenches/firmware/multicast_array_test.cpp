// m_array_2level (firmware/multicast_array.cpp; our earlier two-level reading of seed 004's
// M-array, docs/multidestination.md): the array plan reaches every participant exactly once in
// `levels` group steps, and the firmware delivers exactly once over path worms under
// Hamiltonian and dimension-ordered base routing, one-port and all-port, in 2 group steps
// where the seed's M-array (m_array) takes log2 N.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>

#include "collective_harness.h"
#include "collective_test_util.h"
#include "network_test_util.h"

namespace wormsim::multicast_array_test {
namespace {

TEST(ArrayPlan, SideIsTheLeastThatHoldsAllParticipants) {
  EXPECT_EQ(fw::array_side(64, 2), 8);
  EXPECT_EQ(fw::array_side(65, 2), 9);
  EXPECT_EQ(fw::array_side(64, 3), 4);
  EXPECT_EQ(fw::array_side(9, 2), 3);
  EXPECT_EQ(fw::array_side(1, 2), 1);
}

// Every participant other than the root is in exactly one group of exactly one holder, and
// the number of group receptions on the way from the root is at most `levels`.
TEST(ArrayPlan, EveryParticipantIsReachedOnceWithinLevelsSteps) {
  for (int levels = 1; levels <= 4; ++levels)
    for (std::size_t n = 1; n <= 70; n += (n < 20 ? 1 : 7))
      for (std::size_t root = 0; root < n; root += std::max<std::size_t>(1, n / 5)) {
        std::vector<NodeId> order(n);
        std::iota(order.begin(), order.end(), 1000u);
        std::map<NodeId, int> times;
        std::map<NodeId, int> depth{{order[root], 0}};
        std::vector<NodeId> frontier{order[root]};
        while (!frontier.empty()) {
          const NodeId x = frontier.back();
          frontier.pop_back();
          const auto groups = fw::array_groups(order, order[root], x, levels);
          for (const auto& g : groups) {
            EXPECT_LE(g.size(), static_cast<std::size_t>(fw::array_side(n, levels)) - 1);
            for (NodeId y : g) {
              ++times[y];
              depth[y] = depth[x] + 1;
              frontier.push_back(y);
            }
          }
        }
        EXPECT_EQ(times.size(), n - 1) << "levels " << levels << " n " << n << " root " << root;
        for (const auto& [node, count] : times) EXPECT_EQ(count, 1) << node;
        for (const auto& [node, d] : depth) EXPECT_LE(d, levels) << node;
        if (n > 1) {
          EXPECT_FALSE(fw::array_groups(order, order[root], order[root], levels).empty());
        }
      }
}

struct ArrayCase {
  std::string name;
  RoutingAlgorithm routing;
  PortModel ports;
  int random_destinations;
};

class ArrayMulticast : public ::testing::TestWithParam<ArrayCase> {};

TEST_P(ArrayMulticast, EveryDestinationOnceInTwoGroupStepsAgainstLogNForTheMArray) {
  const ArrayCase& a = GetParam();
  Config c = testing::mesh_config({8, 8});
  c.workload = Workload::kCollective;
  c.network.routing.algorithm = a.routing;
  c.network.router.multidest = MultidestMode::kPath;
  c.network.router.port_model = a.ports;
  c.node.alpha_cycles = 50;
  c.node.gamma_cycles = 20;
  c.collective.algorithms = {CollectiveAlgorithm::kMArray2Level, CollectiveAlgorithm::kMArray};
  c.collective.message_bytes = {16, 300};
  c.collective.roots = RootSelection::kSample;
  c.collective.sample = 3;
  c.collective.random_destinations = a.random_destinations;
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(testing::run_collective_clean(h));
  for (const OperationResult& r : h.results()) {
    const std::size_t participants = r.op.destinations.size() + 1;
    EXPECT_EQ(r.messages, r.op.destinations.size());
    if (r.op.algorithm == CollectiveAlgorithm::kMArray2Level) {
      // Two group steps; a one-port node's worms of one group take a step each (WormSteps).
      EXPECT_GE(r.steps, std::min(2, static_cast<int>(participants) - 1));
    } else if (a.random_destinations == 0) {
      EXPECT_EQ(r.steps, 6);  // the seed's M-array on 64 nodes: log2 64 (Example 1)
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Collectives, ArrayMulticast,
    ::testing::Values(ArrayCase{"hamiltonian_all_port_broadcast", RoutingAlgorithm::kHamiltonian,
                                PortModel::kAllPort, 0},
                      ArrayCase{"hamiltonian_one_port_random", RoutingAlgorithm::kHamiltonian,
                                PortModel::kOnePort, 20},
                      ArrayCase{"dor_all_port_broadcast", RoutingAlgorithm::kDimensionOrder,
                                PortModel::kAllPort, 0},
                      ArrayCase{"dor_one_port_random", RoutingAlgorithm::kDimensionOrder,
                                PortModel::kOnePort, 11}),
    [](const auto& param_info) { return param_info.param.name; });

}  // namespace
}  // namespace wormsim::multicast_array_test
