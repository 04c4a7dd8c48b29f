// Seed 004's collectives as firmware over path worms (firmware/m_array_firmware.cpp) through
// the collective harness: every delivery verified, and the step counts the seed's: broadcast
// on the M-array and REM-array in log2 N steps from every root (Example 1), the N/N global
// reduction and all-to-all broadcast by reduction with concatenation in log2 N steps (section
// 4), the M-mesh (Definition 4) in log2 cols + log2 rows, the row/column binomial-tree
// baseline in 2 (log2 cols + log2 rows); and, for the normal algorithms (section 4: "normal
// algorithms minimize contention for ports and channels"), no stepwise contention under
// Hamiltonian routing. Seed 004's remaining Table 1 rows: all-to-all broadcast on the M-mesh
// (reduction with concatenation along the rows, then the columns) in log2 cols + log2 rows
// steps and on the row/column binomial trees in 2 (log2 cols + log2 rows); the REM-array's
// reductions (our reconstruction, firmware/m_array.h) in log2 N steps; and their message counts
// against closed formulas of the schedules: deliveries (a worm counts at each destination),
// the most set-ups one node makes and the most messages one node receives.
#include <gtest/gtest.h>

#include <algorithm>

#include "collective_harness.h"
#include "collective_test_util.h"
#include "network_test_util.h"

namespace wormsim::m_array_firmware_test {
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
  // minimal: the minimal path-IR router (docs/multidestination.md), with address flits; the
  // step counts are the router's business as little as the seed's.
  PathIr path_ir = PathIr::kFull;
  HeaderEncoding minimal_encoding = HeaderEncoding::kAddressFlits;
};

class SeedArrays : public ::testing::TestWithParam<Case> {};

