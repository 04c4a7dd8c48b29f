// End-to-end tests of the `wormsim` executable (systemc/app/main.cpp): exit codes, error
// messages naming the key, results.json contents, trace outputs. WORMSIM_BIN is set by CTest.
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli_test_util.h"
#include "config.h"

namespace cli_test {
namespace {

namespace fs = std::filesystem;

using wormsim::testing::CliRun;
using wormsim::testing::run_wormsim;
using wormsim::testing::wormsim_binary;

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("wormsim_cli_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" +
            std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }
  fs::path dir_;
};

// Each malformed config: exit code 2 and a message naming the key (and the line).
struct BadConfig {
  const char* name;
  const char* yaml;
  const char* key;
  int line;
};

void PrintTo(const BadConfig& c, std::ostream* os) { *os << c.name; }

class MalformedConfig : public CliTest, public ::testing::WithParamInterface<BadConfig> {};

TEST_P(MalformedConfig, ExitCodeTwoNamingKeyAndLine) {
  const BadConfig& bc = GetParam();
  const std::string file = write("bad.yaml", bc.yaml);
  for (const std::string& cmd : {std::string("validate"), "run --out " + (dir_ / "o").string()}) {
    const CliRun r = run_wormsim(cmd + " " + file);
    EXPECT_EQ(r.code, 2) << cmd << ": " << r.out;
    EXPECT_NE(r.out.find(bc.key), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(file + ":" + std::to_string(bc.line) + ":"), std::string::npos) << r.out;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, MalformedConfig,
    ::testing::Values(
        BadConfig{"unknown_key", "network:\n  router:\n    vcz: 2\n", "network.router.vcz", 3},
        BadConfig{"wrong_type", "network:\n  router:\n    vcs: four\n", "network.router.vcs", 3},
        BadConfig{"bad_enum", "network:\n  topology: ring\n", "network.topology", 2},
        BadConfig{"zero_dimension", "network:\n  dims: [8, 0]\n", "network.dims[1]", 2},
        BadConfig{"torus_one_vc",
                  "network:\n  topology: torus\n  dims: [4, 4]\n  router:\n    vcs: 1\n",
                  "network.router.vcs", 5},
        BadConfig{"pipeline_too_deep", "network:\n  router:\n    pipeline_depth: 5\n",
                  "network.router.pipeline_depth", 3},
        BadConfig{"hotspot_outside",
                  "traffic:\n  pattern: hotspot\n  hotspot:\n    nodes: [3, 64]\n",
                  "traffic.hotspot.nodes[1]", 4},
        BadConfig{"rate_too_high", "traffic:\n  packet_length: 2\n  injection_rate: 2.5\n",
                  "traffic.injection_rate", 3},
        BadConfig{"yaml_syntax", "network:\n  dims: [8, 8\n", "<yaml>", 3},
        // Waveforms stay inside --out.
        BadConfig{"trace_file_outside_out", "trace:\n  enabled: true\n  file: ../escaped\n",
                  "trace.file", 3},
        // An operation whose only destination is its root would have no destination.
        BadConfig{"destinations_only_the_root",
                  "workload: collective\ncollective:\n  algorithms: [separate_addressing]\n"
                  "  roots: one\n  root: 3\n  destinations: [3]\n",
                  "collective.destinations", 6},
        // T3D flits are 1 byte and a message is one packet: 65536 flits, one more than a
        // packet can have (it used to pass validation and die mid-run).
        BadConfig{"message_longer_than_a_packet",
                  "machine: {preset: t3d}\nworkload: collective\ncollective:\n"
                  "  algorithms: [recursive_doubling]\n  message_bytes: [32, 65536]\n",
                  "collective.message_bytes[1]", 5}),
    [](const auto& p) { return std::string(p.param.name); });

// The source tree, from this file's path (CMake compiles it by absolute path).
fs::path source_dir() { return fs::path(__FILE__).parent_path().parent_path().parent_path(); }

std::string shell_output(const std::string& cmd) {
  std::string text;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return text;
  std::array<char, 4096> buf{};
  while (fgets(buf.data(), static_cast<int>(buf.size()), pipe) != nullptr) text += buf.data();
  pclose(pipe);
  return text;
}

// The project version as CMakeLists.txt declares it: project(wormsim VERSION x.y.z ...).
std::string project_version() {
  std::ifstream in(source_dir() / "CMakeLists.txt");
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(R"(project\(wormsim\s+VERSION\s+([0-9.]+))")))
    return "<no project VERSION in CMakeLists.txt>";
  return m[1];
}

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

