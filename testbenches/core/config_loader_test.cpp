// Tests of the YAML config loader: defaults, a round trip of every field, and every error
// category with its key path, line and source.
#include "config_loader.h"
#include "machine_preset.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

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

namespace wormsim::config_loader_test {
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
  main_job.trace.window_cycles = 20000;  // trace.routers [] = the topology's default
  EXPECT_EQ(c.network.topology.dims, (std::vector<int>{8, 8}));
  EXPECT_EQ(c.node.alpha_cycles, 225u);  // 0.75 us at 300 MB/s (seed 000 section 3.3.5)
  const nlohmann::json j = to_json(c);
  EXPECT_EQ(j, to_json(main_job)) << j.dump(2);
  EXPECT_EQ(leaf_count(j), 83) << j.dump(2);  // every field of Config
  // The default text gives every key the run reads, except routing.algorithm (which follows
  // the topology) and the clock period and flit width (which follow machine.preset); the keys
  // it does not read are commented out, so running a copy of it warns about nothing.
  std::vector<GivenKey> given;
  load_config(default_config_yaml(), "<built-in>", {}, {}, &given);
  EXPECT_FALSE(given.empty());
  for (const UnusedKey& u : unused_keys(c, given)) ADD_FAILURE() << text(u);
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
    pipeline: combined
    link_latency: 2
    credit_latency: 4
    allocator: separable_output_first
    port_model: k_port
    ports: 5
    multidest: tree
    replication: synchronous
    header_encoding: bit_string
    consumption_channels: 3
    multidest_vcs: 2
    replication_flow: cut_through
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
  background:
    load: 0.5
    packet_length: 7
    pattern: transpose
    warmup_cycles: 250
    seed: 9
traffic:
  pattern: hotspot
  injection_rate: 0.25
  packet_length: 9
  multicast_fraction: 0.5
  multicast_destinations: 7
  software_multicast: separate_addressing
  software_forward_cycles: 11
  multicast_pattern: hotspot
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
  threads: 3
  parallel_min_routers: 17
  cache_hints: off
  engine: reference
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
  EXPECT_EQ(c.network.router.pipeline, PipelineModel::kCombined);
  EXPECT_EQ(c.network.router.link_latency, 2);
  EXPECT_EQ(c.network.router.credit_latency, 4);
  EXPECT_EQ(c.network.router.allocator, AllocatorKind::kSeparableOutputFirst);
  EXPECT_EQ(c.network.router.port_model, PortModel::kKPort);
  EXPECT_EQ(c.network.router.ports, 5);
  EXPECT_EQ(c.network.router.multidest, MultidestMode::kTree);
  EXPECT_EQ(c.network.router.replication, Replication::kSynchronous);
  EXPECT_EQ(c.network.router.header_encoding, HeaderEncoding::kBitString);
  EXPECT_EQ(c.network.router.consumption_channels, 3);
  EXPECT_EQ(c.network.router.multidest_vcs, 2);
  EXPECT_EQ(c.network.router.replication_flow, ReplicationFlow::kCutThrough);
  EXPECT_EQ(c.network.router.implementation, RouterImplementation::kSystemC);
  EXPECT_EQ(c.network.router.rtl_nodes, (std::vector<NodeId>{1, 2}));
  EXPECT_EQ(c.node.alpha_cycles, 11u);
  EXPECT_EQ(c.node.gamma_cycles, 13u);
  EXPECT_EQ(c.node.max_packet_bytes, 600);
  EXPECT_EQ(c.node.header_bytes, 30);
  EXPECT_EQ(c.node.tx_queue_depth, 7);
  EXPECT_EQ(c.collective.algorithms,
            (std::vector<CollectiveAlgorithm>{CollectiveAlgorithm::kPingPong,
                                              CollectiveAlgorithm::kSeparateAddressing}));
  EXPECT_EQ(c.collective.message_bytes, (std::vector<std::uint32_t>{5, 7}));
  EXPECT_EQ(c.collective.roots, RootSelection::kAll);
  EXPECT_EQ(c.collective.root, 9u);
  EXPECT_EQ(c.collective.sample, 3);
  EXPECT_EQ(c.collective.destinations, (std::vector<NodeId>{4, 8}));
  EXPECT_EQ(c.collective.peer, 2);
  EXPECT_EQ(c.collective.seed, 77u);
  EXPECT_DOUBLE_EQ(c.collective.background.load, 0.5);
  EXPECT_EQ(c.collective.background.packet_length, 7);
  EXPECT_EQ(c.collective.background.pattern, TrafficPattern::kTranspose);
  EXPECT_EQ(c.collective.background.warmup_cycles, 250u);
  EXPECT_EQ(c.collective.background.seed, 9u);
  EXPECT_DOUBLE_EQ(c.traffic.multicast_fraction, 0.5);
  EXPECT_EQ(c.traffic.multicast_destinations, 7);
  EXPECT_EQ(c.traffic.software_multicast, SoftwareMulticastScheme::kSeparateAddressing);
  EXPECT_EQ(c.traffic.software_forward_cycles, 11u);
  EXPECT_EQ(c.traffic.multicast_pattern, MulticastPattern::kHotspot);
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
  EXPECT_EQ(c.simulation.threads, 3);
  EXPECT_EQ(c.simulation.parallel_min_routers, 17);
  EXPECT_EQ(c.simulation.cache_hints, CacheHints::kOff);
  EXPECT_EQ(c.simulation.engine, Engine::kReference);
  EXPECT_TRUE(c.trace.enabled);
  EXPECT_EQ(c.trace.routers, (std::vector<NodeId>{1, 2, 70}));
  EXPECT_EQ(c.trace.file, "run42");
}

