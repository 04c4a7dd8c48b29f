// Tests of the YAML config loader: defaults, a round trip of every field, and every error
// category with its key path, line and source.
#include "config_loader.h"
#include "machine_preset.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#ifndef WORMSIM_SOURCE_DIR
#error "WORMSIM_SOURCE_DIR must name the source tree (testbenches/CMakeLists.txt)"
#endif

namespace wormsim {
namespace {

constexpr const char* kSource = "test.yaml";

::testing::AssertionResult contains(const std::string& text, const std::string& fragment) {
  if (text.find(fragment) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << text << "' does not contain '" << fragment << "'";
}

// Loads `yaml` expecting a ConfigError with exactly `key`, `line` and `source`; checks the
// "source:line: key: " prefix of the message and returns the whole message ("" if none).
std::string expect_error(const std::string& yaml, const std::vector<std::string>& overrides,
                         const std::string& key, int line, const std::string& source = kSource) {
  try {
    load_config(yaml, kSource, overrides);
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.key(), key) << what;
    EXPECT_EQ(e.line(), line) << what;
    // ConfigError's format: "source:line: key: message", or "source: key: message" without a
    // line.
    const std::string prefix = line > 0 ? fmt::format("{}:{}: {}: ", source, line, key)
                                        : fmt::format("{}: {}: ", source, key);
    EXPECT_TRUE(what.rfind(prefix, 0) == 0)
        << "message '" << what << "' lacks prefix '" << prefix << "'";
    EXPECT_GT(what.size(), prefix.size()) << "empty message: " << what;
    return what;
  }
  ADD_FAILURE() << "no ConfigError for:\n" << yaml;
  return {};
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Counts the leaves of a JSON object tree.
int leaf_count(const nlohmann::json& j) {
  if (!j.is_object()) return 1;
  int n = 0;
  for (const auto& item : j.items()) n += leaf_count(item.value());
  return n;
}

// ---------------------------------------------------------------------------------------------
// Defaults.

TEST(ConfigLoaderDefaults, BuiltInDefaultIsTheMainJobOnStructDefaults) {
  const Config c = load_config(default_config_yaml(), "<built-in>");
  EXPECT_NO_THROW(c.validate());
  // The main job (README): EDN vs recursive doubling on an 8x8 all-port mesh with T3D
  // parameters; every other key at its struct default.
  Config main_job;
  main_job.machine.preset = "t3d";
  apply_machine_preset(main_job);
  main_job.workload = Workload::kCollective;
  main_job.network.router.port_model = PortModel::kAllPort;
  main_job.trace.enabled = true;
  main_job.trace.routers = {0, 27, 36};
  main_job.trace.window_cycles = 20000;
  EXPECT_EQ(c.network.topology.dims, (std::vector<int>{8, 8}));
  EXPECT_EQ(c.node.alpha_cycles, 225u);  // 0.75 us at 300 MB/s (seed 000 section 3.3.5)
  const nlohmann::json j = to_json(c);
  EXPECT_EQ(j, to_json(main_job)) << j.dump(2);
  EXPECT_EQ(leaf_count(j), 58) << j.dump(2);  // every field of Config
  // The default text lists every key except routing.algorithm (which follows the topology)
  // and the clock period and flit width (which follow machine.preset).
  EXPECT_EQ(default_config_yaml().find("\n    algorithm:"), std::string::npos);
  EXPECT_EQ(default_config_yaml().find("\n  clock_period_ns:"), std::string::npos);
  EXPECT_EQ(default_config_yaml().find("\n  flit_bytes:"), std::string::npos);
  EXPECT_NE(default_config_yaml().find("\n    vcs: 4"), std::string::npos);
}

TEST(ConfigLoaderDefaults, BuiltInDefaultEqualsConfigsDefaultYaml) {
  const std::string path = std::string(WORMSIM_SOURCE_DIR) + "/configs/default.yaml";
  const std::string text = read_text(path);
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text, default_config_yaml());
  EXPECT_EQ(to_json(load_config_file(path)), to_json(load_config(default_config_yaml(), "x")));
}

TEST(ConfigLoaderDefaults, EmptyOrNullDocumentMeansDefaults) {
  const nlohmann::json defaults = to_json(Config{});
  for (const char* yaml :
       {"", "\n", "# nothing here\n", "~\n", "null\n", "---\n", "network:\ntraffic: ~\n"}) {
    SCOPED_TRACE(yaml);
    EXPECT_EQ(to_json(load_config(yaml, kSource)), defaults);
  }
}

// ---------------------------------------------------------------------------------------------
// Every field, set to a non-default value where the topology allows it.

constexpr const char* kEveryField = R"(network:
  topology: torus
  dims: [4, 6, 3]
  hypercube_dimension: 5
  flit_bytes: 16
  clock_period_ns: 0.5
  routing:
    algorithm: dor
    order: [2, 0, 1]
    ecube_order: low_to_high
    dateline: false
  router:
    vcs: 3
    buffer_depth: 12
    pipeline_depth: 3
    link_latency: 2
    credit_latency: 4
    allocator: separable_output_first
    port_model: k_port
    ports: 5
    multidest: tree
    replication: synchronous
    header_encoding: bit_string
    consumption_channels: 3
    implementation: systemc
    rtl_nodes: [1, 2]
node:
  alpha_cycles: 11
  gamma_cycles: 13
  max_packet_bytes: 600
  header_bytes: 30
  tx_queue_depth: 7
collective:
  algorithms: [ping_pong, separate_addressing]
  message_bytes: [5, 7]
  roots: all
  root: 9
  sample: 3
  destinations: [4, 8]
  peer: 2
  seed: 77
traffic:
  pattern: hotspot
  injection_rate: 0.25
  packet_length: 9
  multicast_fraction: 0.5
  multicast_destinations: 7
  hotspot:
    nodes: [3, 71]
    fraction: 0.375
  seed: 18446744073709551615
simulation:
  warmup_cycles: 123
  measure_cycles: 4567
  drain_max_cycles: 89012
  watchdog_cycles: 3456
  progress_interval: 789
trace:
  enabled: true
  routers: [1, 2, 70]
  file: run42
  window_cycles: 555
  timeline: false
  rtl_vcd: true
)";

void expect_every_field(const Config& c) {
  EXPECT_EQ(c.network.topology.kind, TopologyKind::kTorus);
  EXPECT_EQ(c.network.topology.dims, (std::vector<int>{4, 6, 3}));
  EXPECT_EQ(c.network.topology.hypercube_dimension, 5);
  EXPECT_EQ(c.network.flit_bytes, 16);
  EXPECT_DOUBLE_EQ(c.network.clock_period_ns, 0.5);
  EXPECT_EQ(c.network.routing.algorithm, RoutingAlgorithm::kDimensionOrder);
  EXPECT_EQ(c.network.routing.order, (std::vector<int>{2, 0, 1}));
  EXPECT_EQ(c.network.routing.ecube_order, EcubeOrder::kLowToHigh);
  EXPECT_FALSE(c.network.routing.dateline);
  EXPECT_EQ(c.network.router.vcs, 3);
  EXPECT_EQ(c.network.router.buffer_depth, 12);
  EXPECT_EQ(c.network.router.pipeline_depth, 3);
  EXPECT_EQ(c.network.router.link_latency, 2);
  EXPECT_EQ(c.network.router.credit_latency, 4);
  EXPECT_EQ(c.network.router.allocator, AllocatorKind::kSeparableOutputFirst);
  EXPECT_EQ(c.network.router.port_model, PortModel::kKPort);
  EXPECT_EQ(c.network.router.ports, 5);
  EXPECT_EQ(c.network.router.multidest, MultidestMode::kTree);
  EXPECT_EQ(c.network.router.replication, Replication::kSynchronous);
  EXPECT_EQ(c.network.router.header_encoding, HeaderEncoding::kBitString);
  EXPECT_EQ(c.network.router.consumption_channels, 3);
  EXPECT_EQ(c.network.router.implementation, RouterImplementation::kSystemC);
  EXPECT_EQ(c.network.router.rtl_nodes, (std::vector<NodeId>{1, 2}));
  EXPECT_EQ(c.node.alpha_cycles, 11u);
  EXPECT_EQ(c.node.gamma_cycles, 13u);
  EXPECT_EQ(c.node.max_packet_bytes, 600);
  EXPECT_EQ(c.node.header_bytes, 30);
  EXPECT_EQ(c.node.tx_queue_depth, 7);
  EXPECT_EQ(c.collective.algorithms, (std::vector<CollectiveAlgorithm>{
                                         CollectiveAlgorithm::kPingPong,
                                         CollectiveAlgorithm::kSeparateAddressing}));
  EXPECT_EQ(c.collective.message_bytes, (std::vector<std::uint32_t>{5, 7}));
  EXPECT_EQ(c.collective.roots, RootSelection::kAll);
  EXPECT_EQ(c.collective.root, 9u);
  EXPECT_EQ(c.collective.sample, 3);
  EXPECT_EQ(c.collective.destinations, (std::vector<NodeId>{4, 8}));
  EXPECT_EQ(c.collective.peer, 2);
  EXPECT_EQ(c.collective.seed, 77u);
  EXPECT_DOUBLE_EQ(c.traffic.multicast_fraction, 0.5);
  EXPECT_EQ(c.traffic.multicast_destinations, 7);
  EXPECT_EQ(c.trace.window_cycles, 555u);
  EXPECT_FALSE(c.trace.timeline);
  EXPECT_TRUE(c.trace.rtl_vcd);
  EXPECT_EQ(c.traffic.pattern, TrafficPattern::kHotspot);
  EXPECT_DOUBLE_EQ(c.traffic.injection_rate, 0.25);
  EXPECT_EQ(c.traffic.packet_length, 9);
  EXPECT_EQ(c.traffic.hotspot.nodes, (std::vector<NodeId>{3, 71}));
  EXPECT_DOUBLE_EQ(c.traffic.hotspot.fraction, 0.375);
  EXPECT_EQ(c.traffic.seed, std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(c.simulation.warmup_cycles, 123u);
  EXPECT_EQ(c.simulation.measure_cycles, 4567u);
  EXPECT_EQ(c.simulation.drain_max_cycles, 89012u);
  EXPECT_EQ(c.simulation.watchdog_cycles, 3456u);
  EXPECT_EQ(c.simulation.progress_interval, 789u);
  EXPECT_TRUE(c.trace.enabled);
  EXPECT_EQ(c.trace.routers, (std::vector<NodeId>{1, 2, 70}));
  EXPECT_EQ(c.trace.file, "run42");
}

TEST(ConfigLoaderRoundTrip, EveryFieldLoads) {
  SCOPED_TRACE("YAML");
  expect_every_field(load_config(kEveryField, kSource));
}

TEST(ConfigLoaderRoundTrip, JsonHasYamlLayoutAndLoadsBack) {
  const Config c = load_config(kEveryField, kSource);
  const nlohmann::json j = to_json(c);
  EXPECT_EQ(leaf_count(j), 58);
  EXPECT_EQ(j["machine"]["preset"], "none");
  EXPECT_EQ(j["network"]["topology"], "torus");
  EXPECT_EQ(j["network"]["dims"], nlohmann::json({4, 6, 3}));
  EXPECT_EQ(j["network"]["routing"]["order"], nlohmann::json({2, 0, 1}));
  EXPECT_EQ(j["network"]["routing"]["ecube_order"], "low_to_high");
  EXPECT_EQ(j["network"]["router"]["allocator"], "separable_output_first");
  EXPECT_EQ(j["network"]["router"]["port_model"], "k_port");
  EXPECT_EQ(j["traffic"]["pattern"], "hotspot");
  EXPECT_EQ(j["traffic"]["hotspot"]["nodes"], nlohmann::json({3, 71}));
  EXPECT_EQ(j["traffic"]["seed"].get<std::uint64_t>(), std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(j["simulation"]["progress_interval"], 789);
  EXPECT_EQ(j["trace"]["routers"], nlohmann::json({1, 2, 70}));
  EXPECT_EQ(j["trace"]["file"], "run42");
  // JSON is YAML: the resolved config loads back to the same config.
  SCOPED_TRACE("JSON round trip");
  const Config back = load_config(j.dump(2), "json");
  expect_every_field(back);
  EXPECT_EQ(to_json(back), j);
}

TEST(ConfigLoaderRoundTrip, DimensionOrderAsAxisLetters) {
  const struct {
    const char* yaml;
    std::vector<int> order;
  } cases[] = {
      {"network: {routing: {order: xy}}", {0, 1}},
      {"network: {routing: {order: yx}}", {1, 0}},
      {"network: {routing: {order: \"YX\"}}", {1, 0}},
      {"network: {dims: [4, 4, 4], routing: {order: xyz}}", {0, 1, 2}},
      {"network: {dims: [4, 4, 4], routing: {order: zyx}}", {2, 1, 0}},
      {"network: {dims: [4, 4, 4], routing: {order: [1, 2, 0]}}", {1, 2, 0}},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.yaml);
    EXPECT_EQ(load_config(tc.yaml, kSource).network.routing.order, tc.order);
  }
}

TEST(ConfigLoaderRoundTrip, HypercubeDefaultsToEcube) {
  const Config c =
      load_config("network:\n  topology: hypercube\n  hypercube_dimension: 4\n", kSource);
  EXPECT_EQ(c.network.routing.algorithm, RoutingAlgorithm::kEcube);
  EXPECT_EQ(node_count(c.network.topology), 16);
  // Explicit ecube works too; explicit dor on a hypercube is an error at its line.
  EXPECT_EQ(load_config("network: {topology: hypercube, hypercube_dimension: 3,\n"
                        "          routing: {algorithm: ecube, ecube_order: low_to_high}}\n",
                        kSource)
                .network.routing.ecube_order,
            EcubeOrder::kLowToHigh);
  const std::string msg = expect_error(
      "network:\n  topology: hypercube\n  hypercube_dimension: 4\n  routing:\n    algorithm: dor\n",
      {}, "network.routing.algorithm", 5);
  EXPECT_TRUE(contains(msg, "ecube"));
  // The built-in default (which leaves algorithm out) becomes a hypercube by overrides alone.
  const Config h = load_config(default_config_yaml(), "<built-in>",
                               {"workload=synthetic", "network.topology=hypercube",
                                "network.hypercube_dimension=3", "trace.routers=[0]"});
  EXPECT_EQ(h.network.routing.algorithm, RoutingAlgorithm::kEcube);
  EXPECT_EQ(node_count(h.network.topology), 8);
}

// ---------------------------------------------------------------------------------------------
// Structural errors: unknown and duplicate keys, malformed YAML.

TEST(ConfigLoaderErrors, UnknownKeyNamesFullPathAndLine) {
  std::string msg =
      expect_error("network:\n  router:\n    vcs: 2\n    vcz: 2\n", {}, "network.router.vcz", 4);
  EXPECT_TRUE(contains(msg, "unknown key"));
  EXPECT_TRUE(contains(msg, "did you mean 'vcs'"));
  EXPECT_TRUE(contains(msg, "buffer_depth"));  // lists the allowed keys

  msg = expect_error("# comment\nnetwrk:\n  dims: [4, 4]\n", {}, "netwrk", 2);
  EXPECT_TRUE(contains(msg, "did you mean 'network'"));

  // A key at the wrong level points to where it belongs.
  msg = expect_error("network:\n  dims: [4, 4]\n  vcs: 2\n", {}, "network.vcs", 3);
  EXPECT_TRUE(contains(msg, "did you mean 'network.router.vcs'"));

  expect_error("traffic:\n  hotspot: {nodes: [1], fractoin: 0.5}\n", {}, "traffic.hotspot.fractoin",
               2);
  expect_error("simulation:\n  warmup_cycles: 5\n\n\n  bogus: 1\n", {}, "simulation.bogus", 5);
}

TEST(ConfigLoaderErrors, DuplicateKey) {
  const std::string msg =
      expect_error("network:\n  flit_bytes: 4\n  flit_bytes: 8\n", {}, "network.flit_bytes", 3);
  EXPECT_TRUE(contains(msg, "first given on line 2"));
}

TEST(ConfigLoaderErrors, SectionsAndDocumentMustBeMaps) {
  EXPECT_TRUE(contains(expect_error("network: 5\n", {}, "network", 1), "expected a map"));
  EXPECT_TRUE(contains(expect_error("traffic:\n  hotspot: [1, 2]\n", {}, "traffic.hotspot", 2),
                       "got a list"));
  EXPECT_TRUE(contains(expect_error("- network\n", {}, "<document>", 1), "got a list"));
}

TEST(ConfigLoaderErrors, MalformedYamlReportsLine) {
  std::string msg =
      expect_error("network:\n  flit_bytes: 4\n  dims: [8, 8\n  router: {}\n", {}, "<yaml>", 4);
  EXPECT_TRUE(contains(msg, "invalid YAML"));
  msg = expect_error("network:\n  flit_bytes: 4\n   vcs: 2\n", {}, "<yaml>", 3);
  EXPECT_TRUE(contains(msg, "invalid YAML"));
  msg = expect_error("network: {}\n---\ntraffic: {}\n", {}, "<yaml>", 3);
  EXPECT_TRUE(contains(msg, "one YAML document"));
}

// ---------------------------------------------------------------------------------------------
// Type errors.

TEST(ConfigLoaderErrors, WrongTypesNameKeyAndLine) {
  const struct {
    const char* yaml;
    const char* key;
    int line;
    const char* fragment;
  } cases[] = {
      {"network:\n  router:\n    vcs: four\n", "network.router.vcs", 3, "expected an integer"},
      {"network:\n  router:\n    vcs: \"4\"\n", "network.router.vcs", 3, "quoted string"},
      {"network:\n  router:\n    vcs: 1.5\n", "network.router.vcs", 3, "expected an integer"},
      {"network:\n  router:\n    vcs: [1, 2]\n", "network.router.vcs", 3, "got a list"},
      {"network:\n  router:\n    vcs:\n", "network.router.vcs", 3, "got nothing"},
      {"network:\n  router:\n    vcs: 99999999999\n", "network.router.vcs", 3, "out of range"},
      {"network:\n  topology: {kind: mesh}\n", "network.topology", 2, "got a map"},
      {"network:\n  dims: 8\n", "network.dims", 2, "expected a list"},
      {"network:\n  dims:\n    - 8\n    - x\n", "network.dims[1]", 4, "expected an integer"},
      {"network:\n  clock_period_ns: fast\n", "network.clock_period_ns", 2, "expected a number"},
      {"network:\n  clock_period_ns: .inf\n", "network.clock_period_ns", 2, "number"},
      {"network:\n  routing:\n    dateline: maybe\n", "network.routing.dateline", 3,
       "expected true or false"},
      {"network:\n  routing:\n    order: xw\n", "network.routing.order", 3, "axis letter"},
      {"traffic:\n  seed: -1\n", "traffic.seed", 2, "must not be negative"},
      {"traffic:\n  injection_rate: [0.1]\n", "traffic.injection_rate", 2, "got a list"},
      {"traffic:\n  hotspot:\n    nodes: [1,\n            -3]\n", "traffic.hotspot.nodes[1]", 4,
       "must not be negative"},
      {"traffic:\n  hotspot:\n    nodes: [4294967296]\n", "traffic.hotspot.nodes[0]", 3,
       "out of range"},
      {"simulation:\n  warmup_cycles: -5\n", "simulation.warmup_cycles", 2, "must not be negative"},
      {"simulation:\n  measure_cycles: 1e4\n", "simulation.measure_cycles", 2,
       "expected an integer"},
      {"trace:\n  enabled: 1\n", "trace.enabled", 2, "expected true or false"},
      {"trace:\n  routers: 3\n", "trace.routers", 2, "expected a list"},
      {"trace:\n  file: \"\"\n", "trace.file", 2, "must not be empty"},
      {"trace:\n  file: [a]\n", "trace.file", 2, "expected a string"},
  };
  for (const auto& tc : cases) {
    SCOPED_TRACE(tc.yaml);
    EXPECT_TRUE(contains(expect_error(tc.yaml, {}, tc.key, tc.line), tc.fragment));
  }
}

TEST(ConfigLoaderErrors, IntegerSyntax) {
  // Decimal with a leading zero stays decimal; 0x is hex; signs are allowed.
  const Config c = load_config(
      "network:\n  router: {buffer_depth: 010, vcs: +3}\ntraffic: {seed: 0x10}\n", kSource);
  EXPECT_EQ(c.network.router.buffer_depth, 10);
  EXPECT_EQ(c.network.router.vcs, 3);
  EXPECT_EQ(c.traffic.seed, 16u);
  // A negative signed value converts and is then rejected by validate() with its line.
  EXPECT_TRUE(contains(
      expect_error("network:\n  router:\n    vcs: -1\n", {}, "network.router.vcs", 3), "got -1"));
}

TEST(ConfigLoaderErrors, UnknownEnumNameListsAllowedNames) {
  std::string msg = expect_error("network:\n  topology: tours\n", {}, "network.topology", 2);
  EXPECT_TRUE(contains(msg, "'tours'"));
  EXPECT_TRUE(contains(msg, "mesh, torus, hypercube"));
  msg = expect_error("network:\n  router:\n    allocator: greedy\n", {}, "network.router.allocator",
                     3);
  EXPECT_TRUE(contains(msg, "separable_input_first, separable_output_first"));
  msg = expect_error("traffic: {pattern: random}\n", {}, "traffic.pattern", 1);
  EXPECT_TRUE(
      contains(msg, "uniform_random, transpose, bit_complement, hotspot, nearest_neighbor"));
  msg = expect_error("network:\n  router:\n    port_model: [one_port]\n", {},
                     "network.router.port_model", 3);
  EXPECT_TRUE(contains(msg, "one_port, k_port, all_port"));
}

// ---------------------------------------------------------------------------------------------
// validate() errors located at the YAML line of their key.

TEST(ConfigLoaderValidate, TorusDatelineNeedsTwoVcs) {
  const std::string msg = expect_error(
      "network:\n  topology: torus\n  dims: [4, 4]\n  router:\n    buffer_depth: 8\n    vcs: 1\n",
      {}, "network.router.vcs", 6);
  EXPECT_TRUE(contains(msg, "dateline"));
  // Without the dateline a 1-VC torus is accepted (to study deadlock).
  EXPECT_NO_THROW(load_config(
      "network:\n  topology: torus\n  routing: {dateline: false}\n  router: {vcs: 1}\n", kSource));
}

TEST(ConfigLoaderValidate, DimsElementIsLocated) {
  EXPECT_TRUE(contains(
      expect_error("network:\n  topology: mesh\n  dims: [8, 0]\n", {}, "network.dims[1]", 3),
      "at least 2"));
  expect_error("network:\n  dims:\n    - 8\n    - 1\n    - 4\n", {}, "network.dims[1]", 4);
  expect_error("network:\n  dims: [2, 2, 2, 2]\n", {}, "network.dims", 2);
}

TEST(ConfigLoaderValidate, HotspotNodeOutsideNetwork) {
  const std::string msg = expect_error(
      "network:\n  dims: [4, 4]\ntraffic:\n  pattern: hotspot\n  hotspot:\n    nodes:\n"
      "      - 1\n      - 16\n",
      {}, "traffic.hotspot.nodes[1]", 8);
  EXPECT_TRUE(contains(msg, "outside the 16-node network"));
}

TEST(ConfigLoaderValidate, TraceRouterOutsideNetwork) {
  const std::string msg =
      expect_error("trace:\n  enabled: true\n  routers: [0, 64]\n", {}, "trace.routers[1]", 3);
  EXPECT_TRUE(contains(msg, "outside the 64-node network"));
}

TEST(ConfigLoaderValidate, PipelineDepthRange) {
  const std::string msg = expect_error("network:\n  router:\n    pipeline_depth: 5\n", {},
                                       "network.router.pipeline_depth", 3);
  EXPECT_TRUE(contains(msg, "1..4"));
  EXPECT_EQ(
      load_config("network: {router: {pipeline_depth: 4}}", kSource).network.router.pipeline_depth,
      4);
}

// The watchdog must outlast a credit round trip, and the drain must outlast the watchdog.
TEST(ConfigLoaderValidate, WatchdogAndDrainBounds) {
  std::string msg = expect_error(
      "network:\n  router: {link_latency: 20, pipeline_depth: 4, credit_latency: 6}\n"
      "simulation:\n  watchdog_cycles: 60\n",
      {}, "simulation.watchdog_cycles", 4);
  EXPECT_TRUE(contains(msg, "at least 61"));
  EXPECT_NO_THROW(load_config(
      "network: {router: {link_latency: 20, pipeline_depth: 4, credit_latency: 6}}\n"
      "simulation: {watchdog_cycles: 61}\n",
      kSource));
  msg = expect_error("simulation:\n  watchdog_cycles: 500\n  drain_max_cycles: 499\n", {},
                     "simulation.drain_max_cycles", 3);
  EXPECT_TRUE(contains(msg, "watchdog"));
}

TEST(ConfigLoaderValidate, ClockPeriodMustBeRepresentable) {
  EXPECT_TRUE(contains(expect_error("network:\n  clock_period_ns: 0.0001\n", {},
                                    "network.clock_period_ns", 2),
                       "0.001..1e6"));
  EXPECT_TRUE(contains(expect_error("network:\n  clock_period_ns: 100000\nsimulation:\n"
                                    "  measure_cycles: 1000000000000\n",
                                    {}, "network.clock_period_ns", 2),
                       "64-bit"));
}

TEST(ConfigLoaderValidate, OrderMustBePermutation) {
  expect_error("network:\n  routing:\n    order: [0, 0]\n", {}, "network.routing.order", 3);
  expect_error("network:\n  routing:\n    order: xyz\n", {}, "network.routing.order", 3);
}

TEST(ConfigLoaderValidate, ErrorAboutDefaultedKeyHasNoLine) {
  // hypercube_dimension is not in the file: the error names the source but no line.
  const std::string msg =
      expect_error("network:\n  topology: hypercube\n", {}, "network.hypercube_dimension", 0);
  EXPECT_TRUE(contains(msg, "default"));
}

// ---------------------------------------------------------------------------------------------
// --set overrides.

TEST(ConfigLoaderOverrides, OverridesApplyInOrderAndCreateKeys) {
  const Config c =
      load_config("network:\n  router:\n    vcs: 2\n", kSource,
                  {"network.topology=torus", "network.dims=[4,4]", "network.router.vcs=3",
                   "traffic.hotspot.fraction=0.5", "network.router.vcs = 6", "trace.file=out"});
  EXPECT_EQ(c.network.topology.kind, TopologyKind::kTorus);
  EXPECT_EQ(c.network.topology.dims, (std::vector<int>{4, 4}));
  EXPECT_EQ(c.network.router.vcs, 6);  // the last override of a key wins
  EXPECT_DOUBLE_EQ(c.traffic.hotspot.fraction, 0.5);
  EXPECT_EQ(c.trace.file, "out");
}

TEST(ConfigLoaderOverrides, OverrideReplacesFileValue) {
  // The file alone fails validation (and even has a type error); the overrides fix both.
  const char* yaml = "network:\n  topology: torus\n  router:\n    vcs: 1\n    buffer_depth: lots\n";
  expect_error(yaml, {}, "network.router.buffer_depth", 5);
  const Config c =
      load_config(yaml, kSource, {"network.router.vcs=2", "network.router.buffer_depth=8"});
  EXPECT_EQ(c.network.router.vcs, 2);
  EXPECT_EQ(c.network.router.buffer_depth, 8);
}

TEST(ConfigLoaderOverrides, UnknownKeyIsRejected) {
  const std::string msg =
      expect_error("", {"network.router.vcz=3"}, "network.router.vcz", 0, "--set");
  EXPECT_TRUE(contains(msg, "--set network.router.vcz"));
  EXPECT_TRUE(contains(msg, "did you mean 'network.router.vcs'"));
  EXPECT_TRUE(
      contains(expect_error("", {"network.router=4"}, "network.router", 0, "--set"), "section"));
  expect_error("", {"network.dims[1]=4"}, "network.dims[1]", 0, "--set");
}

TEST(ConfigLoaderOverrides, MalformedOverride) {
  EXPECT_TRUE(contains(expect_error("", {"network.router.vcs"}, "network.router.vcs", 0, "--set"),
                       "KEY=VALUE"));
  EXPECT_TRUE(contains(expect_error("", {"=3"}, "=3", 0, "--set"), "KEY=VALUE"));
  EXPECT_TRUE(contains(expect_error("", {"network.dims=[4, 4"}, "network.dims", 0, "--set"),
                       "cannot parse"));
}

TEST(ConfigLoaderOverrides, ErrorsAboutOverriddenKeysSayTheyCameFromSet) {
  // Type error in an override.
  std::string msg = expect_error("", {"network.router.vcs=abc"}, "network.router.vcs", 0, "--set");
  EXPECT_TRUE(contains(msg, "expected an integer"));
  EXPECT_TRUE(contains(msg, "(from --set network.router.vcs=abc)"));
  // validate() error about an overridden key, even when the file also has that key.
  msg = expect_error("network:\n  router:\n    pipeline_depth: 2\n",
                     {"network.router.pipeline_depth=5"}, "network.router.pipeline_depth", 0,
                     "--set");
  EXPECT_TRUE(contains(msg, "1..4"));
  EXPECT_TRUE(contains(msg, "--set network.router.pipeline_depth=5"));
  expect_error("", {"network.dims=[8, 0]"}, "network.dims[1]", 0, "--set");
  expect_error("", {"network.topology=tours"}, "network.topology", 0, "--set");
  // An error about a key that only the file sets still points into the file.
  expect_error("network:\n  router:\n    vcs: 1\n", {"network.topology=torus"},
               "network.router.vcs", 3);
}

// ---------------------------------------------------------------------------------------------
// Files.

TEST(ConfigLoaderFile, UnreadableFile) {
  const std::string missing = ::testing::TempDir() + "wormsim_no_such_config.yaml";
  std::filesystem::remove(missing);
  try {
    load_config_file(missing);
    ADD_FAILURE() << "no error for a missing file";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "<file>");
    const std::string what = e.what();
    EXPECT_TRUE(what.rfind(missing + ":<file>: ", 0) == 0 ||
                what.rfind(missing + ": <file>: ", 0) == 0)
        << what;
    EXPECT_TRUE(contains(what, "No such file")) << what;
  }
  try {
    load_config_file(::testing::TempDir());
    ADD_FAILURE() << "no error for a directory";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "<file>");
    EXPECT_TRUE(contains(e.what(), "directory"));
  }
}

TEST(ConfigLoaderFile, ErrorsNameTheFileAndOverridesApply) {
  const std::string path = ::testing::TempDir() + "wormsim_config_loader_test.yaml";
  {
    std::ofstream out(path);
    out << "network:\n  dims: [4, 4]\n  router:\n    vcs: 20\n";
  }
  try {
    load_config_file(path);
    ADD_FAILURE() << "no error for vcs: 20";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "network.router.vcs");
    EXPECT_EQ(e.line(), 4);
    EXPECT_EQ(std::string(e.what()).rfind(path + ":4: network.router.vcs: ", 0), 0u) << e.what();
  }
  const Config c = load_config_file(path, {"network.router.vcs=16"});
  EXPECT_EQ(c.network.router.vcs, 16);
  EXPECT_EQ(c.network.topology.dims, (std::vector<int>{4, 4}));
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace wormsim