nlohmann::json read_json(const fs::path& path) {
  std::ifstream in(path);
  if (!in) return nullptr;
  return nlohmann::json::parse(in);
}

TEST_F(CliTest, VersionNamesTheProjectVersionAndTheGitCommit) {
  const CliRun r = run_wormsim("--version");
  ASSERT_EQ(r.code, 0) << r.out;
  std::smatch m;
  ASSERT_TRUE(std::regex_match(r.out, m, std::regex(R"(wormsim (\S+) \((\S+)\)\n)"))) << r.out;
  EXPECT_EQ(m[1], project_version());
  const std::string commit = m[2];
  const std::string git = "git -C '" + source_dir().string() + "' ";
  if (std::system((git + "rev-parse --git-dir >/dev/null 2>&1").c_str()) != 0) {
    EXPECT_EQ(commit, "unknown");  // built outside a git checkout
    return;
  }
  // `git describe --always --dirty`: [<tag>-<n>-g]<hash>[-dirty]; the hash is a commit of
  // this repository (the one checked out when the binary was built).
  std::smatch h;
  ASSERT_TRUE(std::regex_match(commit, h, std::regex(R"((?:.*-g)?([0-9a-f]{7,40})(-dirty)?)")))
      << commit;
  EXPECT_EQ(
      std::system((git + "cat-file -e " + std::string(h[1]) + "^{commit} 2>/dev/null").c_str()), 0)
      << commit << " is not a commit of " << source_dir();
}

// results.json says what ran: version, commit (as --version prints them) and the argv.
TEST_F(CliTest, ResultsRecordVersionCommitAndCommandLineForBothWorkloads) {
  const CliRun v = run_wormsim("--version");
  ASSERT_EQ(v.code, 0);
  const std::string commit =
      v.out.substr(v.out.find('(') + 1, v.out.find(')') - v.out.find('(') - 1);
  const std::vector<std::vector<std::string>> runs{
      {"run", "--quiet", "--set", "workload=synthetic", "--set", "trace.enabled=false", "--set",
       "simulation.measure_cycles=200", "--out", (dir_ / "syn").string()},
      {"run", "--quiet", "--set", "collective.sample=1", "--set", "collective.message_bytes=[32]",
       "--set", "trace.enabled=false", "--out", (dir_ / "col").string()}};
  for (const auto& args : runs) {
    std::string line;
    for (const std::string& a : args) line += " " + a;
    const CliRun r = run_wormsim(line);
    ASSERT_EQ(r.code, 0) << r.out;
    const nlohmann::json j = read_json(args.back() + "/results.json");
    EXPECT_EQ(j.at("version"), project_version());
    EXPECT_EQ(j.at("git_commit"), commit);
    std::vector<std::string> argv{wormsim_binary()};
    argv.insert(argv.end(), args.begin(), args.end());
    EXPECT_EQ(j.at("command_line"), nlohmann::json(argv));
  }
}