TEST(ConfigLoaderRoundTrip, EveryFieldLoads) {
  SCOPED_TRACE("YAML");
  expect_every_field(load_config(kEveryField, kSource));
}

// Non-ASCII names that are well-formed UTF-8 load as given (and serialise into results.json).
TEST(ConfigLoaderStrings, WellFormedUtf8NamesLoad) {
  const Config c = load_config("trace:\n  file: r\xc3\xa9sum\xc3\xa9_\xf0\x9f\x93\x88\n", "t.yaml");
  EXPECT_EQ(c.trace.file, "r\xc3\xa9sum\xc3\xa9_\xf0\x9f\x93\x88");
  EXPECT_NO_THROW((void)to_json(c).dump());
}

TEST(ConfigLoaderRoundTrip, JsonHasYamlLayoutAndLoadsBack) {
  const Config c = load_config(kEveryField, kSource);
  const nlohmann::json j = to_json(c);
  EXPECT_EQ(leaf_count(j), 83);
  EXPECT_EQ(j["machine"]["preset"], "none");
  EXPECT_EQ(j["network"]["topology"], "torus");
  EXPECT_EQ(j["network"]["dims"], nlohmann::json({4, 6, 3}));
  EXPECT_EQ(j["network"]["routing"]["order"], nlohmann::json({2, 0, 1}));
  EXPECT_EQ(j["network"]["routing"]["ecube_order"], "low_to_high");
  EXPECT_EQ(j["network"]["router"]["allocator"], "separable_output_first");
  EXPECT_EQ(j["network"]["router"]["pipeline"], "combined");
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

// Inputs on which yaml-cpp 0.7's LoadAll loops forever, allocating (jbeder/yaml-cpp#1040;
// the second was found by fuzz/config_loader_fuzz.cpp): an error naming the line, no hang.
TEST(ConfigLoaderErrors, StrayCommaIsAnErrorNotAHang) {
  EXPECT_TRUE(contains(expect_error(",\n", {}, "<yaml>", 1), "one YAML document"));
  EXPECT_TRUE(contains(expect_error("#,\n,#ocss\n }", {}, "<yaml>", 2), "one YAML document"));
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
      // Strings go into results.json (UTF-8): a lone byte 0xDF, an overlong '/' and a surrogate.
      {"trace:\n  file: ab\xdf"
       "c\n",
       "trace.file", 2, "must be valid UTF-8 text"},
      {"trace:\n  file: a\xc0\xaf\n", "trace.file", 2, "must be valid UTF-8 text"},
      {"trace:\n  file: a\xed\xa0\x80\n", "trace.file", 2, "must be valid UTF-8 text"},
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
  EXPECT_NO_THROW(
      load_config("network: {router: {link_latency: 20, pipeline_depth: 4, credit_latency: 6}}\n"
                  "simulation: {watchdog_cycles: 61}\n",
                  kSource));
  msg = expect_error("simulation:\n  watchdog_cycles: 500\n  drain_max_cycles: 499\n", {},
                     "simulation.drain_max_cycles", 3);
  EXPECT_TRUE(contains(msg, "watchdog"));
}

TEST(ConfigLoaderValidate, ClockPeriodMustBeRepresentable) {
  EXPECT_TRUE(contains(
      expect_error("network:\n  clock_period_ns: 0.0001\n", {}, "network.clock_period_ns", 2),
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

TEST(ConfigLoaderFile, NamedPipeIsRejectedWithoutReading) {
  // Opening a FIFO for reading blocks until a writer comes: the loader must not open it.
  const std::string fifo =
      ::testing::TempDir() + "wormsim_config_fifo_" + std::to_string(::getpid());
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  try {
    load_config_file(fifo);
    ADD_FAILURE() << "no error for a named pipe";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "<file>");
    EXPECT_EQ(std::string(e.what()).rfind(fifo + ": <file>: ", 0), 0u) << e.what();
    EXPECT_TRUE(contains(e.what(), "named pipe")) << e.what();
  }
  std::filesystem::remove(fifo);
  // Character devices are not config files either.
  try {
    load_config_file("/dev/null");
    ADD_FAILURE() << "no error for /dev/null";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), "<file>");
    EXPECT_TRUE(contains(e.what(), "not a regular file")) << e.what();
  }
}

// ---------------------------------------------------------------------------------------------
// Keys given but not used by the run (the CLI warns about them).

// The keys unused_keys() reports for `yaml` + `overrides`, as "key@source:line".
std::vector<std::string> unused(const std::string& yaml,
                                const std::vector<std::string>& overrides = {}) {
  std::vector<GivenKey> given;
  const Config c = load_config(yaml, kSource, overrides, {}, &given);
  std::vector<std::string> out;
  for (const UnusedKey& u : unused_keys(c, given)) {
    EXPECT_FALSE(u.reason.empty()) << u.where.key;
    out.push_back(fmt::format("{}@{}:{}", u.where.key, u.where.source, u.where.line));
  }
  return out;
}

using Keys = std::vector<std::string>;

TEST(ConfigLoaderUnusedKeys, TrafficKeysWithACollectiveWorkload) {
  // The motivating case: latency_load.py's --set traffic.packet_length=1 on the collective
  // default was ignored without a word.
  const std::string yaml =
      "workload: collective\ncollective: {algorithms: [recursive_doubling]}\ntraffic:\n"
      "  pattern: transpose\n  injection_rate: 0.2\nsimulation:\n  measure_cycles: 500\n"
      "  watchdog_cycles: 3000\n";
  EXPECT_EQ(unused(yaml, {"traffic.packet_length=1"}),
            (Keys{"traffic.pattern@test.yaml:4", "traffic.injection_rate@test.yaml:5",
                  "simulation.measure_cycles@test.yaml:7", "traffic.packet_length@--set:0"}));
  // The same keys drive a synthetic run, which has no use for collective.*.
  EXPECT_EQ(unused(yaml, {"traffic.packet_length=1", "workload=synthetic"}),
            (Keys{"collective.algorithms@test.yaml:2"}));
}

TEST(ConfigLoaderUnusedKeys, CollectiveAndNodeKeysWithASyntheticWorkload) {
  EXPECT_EQ(
      unused("collective:\n  sample: 2\nnode:\n  tx_queue_depth: 4\ntrace:\n  timeline: false\n"),
      (Keys{"collective.sample@test.yaml:2", "node.tx_queue_depth@test.yaml:4",
            "trace.timeline@test.yaml:6"}));
}

TEST(ConfigLoaderUnusedKeys, TraceKeysWithTracingOff) {
  EXPECT_EQ(unused("trace:\n  enabled: false\n  routers: [1]\n  file: w\n  window_cycles: 9\n"),
            (Keys{"trace.routers@test.yaml:3", "trace.file@test.yaml:4",
                  "trace.window_cycles@test.yaml:5"}));
  EXPECT_EQ(unused("trace:\n  enabled: true\n  routers: [1]\n  file: w\n  window_cycles: 9\n"),
            Keys{});
  // rtl_vcd converts RTL routers' FST waves: nothing to convert with SystemC routers.
  EXPECT_EQ(unused("trace: {enabled: true, rtl_vcd: true}\n"), (Keys{"trace.rtl_vcd@test.yaml:1"}));
}

TEST(ConfigLoaderUnusedKeys, NetworkKeysOfAnotherTopologyOrRouter) {
  EXPECT_EQ(
      unused(
          "network:\n  hypercube_dimension: 4\n  routing:\n    ecube_order: low_to_high\n"
          "    dateline: false\n  router:\n    ports: 2\n    replication: synchronous\n"
          "    header_encoding: bit_string\n    rtl_nodes: [1]\n"
          "    consumption_channels: 2\n    multidest_vcs: 1\n    replication_flow: cut_through\n"),
      (Keys{"network.hypercube_dimension@test.yaml:2", "network.routing.ecube_order@test.yaml:4",
            "network.routing.dateline@test.yaml:5", "network.router.ports@test.yaml:7",
            "network.router.replication@test.yaml:8", "network.router.header_encoding@test.yaml:9",
            "network.router.rtl_nodes@test.yaml:10", "network.router.multidest_vcs@test.yaml:12",
            "network.router.replication_flow@test.yaml:13"}));
  // Where they apply, they are used (consumption_channels always: it sets the ejection
  // channels of unicast routers too).
  EXPECT_EQ(unused("network:\n  topology: torus\n  dims: [4, 4]\n  routing: {dateline: true}\n"
                   "  router: {port_model: k_port, ports: 2, multidest: path, "
                   "replication: synchronous, header_encoding: bit_string, multidest_vcs: 1, "
                   "replication_flow: cut_through}\n"),
            Keys{});
  EXPECT_EQ(unused("network:\n  topology: hypercube\n  hypercube_dimension: 4\n  dims: [4, 4]\n"
                   "  routing: {ecube_order: low_to_high}\n"),
            (Keys{"network.dims@test.yaml:4"}));
}

TEST(ConfigLoaderUnusedKeys, SyntheticAndCollectiveSubKeys) {
  EXPECT_EQ(unused("traffic:\n  hotspot: {nodes: [1], fraction: 0.5}\n  multicast_destinations: 3\n"
                   "  multicast_pattern: hotspot\n"),
            (Keys{"traffic.hotspot.nodes@test.yaml:2", "traffic.hotspot.fraction@test.yaml:2",
                  "traffic.multicast_destinations@test.yaml:3",
                  "traffic.multicast_pattern@test.yaml:4"}));
  // Hotspot worms read hotspot.nodes but not hotspot.fraction (pattern hotspot's share).
  EXPECT_EQ(unused("network: {router: {multidest: tree}}\ntraffic:\n  hotspot: {nodes: [1], "
                   "fraction: 0.5}\n  multicast_fraction: 0.5\n  multicast_pattern: hotspot\n"),
            (Keys{"traffic.hotspot.fraction@test.yaml:3"}));
  // Software multicast keys: only for multicasts (multicast_fraction > 0) on unicast routers,
  // the forward overhead only for a scheme that forwards.
  const std::string soft = "  software_multicast: binomial_tree\n  software_forward_cycles: 5\n";
  EXPECT_EQ(unused("traffic:\n" + soft), (Keys{"traffic.software_multicast@test.yaml:2",
                                               "traffic.software_forward_cycles@test.yaml:3"}));
  EXPECT_EQ(unused("network: {router: {multidest: tree}}\ntraffic:\n" + soft +
                   "  multicast_fraction: 0.5\n"),
            (Keys{"traffic.software_multicast@test.yaml:3",
                  "traffic.software_forward_cycles@test.yaml:4"}));
  EXPECT_EQ(unused("traffic:\n" + soft + "  multicast_fraction: 0.5\n"), Keys{});
  EXPECT_EQ(unused("traffic:\n  software_multicast: separate_addressing\n"
                   "  software_forward_cycles: 5\n  multicast_fraction: 0.5\n"),
            (Keys{"traffic.software_forward_cycles@test.yaml:3"}));
  EXPECT_EQ(unused("workload: collective\nnetwork: {router: {port_model: all_port}}\n"
                   "collective:\n  roots: one\n  root: 3\n  sample: 2\n  peer: 1\n  seed: 7\n"),
            (Keys{"collective.sample@test.yaml:6", "collective.peer@test.yaml:7",
                  "collective.seed@test.yaml:8"}));
}

// Background keys are read only by collective runs with background load.
TEST(ConfigLoaderUnusedKeys, BackgroundKeysWithoutBackgroundLoad) {
  const std::string head =
      "workload: collective\ncollective:\n  algorithms: [recursive_doubling]\n  background:\n";
  const std::string keys =
      "    packet_length: 3\n    pattern: transpose\n    warmup_cycles: 50\n    seed: 4\n";
  const Keys all{"collective.background.packet_length@test.yaml:6",
                 "collective.background.pattern@test.yaml:7",
                 "collective.background.warmup_cycles@test.yaml:8",
                 "collective.background.seed@test.yaml:9"};
  // Load 0 (given or left out): no background traffic.
  EXPECT_EQ(unused(head + "    load: 0\n" + keys), all);
  // Load > 0: every background key is used.
  EXPECT_EQ(unused(head + "    load: 0.1\n" + keys), Keys{});
  // A synthetic run has no use for any collective key, the load included.
  Keys synthetic{"collective.algorithms@test.yaml:3", "collective.background.load@test.yaml:5"};
  synthetic.insert(synthetic.end(), all.begin(), all.end());
  EXPECT_EQ(unused(head + "    load: 0.1\n" + keys, {"workload=synthetic"}), synthetic);
}

// Every shipped config reads every key it gives (scripts/compare's comparison files are not
// wormsim configs).
TEST(ConfigLoaderUnusedKeys, ShippedConfigsGiveNoUnusedKeys) {
  int checked = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(WORMSIM_SOURCE_DIR) + "/configs")) {
    const std::string name = entry.path().filename().string();
    // scripts/compare's comparison files, wormsim study's study files and the figure files of
    // scripts/edn_torus_figures.py are not wormsim configs.
    if (entry.path().extension() != ".yaml" || name.rfind("compare_", 0) == 0 ||
        name.rfind("study_", 0) == 0 || name.rfind("figure_", 0) == 0)
      continue;
    SCOPED_TRACE(name);
    std::vector<GivenKey> given;
    const Config c = load_config_file(entry.path().string(), {}, {}, &given);
    for (const UnusedKey& u : unused_keys(c, given)) ADD_FAILURE() << text(u);
    ++checked;
  }
  EXPECT_GE(checked, 8);
}

