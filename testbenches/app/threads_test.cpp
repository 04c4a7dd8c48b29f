// Multi-core evaluation (docs/architecture.md "One cycle"; issue 23): the same seeded run with
// 1, 2 and 4 threads gives the same results.json and the same flit event log, byte for byte.
// results.json is compared without the fields that say how the run was made rather than what
// it computed: wall_seconds, command_line, engine (one thread runs the flat engine, more the
// reference engine: docs/architecture.md, "The flat engine"), threads, parallel_cycles and the
// config echo's simulation.threads. The flit event log (`wormsim run --flit-log`) lists every router
// departure in the order the routers report them, so it also pins the commit order. Every
// multi-threaded run must have evaluated cycles in parallel (parallel_cycles > 0), or the
// comparison would prove nothing. Runs the `wormsim` executable (WORMSIM_BIN, set by CTest).
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli_test_util.h"

namespace threads_test {
namespace {

namespace fs = std::filesystem;
using wormsim::testing::CliRun;
using wormsim::testing::read_file;
using wormsim::testing::run_wormsim;

std::string fmt_args(const std::string& args, int threads, const fs::path& out,
                     const fs::path& log) {
  return "run --quiet " + std::string(WORMSIM_SOURCE_DIR) + "/" + args + " --threads " +
         std::to_string(threads) + " --out " + out.string() + " --flit-log " + log.string();
}

struct ThreadsCase {
  const char* name;
  const char* args;  // config and overrides, without --threads / --out / --flit-log
};

void PrintTo(const ThreadsCase& c, std::ostream* os) { *os << c.name; }

class Threads : public ::testing::TestWithParam<ThreadsCase> {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("wormsim_threads_" + std::string(GetParam().name) + "_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_P(Threads, ResultsAndFlitLogAreBitIdenticalFor124Threads) {
  std::string reference_results;
  std::string reference_log;
  for (int threads : {1, 2, 4}) {
    const fs::path out = dir_ / ("t" + std::to_string(threads));
    const fs::path log = dir_ / ("flits" + std::to_string(threads) + ".txt");
    const CliRun r = run_wormsim(fmt_args(GetParam().args, threads, out, log));
    ASSERT_EQ(r.code, 0) << threads << " threads: " << r.out;
    std::ifstream in(out / "results.json");
    nlohmann::json j = nlohmann::json::parse(in);
    EXPECT_EQ(j.at("threads").get<int>(), threads);
    if (threads == 1)
      EXPECT_EQ(j.at("parallel_cycles").get<std::uint64_t>(), 0u);
    else
      EXPECT_GT(j.at("parallel_cycles").get<std::uint64_t>(), 0u) << "never ran in parallel";
    for (const char* k : {"wall_seconds", "command_line", "engine", "threads", "parallel_cycles"})
      j.erase(k);
    j.at("config").at("simulation").erase("threads");
    const std::string results = j.dump(2);
    const std::string flits = read_file(log);
    if (threads == 1) {
      reference_results = results;
      reference_log = flits;
      ASSERT_GT(flits.size(), 100000u) << "too small a run to compare";
      continue;
    }
    EXPECT_TRUE(results == reference_results) << threads << " threads: results.json differs";
    EXPECT_TRUE(flits == reference_log) << threads << " threads: flit event log differs";
  }
}

// --threads is simulation.threads: a bad value is a config error (exit 2) naming that key.
TEST(ThreadsOption, BadValueExitsTwoNamingTheKey) {
  for (const char* value : {"300", "-2", "two"}) {
    const CliRun r = run_wormsim(std::string("run --quiet --threads ") + value + " --out " +
                                 (fs::temp_directory_path() / "wormsim_threads_bad").string());
    EXPECT_EQ(r.code, 2) << value << ": " << r.out;
    EXPECT_NE(r.out.find("simulation.threads"), std::string::npos) << r.out;
  }
}

// simulation.threads 0 (the default): one thread per core, at most one per 512 routers, for
// synthetic runs, but one where the flat engine can run instead of two threads; one thread for
// collective runs, whose observed routers and serial NIs make
// a second thread cost more than it saves (systemc/fabric/network.cpp, resolve_threads).
TEST(ThreadsOption, DefaultIsOnePerCoreAndPer512RoutersAndOneForCollectives) {
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const fs::path out =
      fs::temp_directory_path() / ("wormsim_threads_auto_" + std::to_string(::getpid()));
  const auto threads_of = [&](const std::string& args) {
    fs::remove_all(out);  // a run that writes nothing must not be read as the previous one
    const CliRun r = run_wormsim("run --quiet " + args + " --out " + out.string());
    EXPECT_EQ(r.code, 0) << args << ": " << r.out;
    std::ifstream in(out / "results.json");
    return nlohmann::json::parse(in).at("threads").get<int>();
  };
  const std::string synthetic =
      std::string(WORMSIM_SOURCE_DIR) +
      "/configs/bench/booksim_matched.yaml "
      "--set simulation.warmup_cycles=10 --set simulation.measure_cycles=40";
  // 32x32: 1,024 routers, two threads' worth on the reference engine, which one flat-engine
  // thread beats (so `auto` takes that); 64x64: 4,096 routers, eight threads' worth, which the
  // flat engine gives way to from three on; 8x8: 64 routers, below one thread's 512.
  const std::string reference = " --set simulation.engine=reference";
  EXPECT_EQ(threads_of(synthetic + " --set network.dims=[32,32]" + reference), std::min(cores, 2));
  EXPECT_EQ(threads_of(synthetic + " --set network.dims=[32,32]"), 1);
  EXPECT_EQ(threads_of(synthetic + " --set network.dims=[64,64]" + reference), std::min(cores, 8));
  EXPECT_EQ(threads_of(synthetic + " --set network.dims=[64,64]"),
            cores <= 2 ? 1 : std::min(cores, 8));
  EXPECT_EQ(threads_of(synthetic + " --set network.dims=[8,8]"), 1);
  EXPECT_EQ(threads_of("--set network.dims=[32,32] --set collective.algorithms=[edn_broadcast] "
                       "--set collective.roots=one --set collective.message_bytes=[16] "
                       "--set trace.enabled=false --set trace.timeline=false"),
            1);
  fs::remove_all(out);
}

INSTANTIATE_TEST_SUITE_P(
    Runs, Threads,
    ::testing::Values(
        // Every cycle in parallel (parallel_min_routers 1).
        ThreadsCase{"mesh8x8_uniform",
                    "configs/synthetic_sweep.yaml --set traffic.injection_rate=0.3 "
                    "--set simulation.warmup_cycles=200 --set simulation.measure_cycles=1000 "
                    "--set simulation.parallel_min_routers=1"},
        // Serial and parallel cycles mixed (cycles with < 64 active routers run serially).
        ThreadsCase{"torus16x16_uniform",
                    "configs/synthetic_sweep.yaml --set network.topology=torus "
                    "--set network.dims=[16,16] --set traffic.injection_rate=0.2 "
                    "--set simulation.warmup_cycles=200 --set simulation.measure_cycles=600 "
                    "--set simulation.parallel_min_routers=64"},
        // Multidestination worms (tree replication) among unicast packets.
        ThreadsCase{"mesh8x8_multicast_mix",
                    "configs/multidest_load.yaml --set network.router.multidest=tree "
                    "--set network.router.replication=asynchronous "
                    "--set traffic.injection_rate=0.15 --set simulation.warmup_cycles=200 "
                    "--set simulation.measure_cycles=1000 "
                    "--set simulation.parallel_min_routers=1"},
        // Path worms on the minimal path-IR router (address flits stripped in the route
        // stage, their credits sent in the parallel phase).
        ThreadsCase{"mesh8x8_minimal_path_ir_mix",
                    "configs/multidest_load.yaml --set network.router.path_ir=minimal "
                    "--set network.router.header_encoding=address_flits "
                    "--set network.router.consumption_channels=4 "
                    "--set traffic.injection_rate=0.15 --set simulation.warmup_cycles=200 "
                    "--set simulation.measure_cycles=1000 "
                    "--set simulation.parallel_min_routers=1"},
        // Node firmware (hosted mode): EDN broadcast and an all-to-all on the T3D 8x8, with
        // background traffic so worms contend.
        ThreadsCase{
            "collective_edn_alltoall",
            "configs/default.yaml --set collective.algorithms=[edn_broadcast,a2a_1_lev_dir] "
            "--set collective.message_bytes=[64] --set collective.roots=one "
            "--set collective.background.load=0.05 "
            "--set collective.background.warmup_cycles=200 --set trace.enabled=false "
            "--set trace.timeline=false --set simulation.parallel_min_routers=1"}),
    [](const ::testing::TestParamInfo<ThreadsCase>& p) { return p.param.name; });

}  // namespace
}  // namespace threads_test