// Keys the workload does not read are named on stderr (the user's keys only, not the
// built-in default's); `validate` lists them too.
TEST_F(CliTest, KeysTheRunDoesNotUseAreWarnedAbout) {
  const std::string file =
      write("col.yaml",
            "workload: collective\ncollective:\n  algorithms: [recursive_doubling]\n"
            "  message_bytes: [32]\n  sample: 1\ntraffic:\n  pattern: transpose\n"
            "trace:\n  enabled: false\n");
  const CliRun v = run_wormsim("validate " + file + " --set traffic.packet_length=1");
  ASSERT_EQ(v.code, 0) << v.out;
  EXPECT_NE(v.out.find("warning: " + file + ":7: traffic.pattern: not used"), std::string::npos)
      << v.out;
  EXPECT_NE(v.out.find("warning: --set: traffic.packet_length: not used"), std::string::npos)
      << v.out;
  EXPECT_EQ(count_of(v.out, "warning:"), 2u) << v.out;
  const CliRun r = run_wormsim("run --quiet " + file + " --set traffic.packet_length=1 --out " +
                               (dir_ / "o").string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(count_of(r.out, "warning:"), 2u) << r.out;
  // The built-in default gives every key it reads and none that it does not: only the
  // user's override is reported.
  const CliRun b = run_wormsim(
      "run --quiet --set traffic.packet_length=1 --set collective.sample=1 "
      "--set collective.message_bytes=[32] --set trace.enabled=false --out " +
      (dir_ / "b").string());
  ASSERT_EQ(b.code, 0) << b.out;
  EXPECT_NE(b.out.find("warning: --set: traffic.packet_length: not used"), std::string::npos)
      << b.out;
  EXPECT_EQ(count_of(b.out, "warning:"), 1u) << b.out;
  // The same key in a synthetic run is used.
  const CliRun s = run_wormsim(
      "run --quiet --set workload=synthetic --set traffic.packet_length=1 "
      "--set trace.enabled=false --set simulation.measure_cycles=200 --out " +
      (dir_ / "s").string());
  ASSERT_EQ(s.code, 0) << s.out;
  EXPECT_EQ(s.out.find("warning:"), std::string::npos) << s.out;
}

// The built-in default's tracing follows the network: resized to 4x4 it traces the corner
// and the central routers (1,1) and (2,2) = 0, 5, 10 (node = x + 4y).
TEST_F(CliTest, DefaultConfigResizesFromTheCommandLine) {
  const fs::path out = dir_ / "small";
  const CliRun r = run_wormsim(
      "run --quiet --set network.dims=[4,4] --set collective.sample=2 "
      "--set collective.message_bytes=[32] --out " +
      out.string());
  ASSERT_EQ(r.code, 0) << r.out;
  std::ifstream gtkw(out / "wormsim.gtkw");
  std::set<std::string> routers;
  std::string line;
  while (std::getline(gtkw, line))
    if (line.rfind("-router ", 0) == 0) routers.insert(line.substr(8, line.find(' ', 8) - 8));
  EXPECT_EQ(routers, (std::set<std::string>{std::to_string(0), std::to_string(1 + 4 * 1),
                                            std::to_string(2 + 4 * 2)}));
}

// docs/cli.md's tracing example does what it says: a short traced synthetic run (its
// simulation.measure_cycles is the measurement window) of the routers it names.
TEST_F(CliTest, DocsTraceExampleRunsAsWritten) {
  std::ifstream doc(source_dir() / "docs" / "cli.md");
  std::string line, example;
  while (std::getline(doc, line))
    if (line.rfind("wormsim run ", 0) == 0 && line.find("--trace") != std::string::npos &&
        line.find("measure_cycles=") != std::string::npos)
      example = line.substr(0, line.find("  #"));
  ASSERT_FALSE(example.empty()) << "no traced example with measure_cycles in docs/cli.md";
  const fs::path out = dir_ / "example";
  const std::string cmd = "cd '" + source_dir().string() + "' && " + wormsim_binary() + " " +
                          example.substr(std::string("wormsim ").size()) + " --quiet --out " +
                          out.string() + " 2>&1";
  const std::string text = shell_output(cmd + "; echo EXIT $?");
  ASSERT_NE(text.find("EXIT 0"), std::string::npos) << cmd << "\n" << text;
  EXPECT_EQ(text.find("warning:"), std::string::npos) << text;
  const nlohmann::json j = read_json(out / "results.json");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(example, m, std::regex(R"(measure_cycles=(\d+))")));
  const auto window = std::stoull(m[1]);
  EXPECT_EQ(j.at("config").at("workload"), "synthetic");
  EXPECT_EQ(j.at("measurement").at("window_end").get<std::uint64_t>() -
                j.at("measurement").at("window_begin").get<std::uint64_t>(),
            window);
  EXPECT_TRUE(fs::exists(out / "wormsim.vcd"));
}

// Bad input exits 2 with one message naming the file or key; it never hangs or exits 1.
TEST_F(CliTest, NamedPipeAsConfigIsRejectedNotRead) {
  const fs::path fifo = dir_ / "config.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& cmd : {std::string("validate"), "run --out " + (dir_ / "o").string()}) {
    const std::string text = shell_output("timeout 20 " + wormsim_binary() + " " + cmd + " " +
                                          fifo.string() + " 2>&1; echo EXIT $?");
    EXPECT_NE(text.find("EXIT 2"), std::string::npos) << cmd << ": " << text;
    EXPECT_NE(text.find(fifo.string() + ": <file>: is a named pipe"), std::string::npos) << text;
  }
}