TEST(ConfigLoaderUnusedKeys, TextNamesSourceLineAndKey) {
  const UnusedKey file_key{{"traffic.seed", "my.yaml", 12}, "why"};
  EXPECT_EQ(text(file_key), "my.yaml:12: traffic.seed: not used: why");
  const UnusedKey set_key{{"traffic.seed", "--set", 0}, "why"};
  EXPECT_EQ(text(set_key), "--set: traffic.seed: not used: why");
}

// ---------------------------------------------------------------------------------------------
// The synthetic sweep config (scripts/latency_load.py's base).

TEST(ConfigLoaderShipped, SyntheticSweepIsAnUntraced8x8UniformMesh) {
  const Config c =
      load_config_file(std::string(WORMSIM_SOURCE_DIR) + "/configs/synthetic_sweep.yaml");
  EXPECT_EQ(c.workload, Workload::kSynthetic);
  EXPECT_EQ(c.network.topology.kind, TopologyKind::kMesh);
  EXPECT_EQ(c.network.topology.dims, (std::vector<int>{8, 8}));
  EXPECT_EQ(c.traffic.pattern, TrafficPattern::kUniformRandom);
  EXPECT_FALSE(c.trace.enabled);
}

// ---------------------------------------------------------------------------------------------
// Traced routers follow the network.

