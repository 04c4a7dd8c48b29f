// The MPI-named calls (firmware/communicator.h) give what MPI's calls give: the harness runs
// every operation kind through a firmware that does nothing but call the Communicator (with
// MPI's buffer layouts), and verifies every delivery byte for byte as it does for the
// algorithms themselves; a call naming an algorithm of another kind is refused.
#include <gtest/gtest.h>

#include <cstring>
#include <systemc>

#include "collective_data.h"
#include "collective_harness.h"
#include "collective_test_util.h"
#include "communicator.h"
#include "network_test_util.h"

namespace wormsim::communicator_test {
namespace {

bool is_destination(const fw::Operation& op, NodeId n) {
  return std::binary_search(op.destinations.begin(), op.destinations.end(), n);
}

// The harness's operation, run through the Communicator.
void via_communicator(fw::Runtime& rt, const fw::Operation& op,
                      const std::vector<std::uint8_t>& data, const fw::Deliver& deliver,
                      const fw::FirmwareTables& tables) {
  fw::Communicator comm(rt, tables);
  const NodeId self = rt.id();
  const bool root = self == op.root;
  switch (kind_of(op.algorithm)) {
    case CollectiveKind::kBroadcast: {
      // MPI_Bcast: every rank passes a buffer of the message's size.
      const auto r =
          comm.bcast(root ? data : std::vector<std::uint8_t>(op.bytes), op.root, op.algorithm);
      if (is_destination(op, self)) deliver(r);
      return;
    }
    case CollectiveKind::kScatter: {
      // MPI_Scatter's sendbuf: a block per rank in rank order, the root's own included.
      std::vector<std::uint8_t> sendbuf;
      if (root)
        for (int n = 0; n < comm.size(); ++n) {
          const std::vector<std::uint8_t> b =
              static_cast<NodeId>(n) == op.root
                  ? std::vector<std::uint8_t>(op.bytes, 0xee)
                  : fw::scatter_chunk(op, data, static_cast<NodeId>(n));
          sendbuf.insert(sendbuf.end(), b.begin(), b.end());
        }
      const auto r = comm.scatter(sendbuf, op.bytes, op.root, op.algorithm);
      if (root)
        EXPECT_EQ(r, std::vector<std::uint8_t>(op.bytes, 0xee));  // its own block
      else
        deliver(r);
      return;
    }
    case CollectiveKind::kGather: {
      const auto r = comm.gather(data, op.root, op.algorithm);
      if (root) deliver(r);
      return;
    }
    case CollectiveKind::kReduce: {
      const auto r = comm.reduce(data, op.root, op.reduce_op, op.reduce_type, op.algorithm);
      if (root) deliver(r);
      return;
    }
    case CollectiveKind::kAllreduce:
      deliver(comm.allreduce(data, op.reduce_op, op.reduce_type, op.algorithm));
      return;
    case CollectiveKind::kAllgather: deliver(comm.allgather(data, op.algorithm)); return;
    case CollectiveKind::kAlltoall: deliver(comm.alltoall(data, op.bytes, op.algorithm)); return;
    case CollectiveKind::kBarrier:
      // The harness's staggered entry (fw::barrier_arrival), then the barrier.
      rt.compute(fw::barrier_arrival(op, self));
      comm.barrier(op.algorithm);
      deliver({});
      return;
    default: FAIL() << "no MPI call for " << to_string(op.algorithm);
  }
}

class ThroughTheCommunicator : public ::testing::TestWithParam<CollectiveAlgorithm> {};

TEST_P(ThroughTheCommunicator, DeliversWhatTheOperationPrescribes) {
  Config c = testing::mesh_config({4, 4});
  c.workload = Workload::kCollective;
  c.collective.algorithms = {GetParam()};
  c.collective.roots = RootSelection::kSample;
  c.collective.sample = 3;
  c.collective.message_bytes = {8, 96};
  if (GetParam() == CollectiveAlgorithm::kEdnBroadcast ||
      GetParam() == CollectiveAlgorithm::kEdnReduce)
    c.network.router.port_model = PortModel::kAllPort;  // EDN: all-port, XY
  c.validate();
  CollectiveHarness h("h", c, {}, via_communicator);
  ASSERT_NO_FATAL_FAILURE(testing::run_collective_clean(h));
}

INSTANTIATE_TEST_SUITE_P(
    OneAlgorithmOrMorePerKind, ThroughTheCommunicator,
    ::testing::Values(CollectiveAlgorithm::kRecursiveDoubling, CollectiveAlgorithm::kEdnBroadcast,
                      CollectiveAlgorithm::kScatterBinomial, CollectiveAlgorithm::kO2a2LevRec,
                      CollectiveAlgorithm::kGatherDirect, CollectiveAlgorithm::kA2oLogpLevSq,
                      CollectiveAlgorithm::kReduceBinomial, CollectiveAlgorithm::kEdnReduce,
                      CollectiveAlgorithm::kAllreduceRecursiveDoubling,
                      CollectiveAlgorithm::kAllgatherRing, CollectiveAlgorithm::kAlltoallDirect,
                      CollectiveAlgorithm::kAlltoallColumnRow,
                      CollectiveAlgorithm::kBarrierDissemination),
    [](const ::testing::TestParamInfo<CollectiveAlgorithm>& i) { return to_string(i.param); });

// A user operator (MPI_Op_create) through reduce and allreduce: element-wise xor of int32s.
TEST(Communicator, UserOperatorReducesEveryRanksVector) {
  Config c = testing::mesh_config({3, 3});
  c.workload = Workload::kCollective;
  c.collective.algorithms = {CollectiveAlgorithm::kAllreduceRecursiveDoubling};
  c.collective.message_bytes = {16};
  c.validate();
  const fw::Combine xor32 = [](std::vector<std::uint8_t>& acc,
                               const std::vector<std::uint8_t>& in) {
    for (std::size_t i = 0; i < acc.size(); ++i) acc[i] ^= in[i];
  };
  std::vector<std::vector<std::uint8_t>> reduced(9), allreduced(9);
  const CollectiveFirmware program =
      [&](fw::Runtime& rt, const fw::Operation& op, const std::vector<std::uint8_t>&,
          const fw::Deliver& deliver, const fw::FirmwareTables& tables) {
        fw::Communicator comm(rt, tables);
        const std::vector<std::uint8_t> mine(16, static_cast<std::uint8_t>(1u << (rt.id() % 8)));
        reduced[rt.id()] = comm.reduce(mine, 4, xor32, 4);
        rt.compute(2000);  // let the reduce's last messages land before the next operation
        allreduced[rt.id()] = comm.allreduce(mine, xor32, 4);
        (void)op;
        // The harness's own check is for its built-in inputs, not these: the test checks below.
        deliver(allreduced[rt.id()]);
      };
  CollectiveHarness h("h", c, {}, program);
  sc_core::sc_start();
  h.finish();
  ASSERT_TRUE(h.all_operations_run());
  ASSERT_FALSE(h.firmware_fault()) << *h.firmware_fault();
  // Ranks 0..8 contribute bytes 1, 2, 4, ..., 128, 1: their xor is 0xfe.
  const std::vector<std::uint8_t> expected(16, 0xfe);
  for (int n = 0; n < 9; ++n) {
    EXPECT_EQ(allreduced[n], expected) << "rank " << n;
    EXPECT_EQ(reduced[n], n == 4 ? expected : std::vector<std::uint8_t>{}) << "rank " << n;
  }
}

TEST(Communicator, AnAlgorithmOfAnotherKindIsRefused) {
  Config c = testing::mesh_config({2, 2});
  c.workload = Workload::kCollective;
  c.collective.algorithms = {CollectiveAlgorithm::kGatherDirect};
  c.collective.roots = RootSelection::kOne;
  c.collective.message_bytes = {8};
  c.validate();
  std::string error;
  const CollectiveFirmware program =
      [&](fw::Runtime& rt, const fw::Operation& op, const std::vector<std::uint8_t>& data,
          const fw::Deliver& deliver, const fw::FirmwareTables& tables) {
        fw::Communicator comm(rt, tables);
        try {
          comm.gather(data, op.root, CollectiveAlgorithm::kReduceBinomial);
        } catch (const std::invalid_argument& e) {
          if (rt.id() == 0) error = e.what();
        }
        if (rt.id() == op.root) deliver({});
      };
  CollectiveHarness h("h", c, {}, program);
  sc_core::sc_start();
  h.finish();
  EXPECT_EQ(error, "gather: reduce_binomial is a reduce algorithm, not a gather one");
}

}  // namespace
}  // namespace wormsim::communicator_test