TEST_F(CliTest, MessageLongerThanAPacketNamesTheKeysToChange) {
  const CliRun r = run_wormsim(
      "run --quiet --set collective.message_bytes=[65536] --set "
      "collective.sample=1 --out " +
      (dir_ / "o").string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("collective.message_bytes[0]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("node.max_packet_bytes"), std::string::npos) << r.out;
  EXPECT_EQ(count_of(r.out, "\n"), 1u) << r.out;  // one message
  EXPECT_FALSE(fs::exists(dir_ / "o" / "results.json"));
}

TEST_F(CliTest, OutputDirectoryProblemsNameOutAndExitTwo) {
  const std::string file = write("a_file", "not a directory\n");
  const std::string small =
      "run --quiet --set collective.sample=1 --set collective.message_bytes=[32] ";
  for (const std::string& out : {file, file + "/sub"}) {
    const CliRun r = run_wormsim(small + "--out " + out);
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find("--out " + out), std::string::npos) << r.out;
  }
  // results.json cannot be written (a directory of that name): found before the run.
  fs::create_directories(dir_ / "o" / "results.json");
  const CliRun r = run_wormsim(small + "--out " + (dir_ / "o").string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--out " + (dir_ / "o").string()), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("simulated"), std::string::npos) << r.out;
}

TEST_F(CliTest, TraceFileProblemsNameTraceFileAndExitTwo) {
  const std::string small =
      "run --quiet --set collective.sample=1 --set collective.message_bytes=[32] ";
  const fs::path out = dir_ / "o";
  // Outside --out: rejected before anything is written.
  for (const std::string& bad : {std::string("../escaped"), (dir_ / "abs").string()}) {
    const CliRun r = run_wormsim(small + "--set trace.file=" + bad + " --out " + out.string());
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find("trace.file"), std::string::npos) << r.out;
  }
  EXPECT_FALSE(fs::exists(dir_ / "escaped.vcd"));
  EXPECT_FALSE(fs::exists(dir_ / "abs.vcd"));
  // Inside --out but not writable (the VCD's name is taken by a directory).
  fs::create_directories(out / "w.vcd");
  const CliRun r = run_wormsim(small + "--set trace.file=w --out " + out.string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("trace.file"), std::string::npos) << r.out;
  // A relative path inside --out is created.
  const CliRun ok = run_wormsim(small + "--set trace.file=waves/run1 --out " + out.string());
  EXPECT_EQ(ok.code, 0) << ok.out;
  EXPECT_TRUE(fs::exists(out / "waves" / "run1.vcd"));
}

TEST_F(CliTest, UnknownOverrideIsAConfigError) {
  const CliRun r = run_wormsim("run --set network.router.vcz=2 --out " + (dir_ / "o").string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("network.router.vcz"), std::string::npos) << r.out;
}

// The main job (the built-in default) on fewer roots and sizes: table on stdout,
// results.json with the collective section, the Chrome timeline and the waveforms.
TEST_F(CliTest, DefaultMainJobWritesTableResultsTimelineAndTrace) {
  const fs::path out = dir_ / "main";
  const CliRun r = run_wormsim(
      "run --quiet --set collective.sample=2 --set "
      "collective.message_bytes=[32,512] --out " +
      out.string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("edn_broadcast"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("recursive_doubling"), std::string::npos) << r.out;
  std::ifstream in(out / "results.json");
  const nlohmann::json j = nlohmann::json::parse(in);
  const nlohmann::json& col = j.at("collective");
  EXPECT_EQ(col.at("operations_run"), 8);
  EXPECT_EQ(col.at("verification_errors"), 0);
  ASSERT_EQ(col.at("summary").size(), 4u);
  for (const auto& row : col.at("summary")) {
    EXPECT_GT(row.at("max_latency_us").get<double>(), 0.0);
    EXPECT_EQ(row.at("min_steps"), row.at("algorithm") == "edn_broadcast" ? 4 : 6);
  }
  std::ifstream tl(out / "timeline.json");
  const nlohmann::json t = nlohmann::json::parse(tl);
  EXPECT_GT(t.at("traceEvents").size(), 8u * 63u);
  EXPECT_TRUE(fs::exists(out / "wormsim.vcd"));
  EXPECT_TRUE(fs::exists(out / "wormsim.gtkw"));
}

TEST_F(CliTest, UnknownSubcommandIsAUsageError) { EXPECT_EQ(run_wormsim("frobnicate").code, 2); }

TEST_F(CliTest, RunWritesResultsWithResolvedConfigAndFlitCounts) {
  const fs::path out = dir_ / "run";
  const CliRun r = run_wormsim(
      "run --quiet --set workload=synthetic --set trace.enabled=false --set "
      "simulation.measure_cycles=2000 --set network.router.vcs=2 --out " +
      out.string());
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("accepted throughput"), std::string::npos);
  std::ifstream in(out / "results.json");
  ASSERT_TRUE(in.good());
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j.at("config").at("network").at("router").at("vcs"), 2);
  EXPECT_EQ(j.at("config").at("simulation").at("measure_cycles"), 2000);
  EXPECT_EQ(j.at("outcome"), "completed");
  const auto injected = j.at("flits").at("injected").get<std::uint64_t>();
  EXPECT_GT(injected, 0u);
  EXPECT_EQ(j.at("flits").at("ejected").get<std::uint64_t>(), injected);
  EXPECT_EQ(j.at("flits").at("in_flight").get<std::uint64_t>(), 0u);
  EXPECT_GT(j.at("cycles").get<std::uint64_t>(), 3000u);
  EXPECT_GT(j.at("latency").at("mean").get<double>(), 0.0);
  // 8x8 mesh: 2*8*7 links per direction pair = 224 unidirectional router links.
  EXPECT_EQ(j.at("link_utilization").at("links").size(), 224u);
}