// Node id of coordinates (x first): node = x + X * (y + Y * z).
NodeId node_at(const std::vector<int>& sides, const std::vector<int>& coords) {
  NodeId n = 0;
  NodeId stride = 1;
  for (std::size_t d = 0; d < sides.size(); ++d) {
    n += static_cast<NodeId>(coords[d]) * stride;
    stride *= static_cast<NodeId>(sides[d]);
  }
  return n;
}

TEST(ConfigTrace, DefaultTracedRoutersAreTheCornerAndTheCentre) {
  TopologyConfig t;
  t.dims = {8, 8};
  EXPECT_EQ(default_traced_routers(t),
            (std::vector<NodeId>{0, node_at({8, 8}, {3, 3}), node_at({8, 8}, {4, 4})}));
  t.dims = {4, 4};
  EXPECT_EQ(default_traced_routers(t),
            (std::vector<NodeId>{0, node_at({4, 4}, {1, 1}), node_at({4, 4}, {2, 2})}));
  t.dims = {5, 5};  // one central router
  EXPECT_EQ(default_traced_routers(t), (std::vector<NodeId>{0, node_at({5, 5}, {2, 2})}));
  t.dims = {4, 6, 2};
  EXPECT_EQ(default_traced_routers(t),
            (std::vector<NodeId>{0, node_at({4, 6, 2}, {1, 2, 0}), node_at({4, 6, 2}, {2, 3, 1})}));
  t.dims = {2};
  EXPECT_EQ(default_traced_routers(t), (std::vector<NodeId>{0, 1}));
  t.kind = TopologyKind::kHypercube;  // 2-ary n-cube: the corner and the opposite corner
  t.hypercube_dimension = 6;
  EXPECT_EQ(default_traced_routers(t), (std::vector<NodeId>{0, 63}));
}

