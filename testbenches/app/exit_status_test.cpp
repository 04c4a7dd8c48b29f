// Exit codes of collective runs (docs/cli.md, "Exit codes"), decided by collective_status()
// from how the harness's run ended. Firmware that breaks run_collective's contract in one way
// each (a bad register access, a receive that is never matched, wrong bytes, a delivery
// missing or doubled, a message left unread) must give the code and message the table
// promises; the real firmware gives 0.
#include <gtest/gtest.h>

#include <systemc>

#include "collective_harness.h"
#include "exit_status.h"
#include "network_test_util.h"
#include "runtime.h"

namespace wormsim {
namespace {

// Separate addressing from root 0 to every other node of a 3x3 mesh, 16 bytes.
Config small_broadcast() {
  Config c = testing::mesh_config({3, 3});
  c.workload = Workload::kCollective;
  c.collective.algorithms = {CollectiveAlgorithm::kSeparateAddressing};
  c.collective.roots = RootSelection::kOne;
  c.collective.root = 0;
  c.collective.message_bytes = {16};
  return c;
}

// Correct firmware with one fault hook per role: `root_send` sends the root's data (and may
// do more), `deliver_at` delivers at a destination.
struct Faulty {
  std::function<void(fw::Runtime&, const fw::Operation&, const std::vector<std::uint8_t>&)>
      root_send =
          [](fw::Runtime& rt, const fw::Operation& op, const std::vector<std::uint8_t>& data) {
            for (NodeId d : op.destinations) rt.send(d, data, 1);
          };
  std::function<void(const fw::Message&, const fw::Deliver&)> deliver_at =
      [](const fw::Message& m, const fw::Deliver& deliver) { deliver(m.data); };

  CollectiveFirmware firmware() const {
    return [*this](fw::Runtime& rt, const fw::Operation& op, const std::vector<std::uint8_t>& data,
                   const fw::Deliver& deliver, const fw::FirmwareTables&) {
      if (rt.id() == op.root)
        root_send(rt, op, data);
      else
        deliver_at(rt.receive(), deliver);
    };
  }
};

RunStatus run(const CollectiveFirmware& firmware) {
  CollectiveHarness h("h", small_broadcast(), {}, firmware);
  sc_core::sc_start();
  h.finish();
  return collective_status(h);
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(CollectiveStatus, ShippedFirmwareSucceeds) {
  const RunStatus s = run(fw::run_collective);
  EXPECT_EQ(s.code, ExitCode::kOk);
  EXPECT_EQ(s.message, "");
}

TEST(CollectiveStatus, FaithfulTestFirmwareSucceeds) {  // the fixture itself is correct
  const RunStatus s = run(Faulty{}.firmware());
  EXPECT_EQ(s.code, ExitCode::kOk) << s.message;
}

TEST(CollectiveStatus, BadRegisterAccessIsAnErrorNamingNodeCycleAndRegister) {
  Faulty f;
  f.root_send = [](fw::Runtime& rt, const fw::Operation&, const std::vector<std::uint8_t>& data) {
    rt.send(42, data);  // a 9-node network
  };
  const RunStatus s = run(f.firmware());
  EXPECT_EQ(s.code, ExitCode::kError);
  EXPECT_TRUE(has(s.message, "wormsim: firmware error: node 0, cycle ")) << s.message;
  EXPECT_TRUE(has(s.message, "TX0_DST")) << s.message;
  EXPECT_TRUE(has(s.message, "destination node 42 does not exist (9 nodes)")) << s.message;
}

TEST(CollectiveStatus, ReceiveNeverMatchedIsAStallExitingThreeListingTheNodes) {
  Faulty f;
  f.root_send = [](fw::Runtime& rt, const fw::Operation&, const std::vector<std::uint8_t>& data) {
    for (NodeId d : {1u, 2u, 3u, 4u, 5u, 6u}) rt.send(d, data, 1);  // 7 and 8 never hear
  };
  const RunStatus s = run(f.firmware());
  EXPECT_EQ(s.code, ExitCode::kDeadlock);
  EXPECT_TRUE(has(s.message, "firmware stalled at cycle")) << s.message;
  EXPECT_TRUE(has(s.message, "nodes 7, 8 wait in receive()")) << s.message;
}

TEST(CollectiveStatus, WrongBytesAreAVerificationError) {
  Faulty f;
  f.deliver_at = [](const fw::Message& m, const fw::Deliver& deliver) {
    std::vector<std::uint8_t> bytes = m.data;
    bytes.back() ^= 1;
    deliver(bytes);
  };
  CollectiveHarness h("h", small_broadcast(), {}, f.firmware());
  sc_core::sc_start();
  h.finish();
  const RunStatus s = collective_status(h);
  EXPECT_EQ(s.code, ExitCode::kError);
  EXPECT_TRUE(has(s.message, "verification failed: 8 collective errors, 0 scoreboard"))
      << s.message;
  ASSERT_EQ(h.results().size(), 1u);
  EXPECT_EQ(h.results()[0].errors.front(), "node 1 delivered wrong bytes");
}

TEST(CollectiveStatus, DeliveringTwiceIsAVerificationError) {
  Faulty f;
  f.deliver_at = [](const fw::Message& m, const fw::Deliver& deliver) {
    deliver(m.data);
    deliver(m.data);
  };
  const RunStatus s = run(f.firmware());
  EXPECT_EQ(s.code, ExitCode::kError);
  EXPECT_TRUE(has(s.message, "verification failed: 8 collective errors")) << s.message;
}

TEST(CollectiveStatus, NotDeliveringIsAVerificationError) {
  Faulty f;
  f.deliver_at = [](const fw::Message&, const fw::Deliver&) {};
  const RunStatus s = run(f.firmware());
  EXPECT_EQ(s.code, ExitCode::kError);
  EXPECT_TRUE(has(s.message, "verification failed: 8 collective errors")) << s.message;
}

TEST(CollectiveStatus, AMessageLeftUnreadIsAVerificationError) {
  Faulty f;
  f.root_send = [](fw::Runtime& rt, const fw::Operation& op,
                   const std::vector<std::uint8_t>& data) {
    for (NodeId d : op.destinations) rt.send(d, data, 1);
    rt.send(4, data, 2);  // node 4 receives once and returns
  };
  CollectiveHarness h("h", small_broadcast(), {}, f.firmware());
  sc_core::sc_start();
  h.finish();
  const RunStatus s = collective_status(h);
  EXPECT_EQ(s.code, ExitCode::kError);
  ASSERT_EQ(h.results().size(), 1u);
  ASSERT_EQ(h.results()[0].errors.size(), 1u);
  EXPECT_EQ(h.results()[0].errors[0], "node 4 left 1 messages unread");
}

}  // namespace
}  // namespace wormsim
