// Every check of Config::validate() (systemc/core/config.cpp) fires, names its key and says
// why: one case per check, each a small base config plus the --set overrides that break exactly
// that rule, run through load_config as the CLI runs it. How the table was made complete: each
// `require(...)` and `throw ConfigError` in Config::validate and validate_node_layer has one row,
// in source order (the RTL build's limits are cosim/rtl_limits.cpp's, tested in
// rtl_equivalence_test; the loader's own errors in config_loader_test). One check cannot fire:
// `nodes >= 2` for collectives, since every topology the earlier checks accept has at least 2
// nodes (mesh sides >= 2, hypercube dimension >= 1); it has no row.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config_loader.h"

namespace wormsim {
namespace {

const char* const kSynthetic = "workload: synthetic\nnetwork: {topology: mesh, dims: [4, 4]}\n";
const char* const kCollective = "workload: collective\nnetwork: {topology: mesh, dims: [4, 4], router: {port_model: all_port}}\ncollective: {algorithms: [recursive_doubling], message_bytes: [64]}\n";
const char* const kHypercube = "workload: synthetic\nnetwork: {topology: hypercube, hypercube_dimension: 4}\n";

struct Check {
  const char* name;
  const char* base;                 // YAML
  std::vector<std::string> sets;    // --set overrides that break the rule
  const char* key;                  // the key the error must name
  const char* fragment;             // part of the message that says why
};

class ConfigValidation : public ::testing::TestWithParam<Check> {};

TEST_P(ConfigValidation, FiresNamingTheKey) {
  const Check& c = GetParam();
  try {
    load_config(c.base, "case.yaml", c.sets);
    FAIL() << "accepted: " << c.name;
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.key(), c.key) << e.what();
    EXPECT_NE(std::string(e.what()).find(c.fragment), std::string::npos) << e.what();
  }
}

// The base configs themselves are valid (so each row's error comes from its overrides).
TEST(ConfigValidationBase, BaseConfigsAreValid) {
  for (const char* base : {kSynthetic, kCollective, kHypercube})
    EXPECT_NO_THROW(load_config(base, "base.yaml")) << base;
}

INSTANTIATE_TEST_SUITE_P(
    EveryCheck, ConfigValidation,
    ::testing::Values(
    Check{"unknown_preset", kSynthetic, {"machine.preset=nosuch"}, "machine.preset", "nosuch"},
    Check{"hypercube_dimension_range", kHypercube, {"network.hypercube_dimension=17"}, "network.hypercube_dimension", "1..16"},
    Check{"hypercube_needs_ecube", kHypercube, {"network.routing.algorithm=dor"}, "network.routing.algorithm", "ecube"},
    Check{"dims_count", kSynthetic, {"network.dims=[2,2,2,2]"}, "network.dims", "1 to 3 side lengths"},
    Check{"dims_side", kSynthetic, {"network.dims=[4,1]"}, "network.dims[1]", "at least 2"},
    Check{"dims_too_many_nodes", kSynthetic, {"network.dims=[2048,1024]"}, "network.dims", "2^20"},
    Check{"hamiltonian_needs_2d_mesh", kSynthetic, {"network.topology=torus", "network.routing.algorithm=hamiltonian"}, "network.routing.algorithm", "2D mesh"},
    Check{"mesh_needs_dor", kSynthetic, {"network.routing.algorithm=ecube"}, "network.routing.algorithm", "'dor'"},
    Check{"order_length", kSynthetic, {"network.routing.order=[0]"}, "network.routing.order", "each of the 2 dimensions"},
    Check{"order_permutation", kSynthetic, {"network.routing.order=[1,1]"}, "network.routing.order", "permutation"},
    Check{"order_on_hypercube", kHypercube, {"network.routing.order=[0,1,2,3]"}, "network.routing.order", "ecube_order"},
    Check{"vcs_range", kSynthetic, {"network.router.vcs=17"}, "network.router.vcs", "1..16"},
    Check{"torus_dateline_vcs", kSynthetic, {"network.topology=torus", "network.router.vcs=1"}, "network.router.vcs", "dateline"},
    Check{"buffer_depth_range", kSynthetic, {"network.router.buffer_depth=0"}, "network.router.buffer_depth", "1..256"},
    Check{"pipeline_depth_range", kSynthetic, {"network.router.pipeline_depth=5"}, "network.router.pipeline_depth", "1..4"},
    Check{"link_latency_range", kSynthetic, {"network.router.link_latency=65"}, "network.router.link_latency", "1..64"},
    Check{"credit_latency_range", kSynthetic, {"network.router.credit_latency=0"}, "network.router.credit_latency", "1..64"},
    Check{"kport_ports", kSynthetic, {"network.router.port_model=k_port", "network.router.ports=5"}, "network.router.ports", "1..4"},
    Check{"consumption_channels_range", kSynthetic, {"network.router.consumption_channels=5"}, "network.router.consumption_channels", "1..4"},
    Check{"rtl_nodes_exist", kSynthetic, {"network.router.rtl_nodes=[16]"}, "network.router.rtl_nodes[0]", "does not exist"},
    Check{"tree_not_hamiltonian", kSynthetic, {"network.router.multidest=tree", "network.routing.algorithm=hamiltonian"}, "network.router.multidest", "dimension-ordered tree"},
    Check{"flit_bytes_range", kSynthetic, {"network.flit_bytes=33"}, "network.flit_bytes", "1..32"},
    Check{"clock_period_range", kSynthetic, {"network.clock_period_ns=0.0001"}, "network.clock_period_ns", "0.001..1e6"},
    Check{"packet_length_range", kSynthetic, {"traffic.packet_length=0"}, "traffic.packet_length", "1..65535"},
    Check{"injection_rate_range", kSynthetic, {"traffic.injection_rate=6", "traffic.packet_length=5"}, "traffic.injection_rate", "at most one packet"},
    Check{"multicast_fraction_range", kSynthetic, {"traffic.multicast_fraction=1.5"}, "traffic.multicast_fraction", "0..1"},
    Check{"multicast_needs_multidest", kSynthetic, {"traffic.multicast_fraction=0.5", "traffic.multicast_destinations=3"}, "traffic.multicast_fraction", "multidest"},
    Check{"multicast_destinations_range", kSynthetic, {"network.router.multidest=path", "traffic.multicast_fraction=0.5", "traffic.multicast_destinations=16"}, "traffic.multicast_destinations", "1..15"},
    Check{"hotspot_nodes_empty", kSynthetic, {"traffic.pattern=hotspot", "traffic.hotspot.nodes=[]"}, "traffic.hotspot.nodes", "must not be empty"},
    Check{"hotspot_node_outside", kSynthetic, {"traffic.pattern=hotspot", "traffic.hotspot.nodes=[16]"}, "traffic.hotspot.nodes[0]", "outside the 16-node network"},
    Check{"hotspot_fraction_range", kSynthetic, {"traffic.pattern=hotspot", "traffic.hotspot.nodes=[3]", "traffic.hotspot.fraction=2"}, "traffic.hotspot.fraction", "0..1"},
    Check{"transpose_hypercube_odd", kHypercube, {"network.hypercube_dimension=3", "traffic.pattern=transpose"}, "traffic.pattern", "even dimension"},
    Check{"transpose_unequal_sides", kSynthetic, {"network.dims=[4,2]", "traffic.pattern=transpose"}, "traffic.pattern", "equal side lengths"},
    Check{"measure_cycles_min", kSynthetic, {"simulation.measure_cycles=0"}, "simulation.measure_cycles", "at least 1"},
    Check{"watchdog_round_trip", kSynthetic, {"simulation.watchdog_cycles=6"}, "simulation.watchdog_cycles", "at least 7"},
    Check{"drain_below_watchdog", kSynthetic, {"simulation.watchdog_cycles=100", "simulation.drain_max_cycles=50"}, "simulation.drain_max_cycles", "watchdog"},
    Check{"warmup_cycles_max", kSynthetic, {"simulation.warmup_cycles=1099511627776"}, "simulation.warmup_cycles", "2^40"},
    Check{"measure_cycles_max", kSynthetic, {"simulation.measure_cycles=1099511627776"}, "simulation.measure_cycles", "2^40"},
    Check{"drain_cycles_max", kSynthetic, {"simulation.drain_max_cycles=1099511627776"}, "simulation.drain_max_cycles", "2^40"},
    Check{"run_exceeds_time", kSynthetic, {"simulation.measure_cycles=1000000000000", "network.clock_period_ns=100000"}, "network.clock_period_ns", "64-bit picosecond"},
    Check{"trace_router_outside", kSynthetic, {"trace.routers=[16]"}, "trace.routers[0]", "outside the 16-node network"},
    Check{"trace_file_absolute", kSynthetic, {"trace.file=/tmp/x"}, "trace.file", "absolute path"},
    Check{"trace_file_dotdot", kSynthetic, {"trace.file=../x"}, "trace.file", "'..'"},
    Check{"trace_file_directory", kSynthetic, {"trace.file=x/"}, "trace.file", "names a directory"},
    Check{"alpha_cycles_max", kCollective, {"node.alpha_cycles=4294967296"}, "node.alpha_cycles", "2^32"},
    Check{"gamma_cycles_max", kCollective, {"node.gamma_cycles=4294967296"}, "node.gamma_cycles", "2^32"},
    Check{"header_bytes_range", kCollective, {"node.header_bytes=4097"}, "node.header_bytes", "0..4096"},
    Check{"max_packet_bytes_range", kCollective, {"node.header_bytes=16", "node.max_packet_bytes=16"}, "node.max_packet_bytes", "header_bytes+1..65536"},
    Check{"tx_queue_depth_range", kCollective, {"node.tx_queue_depth=0"}, "node.tx_queue_depth", "1..65535"},
    Check{"algorithms_empty", kCollective, {"collective.algorithms=[]"}, "collective.algorithms", "at least one"},
    Check{"message_bytes_empty", kCollective, {"collective.message_bytes=[]"}, "collective.message_bytes", "must not be empty"},
    Check{"message_bytes_max", kCollective, {"collective.message_bytes=[65537]"}, "collective.message_bytes[0]", "65536"},
    Check{"root_outside", kCollective, {"collective.root=16"}, "collective.root", "outside the 16-node network"},
    Check{"sample_min", kCollective, {"collective.roots=sample", "collective.sample=0"}, "collective.sample", "at least 1"},
    Check{"destination_outside", kCollective, {"collective.destinations=[1,16]"}, "collective.destinations[1]", "outside"},
    Check{"random_destinations_range", kCollective, {"collective.random_destinations=16"}, "collective.random_destinations", "0..15"},
    Check{"random_and_listed_destinations", kCollective, {"collective.random_destinations=3", "collective.destinations=[1,2]"}, "collective.random_destinations", "not both"},
    Check{"peer_range", kCollective, {"collective.peer=16"}, "collective.peer", "-1 or a node id below 16"},
    Check{"destination_only_the_root", kCollective, {"collective.roots=one", "collective.root=0", "collective.destinations=[0]"}, "collective.destinations", "also a root"},
    Check{"ping_pong_peer_is_root", kCollective, {"collective.roots=one", "collective.root=0", "collective.algorithms=[ping_pong]", "collective.peer=0"}, "collective.peer", "ping-pong with itself"},
    Check{"edn_needs_square_power_of_two", kCollective, {"network.dims=[4,8]", "collective.algorithms=[edn_broadcast]"}, "collective.algorithms[0]", "2^k x 2^k"},
    Check{"edn_needs_all_port", kCollective, {"network.router.port_model=one_port", "collective.algorithms=[edn_broadcast]"}, "collective.algorithms[0]", "all_port"},
    Check{"edn_needs_xy", kCollective, {"network.routing.order=[1,0]", "collective.algorithms=[edn_broadcast]"}, "collective.algorithms[0]", "XY routing"},
    Check{"edn_is_a_broadcast", kCollective, {"collective.destinations=[1,2]", "collective.algorithms=[edn_broadcast]"}, "collective.destinations", "edn_broadcast is a broadcast"},
    Check{"dimensional_needs_mesh", kCollective, {"network.topology=hypercube", "network.hypercube_dimension=4", "collective.algorithms=[dimensional_broadcast]"}, "collective.algorithms[0]", "mesh or torus"},
    Check{"dimensional_is_a_broadcast", kCollective, {"collective.destinations=[1,2]", "collective.algorithms=[dimensional_broadcast]"}, "collective.destinations", "dimensional_broadcast is a broadcast"},
    Check{"path_multicast_needs_path", kCollective, {"collective.algorithms=[path_multicast]"}, "collective.algorithms[0]", "multidest: path"},
    Check{"tree_multicast_needs_tree", kCollective, {"collective.algorithms=[tree_multicast]"}, "collective.algorithms[0]", "multidest: tree"},
    Check{"m_array_needs_path", kCollective, {"collective.algorithms=[m_array]"}, "collective.algorithms[0]", "m_array sends path worms"},
    Check{"scatter_hmt_needs_path", kCollective, {"collective.algorithms=[scatter_hmt]"}, "collective.algorithms[0]", "scatter_hmt sends path worms"},
    Check{"scatter_hmt_not_hamiltonian", kCollective, {"network.router.multidest=path", "network.routing.algorithm=hamiltonian", "collective.algorithms=[scatter_hmt]"}, "collective.algorithms[0]", "lines of the dimension-ordered"},
    Check{"scatter_window", kCollective, {"collective.algorithms=[scatter_bt]", "collective.message_bytes=[16384]"}, "collective.message_bytes[0]", "65536-byte message window"},
    Check{"packet_longer_than_flit_index", kCollective, {"network.flit_bytes=1", "collective.message_bytes=[65536]"}, "collective.message_bytes[0]", "65535"}),
    [](const ::testing::TestParamInfo<Check>& p) { return std::string(p.param.name); });

}  // namespace
}  // namespace wormsim