TEST(ConfigTrace, BuiltInDefaultResizesFromTheCommandLine) {
  // The built-in default traces the default routers of whatever network it is given.
  const Config c8 = load_config(default_config_yaml(), "<built-in>");
  EXPECT_EQ(traced_routers(c8), default_traced_routers(c8.network.topology));
  EXPECT_EQ(traced_routers(c8),
            (std::vector<NodeId>{0, node_at({8, 8}, {3, 3}), node_at({8, 8}, {4, 4})}));
  const Config c4 = load_config(default_config_yaml(), "<built-in>", {"network.dims=[4,4]"});
  EXPECT_EQ(traced_routers(c4),
            (std::vector<NodeId>{0, node_at({4, 4}, {1, 1}), node_at({4, 4}, {2, 2})}));
  // An explicit list is kept.
  const Config given = load_config(default_config_yaml(), "<built-in>", {"trace.routers=[2, 1]"});
  EXPECT_EQ(traced_routers(given), (std::vector<NodeId>{2, 1}));
}

TEST(ConfigTrace, TraceFileStaysInsideTheOutputDirectory) {
  for (const char* bad : {"../x", "/tmp/x", "a/../../x", "a/..", "sub/", "."}) {
    SCOPED_TRACE(bad);
    const std::string msg =
        expect_error(fmt::format("trace:\n  file: \"{}\"\n", bad), {}, "trace.file", 2);
    EXPECT_TRUE(contains(msg, "--out") || contains(msg, "base name")) << msg;
  }
  EXPECT_EQ(load_config("trace: {file: waves/run1}\n", kSource).trace.file, "waves/run1");
}

