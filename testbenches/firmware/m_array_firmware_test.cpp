// Seed 004's collectives as firmware over path worms (firmware/m_array_firmware.cpp) through
// the collective harness: every delivery verified, and the step counts the seed's: broadcast
// on the M-array and REM-array in log2 N steps from every root (Example 1), the N/N global
// reduction and all-to-all broadcast by reduction with concatenation in log2 N steps (section
// 4), the M-mesh (Definition 4) in log2 cols + log2 rows, the row/column binomial-tree
// baseline in 2 (log2 cols + log2 rows); and, for the normal algorithms (section 4: "normal
// algorithms minimize contention for ports and channels"), no stepwise contention under
// Hamiltonian routing.
#include <gtest/gtest.h>

#include <systemc>

#include "collective_harness.h"
#include "collective_report.h"
#include "network_test_util.h"

namespace wormsim {
namespace {

int ceil_log2(int n) {
  int k = 0;
  while ((1 << k) < n) ++k;
  return k;
}

struct Case {
  std::string name;
  std::vector<int> dims;
  RoutingAlgorithm routing;
  PortModel ports;
  std::vector<CollectiveAlgorithm> algorithms;
  RootSelection roots;
};

class SeedArrays : public ::testing::TestWithParam<Case> {};

TEST_P(SeedArrays, VerifiedInTheSeedsStepCounts) {
  const Case& k = GetParam();
  Config c = testing::mesh_config(k.dims);
  c.workload = Workload::kCollective;
  c.network.routing.algorithm = k.routing;
  c.network.router.multidest = MultidestMode::kPath;
  c.network.router.port_model = k.ports;
  c.node.alpha_cycles = 20;
  c.node.gamma_cycles = 10;
  c.collective.algorithms = k.algorithms;
  c.collective.message_bytes = {16};
  c.collective.roots = k.roots;
  c.validate();
  CollectiveHarness h("h", c);
  sc_core::sc_start();
  h.finish();
  ASSERT_FALSE(h.firmware_fault()) << *h.firmware_fault();
  ASSERT_FALSE(h.stall()) << *h.stall();
  ASSERT_TRUE(h.all_operations_run());
  EXPECT_EQ(h.verification_errors(), 0u) << collective_summary_text(h);
  const int cols = k.dims[0], rows = k.dims[1];
  const int log_n = ceil_log2(cols * rows);
  const int mesh_steps = ceil_log2(cols) + ceil_log2(rows);
  const bool powers = (cols & (cols - 1)) == 0 && (rows & (rows - 1)) == 0;
  for (const OperationResult& r : h.results()) {
    SCOPED_TRACE(describe_operation(r.op));
    switch (r.op.algorithm) {
      case CollectiveAlgorithm::kMArray:
      case CollectiveAlgorithm::kRemArray:
        if (powers) {
          EXPECT_EQ(r.steps, log_n);
        } else {
          EXPECT_LE(r.steps, log_n);
        }
        break;
      case CollectiveAlgorithm::kMMesh:
        if (powers) {
          EXPECT_EQ(r.steps, mesh_steps);
        } else {
          EXPECT_LE(r.steps, mesh_steps);
        }
        break;
      case CollectiveAlgorithm::kMArrayAllgather:
      case CollectiveAlgorithm::kMArrayReduce:
      case CollectiveAlgorithm::kMArrayAllreduce: EXPECT_EQ(r.steps, log_n); break;
      case CollectiveAlgorithm::kMMeshAllreduce: EXPECT_EQ(r.steps, mesh_steps); break;
      case CollectiveAlgorithm::kTreeRowcolAllreduce: EXPECT_EQ(r.steps, 2 * mesh_steps); break;
      default: ADD_FAILURE() << "unexpected algorithm";
    }
    if (k.routing == RoutingAlgorithm::kHamiltonian) {
      EXPECT_EQ(r.contention_stepwise, 0u);
    }
  }
}

const std::vector<CollectiveAlgorithm> kBroadcasts = {CollectiveAlgorithm::kMArray,
                                                      CollectiveAlgorithm::kRemArray};
const std::vector<CollectiveAlgorithm> kEveryNode = {
    CollectiveAlgorithm::kMArrayAllgather, CollectiveAlgorithm::kMArrayReduce,
    CollectiveAlgorithm::kMArrayAllreduce, CollectiveAlgorithm::kTreeRowcolAllreduce};

INSTANTIATE_TEST_SUITE_P(
    Networks, SeedArrays,
    ::testing::Values(
        Case{"broadcast_4x4_hamiltonian_one_port_every_root",
             {4, 4},
             RoutingAlgorithm::kHamiltonian,
             PortModel::kOnePort,
             kBroadcasts,
             RootSelection::kAll},
        Case{"broadcast_4x4_hamiltonian_all_port_every_root",
             {4, 4},
             RoutingAlgorithm::kHamiltonian,
             PortModel::kAllPort,
             kBroadcasts,
             RootSelection::kAll},
        Case{"broadcast_4x4_dor_every_root",
             {4, 4},
             RoutingAlgorithm::kDimensionOrder,
             PortModel::kOnePort,
             {CollectiveAlgorithm::kMArray, CollectiveAlgorithm::kRemArray,
              CollectiveAlgorithm::kMMesh},
             RootSelection::kAll},
        Case{"broadcast_3x5_dor",
             {3, 5},
             RoutingAlgorithm::kDimensionOrder,
             PortModel::kOnePort,
             {CollectiveAlgorithm::kMArray, CollectiveAlgorithm::kRemArray,
              CollectiveAlgorithm::kMMesh},
             RootSelection::kAll},
        Case{"every_node_4x4_hamiltonian",
             {4, 4},
             RoutingAlgorithm::kHamiltonian,
             PortModel::kOnePort,
             kEveryNode,
             RootSelection::kOne},
        Case{"every_node_8x4_dor",
             {8, 4},
             RoutingAlgorithm::kDimensionOrder,
             PortModel::kAllPort,
             {CollectiveAlgorithm::kMArrayAllgather, CollectiveAlgorithm::kMArrayAllreduce,
              CollectiveAlgorithm::kMMeshAllreduce, CollectiveAlgorithm::kTreeRowcolAllreduce},
             RootSelection::kOne},
        Case{"every_node_3x5_dor",
             {3, 5},
             RoutingAlgorithm::kDimensionOrder,
             PortModel::kOnePort,
             {CollectiveAlgorithm::kMArrayAllgather, CollectiveAlgorithm::kMArrayReduce,
              CollectiveAlgorithm::kMArrayAllreduce, CollectiveAlgorithm::kMMeshAllreduce,
              CollectiveAlgorithm::kTreeRowcolAllreduce},
             RootSelection::kOne}),
    [](const ::testing::TestParamInfo<Case>& i) { return i.param.name; });

}  // namespace
}  // namespace wormsim