TEST_F(CliTest, DeadlockExitsWithThreeAndReportsTheCycle) {
  const std::string file = write("deadlock.yaml", R"(network:
  topology: torus
  dims: [8, 8]
  routing: {dateline: false}
  router: {vcs: 1, buffer_depth: 2}
traffic: {injection_rate: 0.9, packet_length: 8}
simulation: {warmup_cycles: 0, measure_cycles: 20000, watchdog_cycles: 300}
)");
  const fs::path out = dir_ / "dl";
  const CliRun r = run_wormsim("run --quiet " + file + " --out " + out.string());
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_NE(r.out.find("wait-for cycle"), std::string::npos) << r.out;
  const nlohmann::json j = nlohmann::json::parse(std::ifstream(out / "results.json"));
  EXPECT_EQ(j.at("outcome"), "deadlock");
  EXPECT_GE(j.at("deadlock").at("cycle").size(), 2u);
}

// docs/safety-nets.md "Stuck flits": path worms deadlocked on one consumption channel per node
// while background traffic keeps flowing around them (the network as a whole never stands
// still, and a collective run has no drain) end as a deadlock, exit 3, with a wait-for cycle
// through consumption channels; before the stuck-flit watchdog this run never ended.
TEST_F(CliTest, PartialDeadlockUnderBackgroundTrafficExitsWithThree) {
  const fs::path out = dir_ / "partial";
  const CliRun r = run_wormsim(
      "run --quiet --out " + out.string() +
      " --set workload=collective --set network.dims=[8,8] --set network.router.vcs=2"
      " --set network.router.buffer_depth=4 --set network.router.port_model=one_port"
      " --set simulation.watchdog_cycles=3000 --set machine.preset=none"
      " --set network.flit_bytes=8 --set node.alpha_cycles=50 --set node.gamma_cycles=50"
      " --set collective.message_bytes=[64] --set collective.roots=sample"
      " --set collective.sample=4 --set trace.enabled=false --set trace.timeline=false"
      " --set network.router.multidest=path --set network.router.replication=synchronous"
      " --set network.router.multidest_vcs=1 --set collective.algorithms=[allgather_multicast]"
      " --set collective.background.load=0.2 --set collective.background.seed=2");
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_NE(r.out.find("while other traffic moved"), std::string::npos) << r.out;
  const nlohmann::json j = nlohmann::json::parse(std::ifstream(out / "results.json"));
  EXPECT_EQ(j.at("outcome"), "deadlock");
  const nlohmann::json& d = j.at("deadlock");
  EXPECT_TRUE(d.at("partial").get<bool>());
  EXPECT_EQ(d.at("kind"), "consumption_channels");
  EXPECT_GE(d.at("cycle").size(), 2u);
  // The stuck flit waited at least the watchdog period before the report.
  EXPECT_GE(d.at("detected_at").get<std::uint64_t>() - d.at("last_progress").get<std::uint64_t>(),
            3000u);
}