// ---------------------------------------------------------------------------------------------
// Collective operations that could not run as configured.

constexpr const char* kCollective4x4 =
    "workload: collective\nnetwork: {dims: [4, 4]}\ncollective:\n  algorithms: "
    "[separate_addressing]\n";

TEST(ConfigCollective, DestinationSetOfOnlyTheRootIsAnError) {
  // roots: one, the root its own only destination: the operation would have no destination.
  const std::string yaml =
      std::string(kCollective4x4) + "  roots: one\n  root: 3\n  destinations: [3, 3]\n";
  EXPECT_TRUE(contains(expect_error(yaml, {}, "collective.destinations", 7), "no destination"));
  // Any root of `all` is that one destination at some point.
  expect_error(std::string(kCollective4x4) + "  roots: all\n  destinations: [5]\n", {},
               "collective.destinations", 6);
  expect_error(kCollective4x4, {"collective.roots=one", "collective.destinations=[0]"},
               "collective.destinations", 0, "--set");
  // Another node in the set, or a root that is not the destination, is fine.
  EXPECT_NO_THROW(load_config(
      std::string(kCollective4x4) + "  roots: one\n  root: 3\n  destinations: [3, 4]\n", kSource));
  EXPECT_NO_THROW(load_config(
      std::string(kCollective4x4) + "  roots: one\n  root: 2\n  destinations: [3]\n", kSource));
  // A sample of roots: an error exactly when the sample draws the one destination.
  Config probe =
      load_config(std::string(kCollective4x4) + "  roots: sample\n  sample: 3\n", kSource);
  const std::vector<NodeId> roots = collective_roots(probe);
  ASSERT_EQ(roots.size(), 3u);
  NodeId outside = 0;
  while (std::find(roots.begin(), roots.end(), outside) != roots.end()) ++outside;
  const std::string sample =
      std::string(kCollective4x4) + "  roots: sample\n  sample: 3\n  destinations: ";
  expect_error(sample + fmt::format("[{}]\n", roots[1]), {}, "collective.destinations", 7);
  EXPECT_NO_THROW(load_config(sample + fmt::format("[{}]\n", outside), kSource));
}

