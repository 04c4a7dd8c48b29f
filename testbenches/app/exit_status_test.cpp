// Exit codes (docs/cli.md, "Exit codes"), decided by collective_status() and
// synthetic_status() from how a run ended. Firmware that breaks run_collective's contract in
// one way each (a bad register access, a receive that is never matched, wrong bytes, a
// delivery missing or doubled, a message left unread) must give the code and message the
// table promises, and so must a router that corrupts one flit on a link (the scoreboard's
// checksum); the real firmware and routers give 0.
#include <gtest/gtest.h>

#include <systemc>

#include "collective_harness.h"
#include "exit_status.h"
#include "router.h"
#include "synthetic_network.h"
#include "network_test_util.h"
#include "runtime.h"

namespace wormsim::exit_status_test {
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
  EXPECT_TRUE(has(s.message,
                  ", in operation 0 (separate_addressing, root 0, 16 bytes): register "
                  "TX0_DST"))
      << s.message;
  EXPECT_TRUE(has(s.message, "destination node 42 does not exist (9 nodes)")) << s.message;
}

// Uses about `frames` KiB of stack, writing all of it.
__attribute__((noinline)) int deep(int frames) {
  volatile char frame[1024];
  for (volatile char& b : frame) b = static_cast<char>(frames);
  if (frames == 0) return frame[0];
  return deep(frames - 1) + frame[1023];
}

// A firmware stack overflow (the canary below the fibre's stack, ni/processor.h) is a firmware
// error like a bad register access: exit 1, naming the node and the cycle. The operation starts
// in cycle 1; node 4 computes 5 cycles, recurses past its stack and is found out when it next
// switches back, in cycle 6.
TEST(CollectiveStatus, FirmwareStackOverflowIsAnErrorNamingNodeAndCycle) {
  const CollectiveFirmware firmware = [](fw::Runtime& rt, const fw::Operation& op,
                                         const std::vector<std::uint8_t>& data,
                                         const fw::Deliver& deliver, const fw::FirmwareTables&) {
    if (rt.id() == 4) {
      rt.compute(5);
      deep(static_cast<int>(Processor::kStackBytes / 1024) + 8);  // 8 KiB past the stack
      rt.compute(1);
    }
    if (rt.id() == op.root)
      for (NodeId d : op.destinations) rt.send(d, data, 1);
    else
      deliver(rt.receive().data);
  };
  const RunStatus s = run(firmware);
  EXPECT_EQ(s.code, ExitCode::kError);
  EXPECT_TRUE(has(s.message, "wormsim: firmware error: node 4, cycle 6: firmware stack overflow"))
      << s.message;
}

TEST(CollectiveStatus, ReceiveNeverMatchedIsAStallExitingThreeListingTheNodes) {
  Faulty f;
  f.root_send = [](fw::Runtime& rt, const fw::Operation&, const std::vector<std::uint8_t>& data) {
    for (NodeId d : {1u, 2u, 3u, 4u, 5u, 6u}) rt.send(d, data, 1);  // 7 and 8 never hear
  };
  const RunStatus s = run(f.firmware());
  EXPECT_EQ(s.code, ExitCode::kDeadlock);
  EXPECT_TRUE(has(s.message, "firmware stalled at cycle")) << s.message;
  EXPECT_TRUE(has(s.message, "in operation 0 (separate_addressing, root 0, 16 bytes)"))
      << s.message;
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
  EXPECT_TRUE(has(s.message,
                  "first: operation 0 (separate_addressing, root 0, 16 bytes): node 1 "
                  "delivered twice"))
      << s.message;
}

TEST(CollectiveStatus, NotDeliveringIsAVerificationError) {
  Faulty f;
  f.deliver_at = [](const fw::Message&, const fw::Deliver&) {};
  const RunStatus s = run(f.firmware());
  EXPECT_EQ(s.code, ExitCode::kError);
  EXPECT_TRUE(has(s.message, "verification failed: 8 collective errors")) << s.message;
  EXPECT_TRUE(has(s.message,
                  "first: operation 0 (separate_addressing, root 0, 16 bytes): node 1 "
                  "never delivered"))
      << s.message;
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

// ---- Synthetic runs: a router that flips one payload bit ---------------------------------

// The C++ router, except that the first body flit it sends flips one payload bit on the link,
// as a faulty crossbar would.
class CorruptingRouter : public Router {
 public:
  using Router::Router;

 protected:
  StepResult step_unchecked(Cycle now, ActivityCalendar& calendar, bool measuring) override {
    const StepResult r = Router::step_unchecked(now, calendar, measuring);
    for (int p = 0; p < params().layout.outputs() && !done_; ++p) {
      Link* link = output(p).link;
      if (link == nullptr || link->flits.size() != 1) continue;
      DelayLine<Flit>& line = link->flits;
      if (line.front_arrival() != now + static_cast<Cycle>(line.latency())) continue;  // older
      if (line.front().index == 0) continue;  // a head: keep the route intact
      Flit f = line.front();
      line.pop();
      f.payload[0] ^= 1;
      line.push(now, f);
      done_ = true;
    }
    return r;
  }

 private:
  bool done_ = false;
};

class CorruptingFactory : public RouterFactory {
 public:
  std::unique_ptr<Router> make(const char* name, const RouterContext& ctx) override {
    if (ctx.params.id == 5)
      return std::make_unique<CorruptingRouter>(name, ctx.params, ctx.route_compute, ctx.multicast);
    return std::make_unique<Router>(name, ctx.params, ctx.route_compute, ctx.multicast);
  }
};

RunStatus run_synthetic(std::shared_ptr<RouterFactory> factory) {
  Config c = testing::mesh_config({4, 4});
  c.traffic.injection_rate = 0;  // one scripted packet: 4 -> 7 through router 5
  c.simulation.warmup_cycles = 0;
  c.simulation.measure_cycles = 100;
  NetworkOptions options;
  options.quiet = true;
  options.router_factory = std::move(factory);
  SyntheticNetwork net("net", c, options);
  net.schedule_packet(4, 7, 4, 10);
  sc_core::sc_start();
  return synthetic_status(net);
}

TEST(SyntheticStatus, CorruptedFlitIsAScoreboardViolationExitingOne) {
  const RunStatus s = run_synthetic(std::make_shared<CorruptingFactory>());
  EXPECT_EQ(s.code, ExitCode::kError);
  EXPECT_TRUE(has(s.message, "verification failed: 1 scoreboard violations")) << s.message;
}

TEST(SyntheticStatus, CleanRoutersSucceed) {  // the same run with the C++ router everywhere
  const RunStatus s = run_synthetic(nullptr);
  EXPECT_EQ(s.code, ExitCode::kOk) << s.message;
}

}  // namespace
}  // namespace wormsim::exit_status_test