// docs/cli.md exit 4: offered load far beyond saturation on a mesh (deadlock-free, so the
// watchdog stays quiet while flits move) leaves packets queued when the drain limit ends the
// run: exit 4, the message names the limit, and results.json says so.
TEST_F(CliTest, DrainIncompleteExitsWithFour) {
  const std::string file = write("drain.yaml", R"(workload: synthetic
network: {topology: mesh, dims: [4, 4]}
traffic: {injection_rate: 0.9, packet_length: 5}
simulation: {warmup_cycles: 0, measure_cycles: 2000, drain_max_cycles: 20, watchdog_cycles: 20}
)");
  const fs::path out = dir_ / "drain";
  const CliRun r = run_wormsim("run --quiet " + file + " --out " + out.string());
  EXPECT_EQ(r.code, 4) << r.out;
  EXPECT_NE(r.out.find("drain incomplete"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("after 20 drain cycles"), std::string::npos) << r.out;
  const nlohmann::json j = nlohmann::json::parse(std::ifstream(out / "results.json"));
  EXPECT_EQ(j.at("outcome"), "drain_incomplete");
}

TEST_F(CliTest, ListNamesEveryCategory) {
  const CliRun r = run_wormsim("list");
  ASSERT_EQ(r.code, 0);
  for (const char* s : {"topologies", "mesh", "torus", "hypercube", "routing", "ecube",
                        "uniform_random", "transpose", "bit_complement", "hotspot",
                        "nearest_neighbor", "all_port", "presets", "algorithms"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s;
  // Algorithms listed under their operation (issue 19): one line per kind, every algorithm once.
  EXPECT_NE(r.out.find("  gather:          a2o_1_lev_dir, "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  transpose:       direct_transpose, edn_transpose\n"), std::string::npos)
      << r.out;
  for (wormsim::CollectiveAlgorithm a : wormsim::all_values<wormsim::CollectiveAlgorithm>()) {
    const std::string name = wormsim::to_string(a);
    std::size_t count = 0;
    for (std::size_t at = r.out.find(name); at != std::string::npos; at = r.out.find(name, at + 1))
      if ((at == 0 || r.out[at - 1] == ' ') &&
          (r.out[at + name.size()] == ',' || r.out[at + name.size()] == '\n'))
        ++count;
    EXPECT_EQ(count, 1u) << name;
  }
}

TEST_F(CliTest, TraceWritesVcdAndALayoutWhoseSignalsExist) {
  const fs::path out = dir_ / "tr";
  const CliRun r = run_wormsim(
      "run --quiet --trace --set workload=synthetic --set trace.routers=[0,9] --set "
      "simulation.warmup_cycles=0 --set simulation.measure_cycles=300 --out " +
      out.string());
  ASSERT_EQ(r.code, 0) << r.out;
  std::ifstream vcd(out / "wormsim.vcd");
  ASSERT_TRUE(vcd.good());
  // Collect full names from the VCD scopes.
  std::set<std::string> vars;
  std::vector<std::string> scope;
  std::string line;
  bool saw_valid_one = false;
  while (std::getline(vcd, line)) {
    std::istringstream is(line);
    std::string tok;
    is >> tok;
    if (tok == "$scope") {
      std::string kind, name;
      is >> kind >> name;
      scope.push_back(name);
    } else if (tok == "$upscope") {
      scope.pop_back();
    } else if (tok == "$var") {
      // "$var wire 4 id name [3:0] $end": GTKWave's name includes the bit range.
      std::string kind, width, id, name, range;
      is >> kind >> width >> id >> name >> range;
      if (!range.empty() && range[0] == '[') name += range;
      std::string full;
      for (const auto& s : scope) full += s + ".";
      vars.insert(full + name);
    } else if (!tok.empty() && tok[0] == '1') {
      saw_valid_one = true;  // some 1-bit signal (a valid/head/tail) went high
    }
  }
  EXPECT_TRUE(saw_valid_one);
  std::ifstream gtkw(out / "wormsim.gtkw");
  ASSERT_TRUE(gtkw.good());
  int signals = 0;
  int groups = 0;
  while (std::getline(gtkw, line)) {
    if (line.rfind("SystemC.", 0) == 0) {
      ++signals;
      EXPECT_TRUE(vars.count(line)) << "layout names a signal missing from the VCD: " << line;
    }
    if (line.rfind("-router ", 0) == 0) ++groups;
  }
  EXPECT_EQ(groups, 4);  // open + close marker for each of the two routers
  EXPECT_GT(signals, 50);
  for (const char* field : {"valid", "head", "tail"})
    EXPECT_TRUE(vars.count(std::string("SystemC.net.r9.out_xp_") + field)) << field;
  for (const char* field : {"vc[3:0]", "packet[63:0]", "dst[19:0]", "src[19:0]", "index[15:0]"})
    EXPECT_TRUE(vars.count(std::string("SystemC.net.r9.out_xp_") + field)) << field;
}

// The generated layout opens in GTKWave and every signal it names is displayed (GTKWave
// silently drops names that do not match the VCD, e.g. a multi-bit signal without its range).
TEST_F(CliTest, GeneratedLayoutDisplaysEverySignalInGtkwave) {
  ASSERT_EQ(std::system("command -v xvfb-run >/dev/null && command -v gtkwave >/dev/null"), 0)
      << "gtkwave and xvfb-run are needed (scripts/install-deps installs them)";
  const fs::path out = dir_ / "gw";
  const CliRun r = run_wormsim(
      "run --quiet --trace --set workload=synthetic --set trace.routers=[5] --set "
      "simulation.warmup_cycles=0 --set simulation.measure_cycles=100 --out " +
      out.string());
  ASSERT_EQ(r.code, 0) << r.out;
  int expected = 0;
  std::ifstream gtkw(out / "wormsim.gtkw");
  std::string line;
  while (std::getline(gtkw, line))
    if (line.rfind("SystemC.", 0) == 0) ++expected;
  ASSERT_GT(expected, 50);
  std::ofstream(out / "count.tcl")
      << "puts \"DISPLAYED [llength [gtkwave::getDisplayedSignals]]\"\n"
         "gtkwave::/File/Quit\n";
  FILE* pipe = popen(("timeout 120 xvfb-run -a gtkwave -S " + (out / "count.tcl").string() + " " +
                      (out / "wormsim.gtkw").string() + " 2>&1")
                         .c_str(),
                     "r");
  ASSERT_NE(pipe, nullptr);
  std::string text;
  std::array<char, 4096> buf{};
  while (fgets(buf.data(), static_cast<int>(buf.size()), pipe) != nullptr) text += buf.data();
  pclose(pipe);
  const auto at = text.find("DISPLAYED ");
  ASSERT_NE(at, std::string::npos) << text;
  EXPECT_EQ(std::stoi(text.substr(at + 10)), expected) << text;
}

// Time of the first 1 on a *_valid signal in a VCD (the first flit on a traced port), or -1.
long long first_flit_time(const fs::path& vcd_path) {
  std::ifstream vcd(vcd_path);
  std::set<std::string> valid;
  std::string line;
  long long now = 0;
  bool header = true;
  while (std::getline(vcd, line)) {
    std::istringstream is(line);
    std::string tok;
    is >> tok;
    if (header) {
      if (tok == "$enddefinitions") header = false;
      std::string kind, width, id, name;
      if (tok == "$var" && (is >> kind >> width >> id >> name) && width == "1" && name.size() > 6 &&
          name.substr(name.size() - 6) == "_valid")
        valid.insert(id);
    } else if (!tok.empty() && tok[0] == '#') {
      now = std::stoll(tok.substr(1));
    } else if (!tok.empty() && tok[0] == '1' && valid.count(tok.substr(1))) {
      return now;
    }
  }
  return -1;
}

// What GTKWave shows for a layout opened from `cwd`: the dump it loaded and the visible time
// range and marker (Tcl queries under Xvfb).
std::map<std::string, std::string> gtkwave_view(const fs::path& gtkw, const fs::path& cwd,
                                                const fs::path& script) {
  std::ofstream(script) << "puts \"VIEW DUMP [gtkwave::getDumpFileName]\"\n"
                           "puts \"VIEW START [gtkwave::getWindowStartTime]\"\n"
                           "puts \"VIEW END [gtkwave::getWindowEndTime]\"\n"
                           "puts \"VIEW MARKER [gtkwave::getMarker]\"\n"
                           "gtkwave::/File/Quit\n";
  const std::string text =
      shell_output("cd '" + cwd.string() + "' && timeout 120 xvfb-run -a gtkwave -S " +
                   script.string() + " " + gtkw.string() + " 2>&1");
  std::map<std::string, std::string> view;
  std::istringstream is(text);
  std::string line;
  while (std::getline(is, line))
    if (line.rfind("VIEW ", 0) == 0) {
      const auto space = line.find(' ', 5);
      view[line.substr(5, space - 5)] = line.substr(space + 1);
    }
  view["output"] = text;
  return view;
}

// A layout written with a relative --out opens from any directory, also after its output
// directory moved, and it opens at the first flit, not at an idle t = 0.
TEST_F(CliTest, LayoutOpensFromAnyDirectoryAtTheFirstFlit) {
  ASSERT_EQ(std::system("command -v xvfb-run >/dev/null && command -v gtkwave >/dev/null"), 0)
      << "gtkwave and xvfb-run are needed (scripts/install-deps installs them)";
  // The default experiment (T3D start-up cost: the first flit leaves hundreds of cycles in).
  const std::string text =
      shell_output("cd '" + dir_.string() + "' && " + wormsim_binary() +
                   " run --quiet --set collective.sample=1 --set collective.message_bytes=[32] "
                   "--set trace.timeline=false --out rel 2>&1; echo EXIT $?");
  ASSERT_NE(text.find("EXIT 0"), std::string::npos) << text;
  const long long first = first_flit_time(dir_ / "rel" / "wormsim.vcd");
  ASSERT_GT(first, 0);
  const fs::path elsewhere = fs::path("/");
  auto view = gtkwave_view(dir_ / "rel" / "wormsim.gtkw", elsewhere, dir_ / "view.tcl");
  ASSERT_TRUE(view.count("DUMP")) << view["output"];
  EXPECT_EQ(fs::path(view["DUMP"]), dir_ / "rel" / "wormsim.vcd");
  const long long start = std::stoll(view["START"]);
  const long long end = std::stoll(view["END"]);
  EXPECT_LE(start, first);
  EXPECT_GT(end, first);
  ASSERT_GT(first, end - start) << "the first flit is within one screen of t = 0: nothing to check";
  EXPECT_GT(start, 0);  // the view does not open at the idle start
  EXPECT_EQ(std::stoll(view["MARKER"]), first);
  // Moved (and the original gone): the layout finds the VCD next to itself.
  fs::rename(dir_ / "rel", dir_ / "moved");
  view = gtkwave_view(dir_ / "moved" / "wormsim.gtkw", elsewhere, dir_ / "view.tcl");
  EXPECT_EQ(fs::path(view["DUMP"]), dir_ / "moved" / "wormsim.vcd") << view["output"];
}

// Issue 23's acceptance run (docs/performance.md, "Firmware at scale"): an EDN broadcast on a
// 256x256 all-port mesh, 65,536 nodes, one root, 256 bytes, with the kernel's default
// vm.max_map_count (issue 23 reports the SystemC thread per node aborting with bad_alloc for
// want of mappings). It must complete, verified, in seed 000 Table 3.1's log2(256) + 1 = 9
// steps, with a peak resident set under 4 GB (the wall time is a benchmark, scripts/bench).
TEST_F(CliTest, LARGE_EdnBroadcast256x256AllPortOneRootFitsIn4GB) {
  const CliRun r =
      run_wormsim("run --quiet --out " + dir_.string() +
                  " --set network.dims=[256,256] --set network.router.port_model=all_port"
                  " --set collective.algorithms=[edn_broadcast] --set collective.roots=one"
                  " --set collective.message_bytes=[256] --set trace.enabled=false"
                  " --set trace.timeline=false");
  rusage usage{};
  ASSERT_EQ(getrusage(RUSAGE_CHILDREN, &usage), 0);
  ASSERT_EQ(r.code, 0) << r.out;
  const nlohmann::json j = read_json(dir_ / "results.json");
  const nlohmann::json& op = j["collective"]["operations"][0];
  EXPECT_EQ(j["collective"]["verification_errors"], 0);
  EXPECT_EQ(op["destinations"], 65535);
  EXPECT_EQ(op["steps"], 9);
  EXPECT_LT(usage.ru_maxrss, 4'000'000'000 / 1024) << "peak RSS in KiB";  // 4 GB
  RecordProperty("peak_rss_kib", std::to_string(usage.ru_maxrss));
}

}  // namespace
}  // namespace cli_test