TEST(ConfigCollective, PingPongPeerThatIsARootIsAnError) {
  const std::string yaml =
      "workload: collective\nnetwork: {dims: [4, 4]}\ncollective:\n  algorithms: [ping_pong]\n"
      "  roots: one\n  root: 6\n  peer: 6\n";
  EXPECT_TRUE(contains(expect_error(yaml, {}, "collective.peer", 7), "itself"));
  EXPECT_NO_THROW(load_config(yaml, kSource, {"collective.peer=7"}));
}

TEST(ConfigCollective, PacketsLongerThanTheFlitIndexAreAnError) {
  // T3D: 1-byte flits, one packet per message, so a message of B bytes is a packet of B flits;
  // packets have at most 65535 flits (16-bit flit index).
  const std::string base =
      "machine: {preset: t3d}\nworkload: collective\nnetwork: {router: {port_model: all_port}}\n"
      "collective:\n  algorithms: [recursive_doubling]\n  message_bytes: ";
  const std::string msg =
      expect_error(base + "[32, 65536]\n", {}, "collective.message_bytes[1]", 6);
  EXPECT_TRUE(contains(msg, "65536 flits")) << msg;
  EXPECT_TRUE(contains(msg, "node.max_packet_bytes")) << msg;
  EXPECT_TRUE(contains(msg, "machine.preset")) << msg;
  EXPECT_NO_THROW(load_config(base + "[65535]\n", kSource));
  // Split into packets (no preset), the same message fits.
  const std::string split =
      "workload: collective\nnetwork: {flit_bytes: 1, router: {port_model: all_port}}\n"
      "node: {max_packet_bytes: 4096}\ncollective:\n  algorithms: [recursive_doubling]\n"
      "  message_bytes: [65536]\n";
  EXPECT_NO_THROW(load_config(split, kSource));
  // Packets of max_packet_bytes payload, not the message, count: 65536 payload bytes of
  // 1-byte flits is one flit too many.
  expect_error(split, {"node.max_packet_bytes=65536"}, "collective.message_bytes[0]", 6);
  // A path worm also carries its destination list: on 64 nodes an address is 6 bits, so the
  // list of 63 destinations is ceil(63 * 6 / 8) = 48 one-byte flits, 47 more than a unicast
  // header flit; the message can then have 65535 - 47 bytes.
  const std::string path =
      "workload: collective\nnetwork: {flit_bytes: 1, router: {multidest: path}}\n"
      "collective:\n  algorithms: [path_multicast]\n  message_bytes: ";
  const int list_extra = (63 * 6 + 7) / 8 - 1;
  EXPECT_NO_THROW(load_config(path + fmt::format("[{}]\n", 65535 - list_extra), kSource));
  expect_error(path + fmt::format("[{}]\n", 65535 - list_extra + 1), {},
               "collective.message_bytes[0]", 5);
}

TEST(ConfigCollective, NoDrainLimitForCollectiveRuns) {
  // A collective run has no drain phase: a long watchdog needs no simulation.drain_max_cycles.
  EXPECT_NO_THROW(
      load_config("workload: collective\nnetwork: {router: {port_model: all_port}}\n"
                  "simulation: {watchdog_cycles: 500000}\n",
                  kSource));
  expect_error("simulation: {watchdog_cycles: 500000}\n", {}, "simulation.drain_max_cycles", 0);
}

}  // namespace
}  // namespace wormsim::config_loader_test