TEST_P(SeedArrays, VerifiedInTheSeedsStepCounts) {
  const Case& k = GetParam();
  Config c = testing::mesh_config(k.dims);
  c.workload = Workload::kCollective;
  c.network.routing.algorithm = k.routing;
  c.network.router.multidest = MultidestMode::kPath;
  c.network.router.port_model = k.ports;
  c.network.router.path_ir = k.path_ir;
  if (k.path_ir == PathIr::kMinimal) c.network.router.header_encoding = k.minimal_encoding;
  c.node.alpha_cycles = 20;
  c.node.gamma_cycles = 10;
  c.collective.algorithms = k.algorithms;
  c.collective.message_bytes = {16};
  c.collective.roots = k.roots;
  c.validate();
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(testing::run_collective_clean(h));
  // Every address flit the minimal router stripped is accounted for, none is left over.
  EXPECT_EQ(h.network().stats().flits_in_flight(), 0u);
  EXPECT_EQ(h.network().stats().flits_stripped() > 0, k.path_ir == PathIr::kMinimal);
  const int cols = k.dims[0], rows = k.dims[1];
  const int log_n = ceil_log2(cols * rows);
  const int mesh_steps = ceil_log2(cols) + ceil_log2(rows);
  const bool powers = (cols & (cols - 1)) == 0 && (rows & (rows - 1)) == 0;
  const auto n = static_cast<std::size_t>(cols * rows);
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
      case CollectiveAlgorithm::kMMeshAllgather:
        EXPECT_EQ(r.steps, mesh_steps);
        if (powers) {
          // One row or column worm a step to each node. A line position x holds the level-0
          // channel and one more, at level tz(x) (x even) or t1(x) (x odd), if below the line's
          // levels L: at most min(L, 2) sends a line.
          EXPECT_EQ(r.messages, n * static_cast<std::size_t>(mesh_steps));
          EXPECT_EQ(r.max_receives, static_cast<std::size_t>(mesh_steps));
          const int lc = ceil_log2(cols), lr = ceil_log2(rows);
          EXPECT_EQ(r.max_sends, static_cast<std::size_t>(std::min(lc, 2) + std::min(lr, 2)));
        }
        break;
      case CollectiveAlgorithm::kTreeRowcolAllgather:
        EXPECT_EQ(r.steps, 2 * mesh_steps);
        // N - 1 unicasts up the trees, N - 1 down; node (0, 0) receives log2 cols + log2 rows
        // going up and sends as many going down.
        EXPECT_EQ(r.messages, 2 * (n - 1));
        EXPECT_EQ(r.max_receives, static_cast<std::size_t>(mesh_steps));
        EXPECT_EQ(r.max_sends, static_cast<std::size_t>(mesh_steps));
        break;
      case CollectiveAlgorithm::kRemArrayReduce:
        EXPECT_EQ(r.steps, log_n);
        if (powers) {
          // N - 1 channel multicasts of N / 2 deliveries a step; the root receives every step.
          EXPECT_EQ(r.messages, n / 2 * static_cast<std::size_t>(log_n));
          EXPECT_EQ(r.max_receives, static_cast<std::size_t>(log_n));
        }
        if (k.routing == RoutingAlgorithm::kHamiltonian) {
          EXPECT_EQ(r.max_sends, 1u);  // one worm a channel; a node passes its result on once
        }
        break;
      case CollectiveAlgorithm::kRemArrayAllreduce:
        EXPECT_EQ(r.steps, log_n);
        if (powers) {
          EXPECT_EQ(r.messages, n * static_cast<std::size_t>(log_n));
          EXPECT_EQ(r.max_receives, static_cast<std::size_t>(log_n));
        }
        break;
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

// Seed 004's all-to-all broadcasts on the M-mesh and the trees, and the REM-array's reductions.
const std::vector<CollectiveAlgorithm> kSeed004More = {
    CollectiveAlgorithm::kMMeshAllgather, CollectiveAlgorithm::kTreeRowcolAllgather,
    CollectiveAlgorithm::kRemArrayReduce, CollectiveAlgorithm::kRemArrayAllreduce};
// Those that run under Hamiltonian routing (the M-mesh needs XY).
const std::vector<CollectiveAlgorithm> kRemAndTree = {CollectiveAlgorithm::kTreeRowcolAllgather,
                                                      CollectiveAlgorithm::kRemArrayReduce,
                                                      CollectiveAlgorithm::kRemArrayAllreduce};

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
             RootSelection::kOne},
        Case{"seed004_more_4x4_dor_one_port",
             {4, 4},
             RoutingAlgorithm::kDimensionOrder,
             PortModel::kOnePort,
             kSeed004More,
             RootSelection::kAll},
        Case{"seed004_more_4x4_dor_all_port",
             {4, 4},
             RoutingAlgorithm::kDimensionOrder,
             PortModel::kAllPort,
             kSeed004More,
             RootSelection::kOne},
        Case{"seed004_more_8x4_dor_one_port",
             {8, 4},
             RoutingAlgorithm::kDimensionOrder,
             PortModel::kOnePort,
             kSeed004More,
             RootSelection::kOne},
        Case{"seed004_more_8x4_dor_all_port",
             {8, 4},
             RoutingAlgorithm::kDimensionOrder,
             PortModel::kAllPort,
             kSeed004More,
             RootSelection::kOne},
        Case{"seed004_more_8x8_dor_one_port",
             {8, 8},
             RoutingAlgorithm::kDimensionOrder,
             PortModel::kOnePort,
             kSeed004More,
             RootSelection::kOne},
        Case{"seed004_more_8x8_dor_all_port",
             {8, 8},
             RoutingAlgorithm::kDimensionOrder,
             PortModel::kAllPort,
             kSeed004More,
             RootSelection::kOne},
        Case{"rem_4x4_hamiltonian_one_port_every_root",
             {4, 4},
             RoutingAlgorithm::kHamiltonian,
             PortModel::kOnePort,
             kRemAndTree,
             RootSelection::kAll},
        Case{"rem_8x4_hamiltonian_all_port",
             {8, 4},
             RoutingAlgorithm::kHamiltonian,
             PortModel::kAllPort,
             kRemAndTree,
             RootSelection::kOne},
        Case{"rem_8x8_hamiltonian_one_port",
             {8, 8},
             RoutingAlgorithm::kHamiltonian,
             PortModel::kOnePort,
             kRemAndTree,
             RootSelection::kOne},
        Case{"seed004_more_3x5_dor",
             {3, 5},
             RoutingAlgorithm::kDimensionOrder,
             PortModel::kOnePort,
             kSeed004More,
             RootSelection::kAll},
        Case{"minimal_ir_broadcast_4x4_hamiltonian_all_port_every_root",
             {4, 4},
             RoutingAlgorithm::kHamiltonian,
             PortModel::kAllPort,
             kBroadcasts,
             RootSelection::kAll,
             PathIr::kMinimal},
        Case{"minimal_ir_every_node_8x4_dor",
             {8, 4},
             RoutingAlgorithm::kDimensionOrder,
             PortModel::kAllPort,
             {CollectiveAlgorithm::kMArrayAllgather, CollectiveAlgorithm::kMArrayAllreduce,
              CollectiveAlgorithm::kMMeshAllreduce, CollectiveAlgorithm::kTreeRowcolAllreduce},
             RootSelection::kOne,
             PathIr::kMinimal},
        Case{"minimal_ir_seed004_more_8x8_dor_one_port",
             {8, 8},
             RoutingAlgorithm::kDimensionOrder,
             PortModel::kOnePort,
             kSeed004More,
             RootSelection::kOne,
             PathIr::kMinimal},
        // Ten 6-bit addresses per 8-byte header flit: the REM-array's long worms strip
        // some header flits and forward others with their address advanced.
        Case{"minimal_ir_list_seed004_more_8x8_dor_all_port",
             {8, 8},
             RoutingAlgorithm::kDimensionOrder,
             PortModel::kAllPort,
             kSeed004More,
             RootSelection::kOne,
             PathIr::kMinimal,
             HeaderEncoding::kAddressList}),
    [](const ::testing::TestParamInfo<Case>& i) { return i.param.name; });

}  // namespace
}  // namespace wormsim::m_array_firmware_test
