// Background load during collective runs (collective.background.*, CollectiveHarness and the
// NI's background source, docs/collectives.md "Background load"):
//   - background packets are delivered and discarded by the NIs: they never reach the firmware
//     (every operation verifies, and the set-up counts stay those of the algorithm's definition)
//     and the network drains completely at the end;
//   - a firmware stall is still reported while background keeps the network busy, and a
//     deadlock under load still ends the run with exit code 3;
//   - through the CLI: with load the collective is never faster than at zero load (and slower
//     in all), load 0 is bit-identical to a run without the key, and bad keys exit 2 naming
//     them.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <systemc>

#include <nlohmann/json.hpp>

#include "cli_test_util.h"
#include "collective_harness.h"
#include "collective_report.h"
#include "collective_test_util.h"
#include "exit_status.h"
#include "network_test_util.h"

namespace wormsim::background_load_test {
namespace {

Config loaded(CollectiveAlgorithm alg, double load) {
  Config c = testing::mesh_config({4, 4});
  c.workload = Workload::kCollective;
  c.collective.algorithms = {alg};
  c.collective.roots = RootSelection::kSample;
  c.collective.sample = 3;
  c.collective.message_bytes = {16, 96};
  c.node.alpha_cycles = 20;
  c.node.gamma_cycles = 10;
  c.collective.background.load = load;
  c.collective.background.packet_length = 4;
  c.collective.background.warmup_cycles = 300;
  c.trace.timeline = false;
  return c;
}

TEST(BackgroundLoad, NeverReachesTheFirmwareAndEveryOperationVerifies) {
  const Config c = loaded(CollectiveAlgorithm::kRecursiveDoubling, 0.3);
  c.validate();
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(testing::run_collective_clean(h));
  // Recursive doubling on 16 nodes: the root sends log2 16 = 4 times and every node receives
  // exactly once; a background packet reaching a processor would be a second receive.
  for (const OperationResult& r : h.results()) {
    EXPECT_EQ(r.max_sends, 4u) << describe_operation(r.op);
    EXPECT_EQ(r.max_receives, 1u) << describe_operation(r.op);
    EXPECT_EQ(r.messages, 15u) << describe_operation(r.op);
  }
  // The first operation starts after the warm-up: one cycle for the processors to start, then
  // warmup_cycles.
  EXPECT_EQ(h.results().front().start, 1u + 300u);
  const BackgroundResult b = h.background();
  EXPECT_GT(b.packets_delivered, 0u);
  EXPECT_GT(b.packets_measured, 0u);
  EXPECT_LE(b.packets_measured, b.packets_delivered);
  // Generation stopped when the last operation ended and the network drained.
  EXPECT_EQ(b.packets_created, b.packets_delivered);
  EXPECT_EQ(h.network().outcome(), RunOutcome::kCompleted);
  // A background packet spends at least its serialisation plus one hop: more than its length.
  EXPECT_GT(b.mean_latency, 4.0);
  EXPECT_GE(b.mean_latency, b.mean_network_latency);
  // The firmware's messages met the background traffic.
  std::uint64_t blocked = 0;
  for (const OperationResult& r : h.results()) blocked += r.blocked_cycles;
  EXPECT_GT(blocked, 0u);
  const nlohmann::json j = collective_json(h);
  ASSERT_TRUE(j.contains("background"));
  EXPECT_EQ(j["background"]["packets_delivered"].get<std::uint64_t>(), b.packets_delivered);
  EXPECT_DOUBLE_EQ(j["background"]["mean_latency_cycles"].get<double>(), b.mean_latency);
}

TEST(BackgroundLoad, NoBackgroundSectionWithoutLoad) {
  const Config c = loaded(CollectiveAlgorithm::kRecursiveDoubling, 0);
  c.validate();
  CollectiveHarness h("h", c);
  sc_core::sc_start();
  h.finish();
  ASSERT_TRUE(h.all_operations_run());
  EXPECT_EQ(h.results().front().start, 1u);  // no warm-up without background
  EXPECT_FALSE(collective_json(h).contains("background"));
  EXPECT_EQ(h.background().packets_created, 0u);
}

// While background runs the network never idles; the harness must still see the stall.
TEST(BackgroundLoad, AFirmwareStallIsReportedWhileBackgroundRuns) {
  const CollectiveFirmware waits =
      [](fw::Runtime& rt, const fw::Operation& op, const std::vector<std::uint8_t>& data,
         const fw::Deliver& deliver, const fw::FirmwareTables& tables) {
        fw::run_collective(rt, op, data, deliver, tables);
        if (op.index == 1 && rt.id() == 6) rt.receive();
      };
  Config c = loaded(CollectiveAlgorithm::kRecursiveDoubling, 0.2);
  c.simulation.watchdog_cycles = 2000;
  c.validate();
  CollectiveHarness h("h", c, {}, waits);
  sc_core::sc_start();
  h.finish();
  ASSERT_TRUE(h.stall());
  EXPECT_EQ(h.results().size(), 1u);
  const RunStatus s = collective_status(h);
  EXPECT_EQ(s.code, ExitCode::kDeadlock);
  EXPECT_NE(s.message.find("no message of the operation is in flight and node 6 waits in "
                           "receive()"),
            std::string::npos)
      << s.message;
}

// Tree worms of 16 concurrent roots on a one-port 4x4 mesh with 64-flit worms in 4-flit
// buffers (outside the safe configurations of docs/multidestination.md) deadlock; with
// background traffic flowing the watchdog must still fire.
TEST(BackgroundLoad, ADeadlockUnderLoadIsDetected) {
  Config c = loaded(CollectiveAlgorithm::kAllgatherMulticast, 0.1);
  c.network.router.multidest = MultidestMode::kTree;
  c.network.flit_bytes = 1;
  c.collective.message_bytes = {64};
  c.simulation.watchdog_cycles = 3000;
  c.validate();
  CollectiveHarness h("h", c);
  sc_core::sc_start();
  h.finish();
  ASSERT_TRUE(h.network().deadlock());
  EXPECT_FALSE(h.network().deadlock()->cycle.empty());
  EXPECT_EQ(collective_status(h).code, ExitCode::kDeadlock);
}

// ---- through the CLI --------------------------------------------------------------------------

namespace fs = std::filesystem;

using wormsim::testing::CliRun;

// The executable's stdout (with stderr when `with_stderr`).
CliRun wormsim_cli(const std::string& args, bool with_stderr = false) {
  return wormsim::testing::run_wormsim(args, with_stderr);
}

class BackgroundCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("wormsim_bg_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" +
            std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  nlohmann::json results(const std::string& out) const {
    std::ifstream in(dir_ / out / "results.json");
    return nlohmann::json::parse(in);
  }
  // The main job, made small: 4x4, three sizes, recursive doubling from 4 roots.
  const std::string base_ =
      "run --set network.dims=[4,4] --set collective.algorithms=[recursive_doubling] "
      "--set collective.message_bytes=[32,256,1024] --set collective.sample=4 "
      "--set trace.enabled=false --set trace.timeline=false";
  fs::path dir_;
};

TEST_F(BackgroundCli, LoadZeroIsBitIdenticalToARunWithoutTheKeys) {
  const CliRun without = wormsim_cli(base_ + " --out " + (dir_ / "a").string());
  const CliRun zero =
      wormsim_cli(base_ + " --set collective.background.load=0 --out " + (dir_ / "b").string());
  ASSERT_EQ(without.code, 0) << without.out;
  ASSERT_EQ(zero.code, 0) << zero.out;
  nlohmann::json a = results("a");
  nlohmann::json b = results("b");
  for (nlohmann::json* j : {&a, &b}) {  // how and how fast the run was made, not what it gave
    j->erase("command_line");
    j->erase("wall_seconds");
  }
  EXPECT_EQ(a, b);
  const auto summary = [](const std::string& out) { return out.substr(0, out.find("simulated")); };
  EXPECT_EQ(summary(without.out), summary(zero.out));
}

TEST_F(BackgroundCli, UnderLoadTheOperationIsNeverFasterAndBackgroundIsDelivered) {
  const CliRun idle = wormsim_cli(base_ + " --out " + (dir_ / "idle").string());
  const CliRun busy = wormsim_cli(base_ +
                                  " --set collective.background.load=0.3 --set "
                                  "collective.background.warmup_cycles=2000 --out " +
                                  (dir_ / "busy").string());
  ASSERT_EQ(idle.code, 0) << idle.out;
  ASSERT_EQ(busy.code, 0) << busy.out;
  const nlohmann::json a = results("idle")["collective"];
  const nlohmann::json b = results("busy")["collective"];
  ASSERT_EQ(a["operations"].size(), b["operations"].size());
  ASSERT_EQ(b["verification_errors"], 0);
  double idle_sum = 0;
  double busy_sum = 0;
  for (std::size_t i = 0; i < a["operations"].size(); ++i) {
    const auto& x = a["operations"][i];
    const auto& y = b["operations"][i];
    ASSERT_EQ(x["root"], y["root"]);
    ASSERT_EQ(x["bytes"], y["bytes"]);
    EXPECT_GE(y["max_latency_cycles"].get<double>(), x["max_latency_cycles"].get<double>()) << i;
    EXPECT_GE(y["avg_latency_cycles"].get<double>(), x["avg_latency_cycles"].get<double>()) << i;
    idle_sum += x["max_latency_cycles"].get<double>();
    busy_sum += y["max_latency_cycles"].get<double>();
    // The first operation starts after one cycle plus the warm-up.
    if (i == 0) {
      EXPECT_EQ(y["start_cycle"].get<std::uint64_t>(), 2001u);
    }
  }
  EXPECT_GT(busy_sum, idle_sum);
  ASSERT_TRUE(b.contains("background"));
  EXPECT_FALSE(a.contains("background"));
  EXPECT_GT(b["background"]["packets_delivered"].get<std::uint64_t>(), 0u);
  EXPECT_GT(b["background"]["mean_latency_cycles"].get<double>(), 5.0);
  EXPECT_NE(busy.out.find("  background: 0.3 flits/node/cycle of 5-flit uniform_random packets"),
            std::string::npos)
      << busy.out;
}

TEST_F(BackgroundCli, BadKeysExitTwoNamingThem) {
  const struct {
    const char* set;
    const char* key;
  } cases[] = {
      {"collective.background.load=-0.5", "collective.background.load"},
      {"collective.background.load=9", "collective.background.load"},
      {"collective.background.packet_length=0", "collective.background.packet_length"},
      {"collective.background.pattern=hotspot", "collective.background.pattern"},
      {"collective.background.pattern=sideways", "collective.background.pattern"},
      {"collective.background.lod=0.1", "collective.background.lod"},
      {"collective.algorithms=[allgather_multicast]", "collective.algorithms[0]"},
  };
  for (const auto& k : cases) {
    const CliRun r = wormsim_cli(base_ + " --set " + k.set + " --out " + (dir_ / "x").string(),
                                 /*with_stderr=*/true);
    EXPECT_EQ(r.code, 2) << k.set << ": " << r.out;
    EXPECT_NE(r.out.find(k.key), std::string::npos) << k.set << ": " << r.out;
  }
}

}  // namespace
}  // namespace wormsim::background_load_test
