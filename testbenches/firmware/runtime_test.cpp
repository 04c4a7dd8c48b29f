// The firmware runtime's machine model (firmware/runtime.h; seed 002 section 2), end to end
// through the processor, the NI registers and the network, read from the message log:
//   - per-packet software cost: a message of P packets costs the sender alpha + (P - 1) x
//     node.send_packet_cycles before its doorbell and the receiver gamma + (P - 1) x
//     node.receive_packet_cycles after taking it, so messages that fit one packet cost the
//     same (seed 002 section 3.2: "sending messages of size <= 482 bytes costs approximately
//     the same");
//   - blocking sends: the next send starts only once the last flit of the previous one has
//     left the NI (TXc_DONE); non-blocking, right after the doorbell;
//   - messages beyond 64 KiB, up to the NI's 16 MiB window, arrive intact in packets.
#include <gtest/gtest.h>

#include <algorithm>
#include <systemc>

#include "collective_harness.h"
#include "collective_report.h"
#include "collective_test_util.h"
#include "network_test_util.h"

namespace wormsim::runtime_test {
namespace {

// Gathers between two neighbours (node 1 sends its block to the root 0), one operation per
// size, in packets of 56 data bytes.
TEST(PerPacketCost, FurtherPacketsCostTheSenderAndTheReceiverEach) {
  Config c = testing::mesh_config({2});
  c.workload = Workload::kCollective;
  c.collective.algorithms = {CollectiveAlgorithm::kGatherDirect};
  c.collective.roots = RootSelection::kOne;
  c.collective.message_bytes = {1, 56, 57, 200, 560};  // 1, 1, 2, 4, 10 packets
  c.node.alpha_cycles = 30;
  c.node.gamma_cycles = 12;
  c.node.max_packet_bytes = 64;
  c.node.header_bytes = 8;
  c.node.send_packet_cycles = 10;
  c.node.receive_packet_cycles = 25;
  c.validate();
  CollectiveHarness h("h", c);
  sc_core::sc_start();
  h.finish();
  ASSERT_EQ(h.verification_errors(), 0u) << collective_summary_text(h);
  ASSERT_EQ(h.log().records().size(), 5u);
  for (const MessageRecord& m : h.log().records()) {
    const Cycle further = (m.bytes + 55) / 56 - 1;
    EXPECT_EQ(m.packets, static_cast<int>(further + 1)) << m.bytes << " bytes";
    EXPECT_EQ(m.doorbell - m.send_begin, 30 + further * 10) << m.bytes << " bytes";
    EXPECT_EQ(m.received - m.receive_begin, 12 + further * 25) << m.bytes << " bytes";
  }
}

// Scatter ST from the middle of a 3-node line: the root sends 32 bytes (4 flits of 8 bytes,
// one packet) to node 0, then to node 2.
std::vector<MessageRecord> scatter_from_the_middle(SendMode mode) {
  Config c = testing::mesh_config({3});
  c.workload = Workload::kCollective;
  c.collective.algorithms = {CollectiveAlgorithm::kScatterSequential};
  c.collective.roots = RootSelection::kOne;
  c.collective.root = 1;
  c.collective.message_bytes = {32};
  c.node.alpha_cycles = 100;  // longer than a message's injection
  c.node.send_mode = mode;
  c.validate();
  CollectiveHarness h("h", c);
  sc_core::sc_start();
  h.finish();
  EXPECT_EQ(h.verification_errors(), 0u) << collective_summary_text(h);
  std::vector<MessageRecord> r = h.log().records();
  std::sort(r.begin(), r.end(),
            [](const MessageRecord& a, const MessageRecord& b) { return a.seq < b.seq; });
  return r;
}

TEST(NonBlockingSend, ReturnsOnceTheDescriptorIsQueued) {
  const std::vector<MessageRecord> r = scatter_from_the_middle(SendMode::kNonBlocking);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[1].send_begin, r[0].doorbell);
}

// The first message's 4 flits leave in cycles injected .. injected + 3; TXc_DONE shows it
// from the cycle after, when the processor wakes and starts the second send.
TEST(BlockingSend, ReturnsOnceTheLastFlitHasLeftTheNi) {
  const std::vector<MessageRecord> r = scatter_from_the_middle(SendMode::kBlocking);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].flits, 4u);
  EXPECT_EQ(r[0].injected, r[0].doorbell + 1);
  EXPECT_EQ(r[1].send_begin, r[0].injected + 4);
}

// Messages larger than the 64 KiB the NI used to take, in packets of 4 KiB: every byte
// arrives where it belongs (the harness checks each block).
void run_large(CollectiveAlgorithm alg, std::uint32_t largest_message) {
  Config c = testing::mesh_config({2, 2});
  c.workload = Workload::kCollective;
  c.collective.algorithms = {alg};
  c.collective.roots = RootSelection::kOne;
  c.collective.message_bytes = {70001};
  c.node.max_packet_bytes = 4096;
  c.node.header_bytes = 16;
  c.validate();
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(testing::run_collective_clean(h));
  ASSERT_EQ(h.results().size(), 1u);
  std::uint32_t largest = 0;
  for (const MessageRecord& m : h.log().records()) largest = std::max(largest, m.bytes);
  EXPECT_EQ(largest, largest_message);
}

TEST(LargeMessages, GatherOfSeventyKibBlocks) {
  run_large(CollectiveAlgorithm::kGatherDirect, 70001);
}
// Binomial scatter over 4 nodes: the root's first message carries two blocks.
TEST(LargeMessages, BinomialScatterCarryingTwoSeventyKibBlocks) {
  run_large(CollectiveAlgorithm::kScatterBinomial, 2 * 70001);
}

}  // namespace
}  // namespace wormsim::runtime_test
