// End-to-end tests of the `wormsim` executable (systemc/app/main.cpp): exit codes, error
// messages naming the key, results.json contents, trace outputs. WORMSIM_BIN is set by CTest.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

namespace {

namespace fs = std::filesystem;

struct Result {
  int code = -1;
  std::string out;  // stdout + stderr
};

std::string binary() {
  const char* bin = std::getenv("WORMSIM_BIN");
  return bin != nullptr ? bin : "wormsim";
}

Result run_cli(const std::string& args) {
  Result r;
  const std::string cmd = binary() + " " + args + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buf{};
  while (fgets(buf.data(), static_cast<int>(buf.size()), pipe) != nullptr) r.out += buf.data();
  const int status = pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("wormsim_cli_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) +
            "_" + std::to_string(::getpid()));
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
    const Result r = run_cli(cmd + " " + file);
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
        BadConfig{"yaml_syntax", "network:\n  dims: [8, 8\n", "<yaml>", 3}),
    [](const auto& p) { return std::string(p.param.name); });

TEST_F(CliTest, UnknownOverrideIsAConfigError) {
  const Result r = run_cli("run --set network.router.vcz=2 --out " + (dir_ / "o").string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("network.router.vcz"), std::string::npos) << r.out;
}

// The main job (the built-in default) on fewer roots and sizes: table on stdout,
// results.json with the collective section, the Chrome timeline and the waveforms.
TEST_F(CliTest, DefaultMainJobWritesTableResultsTimelineAndTrace) {
  const fs::path out = dir_ / "main";
  const Result r = run_cli("run --quiet --set collective.sample=2 --set "
                           "collective.message_bytes=[32,512] --out " + out.string());
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

TEST_F(CliTest, UnknownSubcommandIsAUsageError) {
  EXPECT_EQ(run_cli("frobnicate").code, 2);
}

TEST_F(CliTest, RunWritesResultsWithResolvedConfigAndFlitCounts) {
  const fs::path out = dir_ / "run";
  const Result r = run_cli("run --quiet --set workload=synthetic --set trace.enabled=false --set "
                           "simulation.measure_cycles=2000 --set network.router.vcs=2 --out " + out.string());
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
  const Result r = run_cli("run --quiet " + file + " --out " + out.string());
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_NE(r.out.find("wait-for cycle"), std::string::npos) << r.out;
  const nlohmann::json j = nlohmann::json::parse(std::ifstream(out / "results.json"));
  EXPECT_EQ(j.at("outcome"), "deadlock");
  EXPECT_GE(j.at("deadlock").at("cycle").size(), 2u);
}

TEST_F(CliTest, ListNamesEveryCategory) {
  const Result r = run_cli("list");
  ASSERT_EQ(r.code, 0);
  for (const char* s : {"topologies", "mesh", "torus", "hypercube", "routing", "ecube",
                        "uniform_random", "transpose", "bit_complement", "hotspot",
                        "nearest_neighbor", "all_port", "presets", "algorithms"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s;
}

TEST_F(CliTest, TraceWritesVcdAndALayoutWhoseSignalsExist) {
  const fs::path out = dir_ / "tr";
  const Result r = run_cli("run --quiet --trace --set workload=synthetic --set trace.routers=[0,9] --set "
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
  const Result r = run_cli("run --quiet --trace --set workload=synthetic --set trace.routers=[5] --set "
                           "simulation.warmup_cycles=0 --set simulation.measure_cycles=100 --out " +
                           out.string());
  ASSERT_EQ(r.code, 0) << r.out;
  int expected = 0;
  std::ifstream gtkw(out / "wormsim.gtkw");
  std::string line;
  while (std::getline(gtkw, line))
    if (line.rfind("SystemC.", 0) == 0) ++expected;
  ASSERT_GT(expected, 50);
  std::ofstream(out / "count.tcl") << "puts \"DISPLAYED [llength [gtkwave::getDisplayedSignals]]\"\n"
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

}  // namespace
