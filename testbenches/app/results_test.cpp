// Tests of results.json and the summary text against the network they describe. Expected
// values are recomputed from the delivered-packet log, the link list and the topology
// geometry (coordinates by division), not taken from the writer. Each TEST elaborates one
// Network (gtest_discover_tests runs every TEST in its own process). The per-class and run
// metrics are checked on a scripted run whose values are worked out by hand.
#include "results.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>

#include "network_test_util.h"

namespace wormsim::testing::results_test {
namespace {

using nlohmann::json;

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

bool contains(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

// Router-to-router links of a 2D mesh or torus: X*Y nodes, node = x + X*y. A mesh has
// (X-1)*Y links in x and X*(Y-1) in y per direction; a torus (sides >= 3) has 4 per node.
std::size_t expected_link_count(bool torus, int x, int y) {
  if (torus) return static_cast<std::size_t>(4 * x * y);
  return static_cast<std::size_t>(2 * ((x - 1) * y + x * (y - 1)));
}

// The router a 2D mesh/torus link named `port` leads to from `from`, or -1 if none.
long expected_neighbor(bool torus, int sx, int sy, long from, const std::string& port) {
  const long x = from % sx;
  const long y = from / sx;
  long nx = x;
  long ny = y;
  if (port == "x+")
    nx = x + 1;
  else if (port == "x-")
    nx = x - 1;
  else if (port == "y+")
    ny = y + 1;
  else if (port == "y-")
    ny = y - 1;
  else
    return -1;
  if (torus) {
    nx = (nx + sx) % sx;
    ny = (ny + sy) % sy;
  } else if (nx < 0 || nx >= sx || ny < 0 || ny >= sy) {
    return -1;
  }
  return nx + sx * ny;
}

void expect_distribution_sane(const json& d, const std::string& name) {
  SCOPED_TRACE(name);
  for (const char* key :
       {"count", "mean", "min", "max", "p50", "p95", "p99", "bin_width", "histogram"})
    EXPECT_TRUE(d.contains(key)) << key;
  std::uint64_t sum = 0;
  for (const auto& b : d["histogram"]) sum += b.get<std::uint64_t>();
  EXPECT_EQ(sum, d["count"].get<std::uint64_t>());
  EXPECT_LE(d["min"].get<std::uint64_t>(), d["p50"].get<std::uint64_t>());
  EXPECT_LE(d["p50"].get<std::uint64_t>(), d["p95"].get<std::uint64_t>());
  EXPECT_LE(d["p95"].get<std::uint64_t>(), d["p99"].get<std::uint64_t>());
  EXPECT_LE(d["p99"].get<std::uint64_t>(), d["max"].get<std::uint64_t>());
}

// Links: one entry per router-to-router link, geometry right, numbers equal to the network's
// link counters, utilization = flits / covered window; mean and max over the entries.
void expect_links_consistent(const json& j, const Network& net, bool torus, int sx, int sy) {
  const json& lu = j["link_utilization"];
  const json& links = lu["links"];
  ASSERT_TRUE(links.is_array());
  EXPECT_EQ(links.size(), expected_link_count(torus, sx, sy));
  const double covered = j["measurement"]["covered_cycles"].get<double>();
  ASSERT_GT(covered, 0);
  // The network's router-to-router link counters, by (from, to).
  const int nodes = sx * sy;
  std::map<std::pair<long, long>, std::uint64_t> carried;
  for (const Link& l : net.links())
    if (l.upstream.component < nodes && l.downstream.component < nodes)
      carried[{l.upstream.component, l.downstream.component}] = l.flits_carried;
  std::set<std::pair<long, std::string>> seen;
  double sum = 0;
  double max_u = 0;
  std::uint64_t total_flits = 0;
  for (const json& l : links) {
    const long from = l["from"].get<long>();
    const std::string port = l["port"].get<std::string>();
    const long to = l["to"].get<long>();
    EXPECT_TRUE(seen.insert({from, port}).second) << "duplicate link " << from << " " << port;
    EXPECT_EQ(to, expected_neighbor(torus, sx, sy, from, port)) << from << " " << port;
    const auto it = carried.find({from, to});
    ASSERT_NE(it, carried.end()) << from << "->" << to;
    const std::uint64_t flits = l["flits"].get<std::uint64_t>();
    EXPECT_EQ(flits, it->second);
    const double u = l["utilization"].get<double>();
    EXPECT_DOUBLE_EQ(u, static_cast<double>(flits) / covered);
    EXPECT_LE(u, 1.0);  // one flit per link per cycle at most
    sum += u;
    max_u = std::max(max_u, u);
    total_flits += flits;
  }
  EXPECT_GT(total_flits, 0u);
  EXPECT_NEAR(lu["mean"].get<double>(), sum / static_cast<double>(links.size()), 1e-12);
  EXPECT_DOUBLE_EQ(lu["max"].get<double>(), max_u);
}

// ---- A completed run ---------------------------------------------------------------------
TEST(Results, CompletedMeshRunIsConsistentWithTheNetwork) {
  Config c = mesh_config({4, 3});
  c.network.router.vcs = 2;
  c.network.clock_period_ns = 2.5;
  c.traffic.packet_length = 4;
  c.traffic.injection_rate = 0.2;
  c.traffic.seed = 11;
  c.simulation.warmup_cycles = 200;
  c.simulation.measure_cycles = 1000;
  NetworkOptions opt;
  opt.record_packets = true;
  auto net = run(c, opt);
  ASSERT_EQ(net->outcome(), RunOutcome::kCompleted);
  const RunInfo info{1.5,
                     "configs/example.yaml",
                     "1.2.3",
                     "0123abc-dirty",
                     {"wormsim", "run", "configs/example.yaml", "--set", "network.dims=[4, 3]"}};
  const json j = results_json(*net, info);

  EXPECT_EQ(j["schema"], "wormsim.results.v1");
  EXPECT_EQ(j["config_source"], "configs/example.yaml");
  // What ran: the build and the command line, argv as given (one JSON string per word).
  EXPECT_EQ(j["version"], "1.2.3");
  EXPECT_EQ(j["git_commit"], "0123abc-dirty");
  EXPECT_EQ(j["command_line"], json(info.command_line));
  ASSERT_TRUE(j["command_line"].is_array());
  EXPECT_EQ(j["command_line"].size(), 5u);
  EXPECT_EQ(j["command_line"][4], "network.dims=[4, 3]");
  EXPECT_EQ(j["outcome"], "completed");
  EXPECT_FALSE(j.contains("software_multicast"));  // no multicasts in this run
  EXPECT_DOUBLE_EQ(j["wall_seconds"].get<double>(), 1.5);
  EXPECT_DOUBLE_EQ(j["clock_period_ns"].get<double>(), 2.5);
  EXPECT_EQ(j["cycles"].get<Cycle>(), net->cycles());
  EXPECT_GT(j["cycles"].get<Cycle>(), 1200u);  // ran through the window and drained
  EXPECT_LE(j["evaluated_cycles"].get<Cycle>(), j["cycles"].get<Cycle>());

  // The config round-trips.
  const json& cfg = j["config"];
  EXPECT_EQ(cfg["network"]["topology"], "mesh");
  EXPECT_EQ(cfg["network"]["dims"], json::array({4, 3}));
  EXPECT_EQ(cfg["network"]["router"]["vcs"], 2);
  EXPECT_DOUBLE_EQ(cfg["network"]["clock_period_ns"].get<double>(), 2.5);
  EXPECT_EQ(cfg["traffic"]["packet_length"], 4);
  EXPECT_DOUBLE_EQ(cfg["traffic"]["injection_rate"].get<double>(), 0.2);
  EXPECT_EQ(cfg["traffic"]["seed"], 11);
  EXPECT_EQ(cfg["simulation"]["warmup_cycles"], 200);
  EXPECT_EQ(cfg["simulation"]["measure_cycles"], 1000);

  // Every packet was delivered, so the log has all of them.
  const auto& log = net->stats().packet_log();
  const std::uint64_t packets = log.size();
  ASSERT_GT(packets, 100u);
  EXPECT_EQ(j["packets"]["created"].get<std::uint64_t>(), packets);
  EXPECT_EQ(j["packets"]["delivered"].get<std::uint64_t>(), packets);
  EXPECT_EQ(j["packets"]["outstanding"].get<std::uint64_t>(), 0u);
  // Flits: conservation, and 4 per packet.
  EXPECT_EQ(j["flits"]["injected"].get<std::uint64_t>(), 4 * packets);
  EXPECT_EQ(j["flits"]["ejected"].get<std::uint64_t>(), 4 * packets);
  EXPECT_EQ(j["flits"]["in_flight"].get<std::uint64_t>(), 0u);

  // Measured packets: created in [200, 1200).
  std::uint64_t measured = 0;
  std::uint64_t latency_sum = 0;
  std::uint64_t network_latency_sum = 0;
  std::uint64_t latency_max = 0;
  std::uint64_t latency_min = ~std::uint64_t{0};
  std::uint64_t hops_max = 0;
  std::uint64_t offered_flits = 0;
  const Topology topo(c.network.topology);
  for (const DeliveredPacket& d : log) {
    if (d.record.created < 200 || d.record.created >= 1200) continue;
    ++measured;
    const Cycle latency = d.delivered - d.record.created;
    latency_sum += latency;
    network_latency_sum += d.delivered - d.record.injected;
    latency_max = std::max<std::uint64_t>(latency_max, latency);
    latency_min = std::min<std::uint64_t>(latency_min, latency);
    hops_max = std::max<std::uint64_t>(hops_max, static_cast<std::uint64_t>(d.hops));
    offered_flits += d.record.length;
  }
  ASSERT_GT(measured, 0u);
  EXPECT_EQ(j["packets"]["measured"].get<std::uint64_t>(), measured);
  for (const char* key : {"latency", "network_latency", "hops"}) {
    expect_distribution_sane(j[key], key);
    EXPECT_EQ(j[key]["count"].get<std::uint64_t>(), measured) << key;
  }
  EXPECT_DOUBLE_EQ(j["latency"]["mean"].get<double>(),
                   static_cast<double>(latency_sum) / static_cast<double>(measured));
  EXPECT_DOUBLE_EQ(j["network_latency"]["mean"].get<double>(),
                   static_cast<double>(network_latency_sum) / static_cast<double>(measured));
  EXPECT_EQ(j["latency"]["max"].get<std::uint64_t>(), latency_max);
  EXPECT_EQ(j["latency"]["min"].get<std::uint64_t>(), latency_min);
  EXPECT_EQ(j["hops"]["max"].get<std::uint64_t>(), hops_max);
  EXPECT_LE(hops_max, 5u);  // diameter of a 4x3 mesh: 3 + 2

  // Window and throughput: all of the window was covered.
  EXPECT_EQ(j["measurement"]["window_begin"].get<Cycle>(), 200u);
  EXPECT_EQ(j["measurement"]["window_end"].get<Cycle>(), 1200u);
  EXPECT_EQ(j["measurement"]["covered_cycles"].get<Cycle>(), 1000u);
  const double offered = j["throughput"]["offered_flits_per_node_cycle"].get<double>();
  EXPECT_DOUBLE_EQ(offered, static_cast<double>(offered_flits) / (12.0 * 1000.0));
  EXPECT_NEAR(offered, 0.2, 0.04);
  // Below saturation everything offered is accepted (up to the packets in flight at the
  // window edges).
  EXPECT_NEAR(j["throughput"]["accepted_flits_per_node_cycle"].get<double>(), offered, 0.02);

  expect_links_consistent(j, *net, false, 4, 3);
  EXPECT_EQ(j["scoreboard"]["violations"].get<std::uint64_t>(), 0u);
  EXPECT_TRUE(j["scoreboard"]["messages"].empty());
  EXPECT_TRUE(j["deadlock"].is_null());
  // It survives serialization.
  EXPECT_EQ(json::parse(j.dump()), j);

  // The summary names the outcome, throughput and latency with the same numbers.
  const std::string s = summary_text(*net, RunInfo{1.5, "configs/example.yaml", {}, {}, {}});
  EXPECT_TRUE(contains(s, "4x3 mesh (12 nodes)")) << s;
  EXPECT_TRUE(contains(s, "outcome: completed after " + std::to_string(net->cycles()) + " cycles"))
      << s;
  EXPECT_TRUE(contains(s, "accepted throughput: " + fixed(net->stats().accepted_throughput(), 4)))
      << s;
  EXPECT_TRUE(contains(s, "offered " + fixed(offered, 4))) << s;
  EXPECT_TRUE(
      contains(s, "packet latency (cycles, " + std::to_string(measured) + " measured): avg " +
                      fixed(static_cast<double>(latency_sum) / static_cast<double>(measured), 2)))
      << s;
  EXPECT_TRUE(contains(s, "max " + std::to_string(latency_max))) << s;
  EXPECT_TRUE(contains(s, "flits: " + std::to_string(4 * packets) + " injected")) << s;
  EXPECT_FALSE(contains(s, "SCOREBOARD")) << s;
  EXPECT_FALSE(contains(s, "deadlock")) << s;
}

// ---- Link list on a torus (wrap-around links) -------------------------------------------------
// A software multicast (multidest none) is one operation in "software_multicast", timed until
// its last destination, and not a unicast latency sample. The row broadcast of
// software_multicast_test (8x8 mesh, one-port, L = 5, (0,0) to (1..7,0), created at 10)
// completes T0(4) + T0(2) + T0(1) = 10 + 8 + 7 = 25 cycles later (docs/multidestination.md).
TEST(Results, SoftwareMulticastIsReportedAsOperations) {
  Config c = mesh_config({8, 8});
  c.network.router.vcs = 2;
  c.network.router.buffer_depth = 4;
  c.simulation.warmup_cycles = 0;
  c.simulation.measure_cycles = 100;
  RunOptions opt;
  opt.synthetic_traffic = false;
  auto net = run(c, opt, [](SyntheticNetwork& n) {
    n.schedule_multicast(0, {1, 2, 3, 4, 5, 6, 7}, 5, 10);
  });
  ASSERT_EQ(net->outcome(), RunOutcome::kCompleted);
  const json j = results_json(*net, RunInfo{});
  ASSERT_TRUE(j.contains("software_multicast")) << j.dump(2);
  const json& sm = j["software_multicast"];
  EXPECT_EQ(sm["operations"], 1);
  EXPECT_EQ(sm["latency"]["count"], 1);
  EXPECT_EQ(sm["latency"]["min"], 25);
  EXPECT_EQ(sm["latency"]["max"], 25);
  EXPECT_DOUBLE_EQ(sm["latency"]["mean"].get<double>(), 25.0);
  EXPECT_DOUBLE_EQ(sm["packets_per_operation"].get<double>(), 7.0);
  EXPECT_EQ(sm["outstanding"], 0);
  EXPECT_EQ(j["latency"]["count"], 0);  // no unicast-class packet
  EXPECT_EQ(j["packets"]["created"], 7);
  EXPECT_EQ(j["packets"]["delivered"], 7);
  const std::string text = summary_text(*net, RunInfo{});
  EXPECT_TRUE(contains(text,
                       "software multicast (binomial_tree, until the last destination; 1 "
                       "measured operations, 7.00 packets each): avg 25.00, p50 25, p99 25, "
                       "max 25 cycles\n"))
      << text;
}

TEST(Results, TorusLinkListHasEveryLinkIncludingWrapArounds) {
  Config c = torus_config({3, 4});
  c.network.router.vcs = 2;
  c.traffic.injection_rate = 0.3;
  c.traffic.packet_length = 3;
  c.simulation.warmup_cycles = 100;
  c.simulation.measure_cycles = 800;
  auto net = run(c);
  ASSERT_EQ(net->outcome(), RunOutcome::kCompleted);
  const json j = results_json(*net, RunInfo{});
  EXPECT_EQ(j["measurement"]["covered_cycles"].get<Cycle>(), 800u);
  expect_links_consistent(j, *net, true, 3, 4);
  // Wrap-around links carry traffic too: (2,y) x+ -> (0,y), (x,3) y+ -> (x,0).
  std::uint64_t wrap_flits = 0;
  for (const json& l : j["link_utilization"]["links"]) {
    const long from = l["from"].get<long>();
    const std::string port = l["port"].get<std::string>();
    if ((port == "x+" && from % 3 == 2) || (port == "y+" && from / 3 == 3))
      wrap_flits += l["flits"].get<std::uint64_t>();
  }
  EXPECT_GT(wrap_flits, 0u);
  EXPECT_EQ(j["flits"]["injected"], j["flits"]["ejected"]);
  EXPECT_EQ(j["flits"]["in_flight"], 0);
  EXPECT_TRUE(j["deadlock"].is_null());
}

// ---- A deadlocked run -----------------------------------------------------------------------
// The configuration of network_test's Watchdog test: an 8x8 torus with one VC and no dateline.
TEST(Results, DeadlockIsReportedWithAWaitForCycle) {
  const Config c = deadlock_prone_torus();
  auto net = run(c);
  ASSERT_EQ(net->outcome(), RunOutcome::kDeadlock);
  const json j = results_json(*net, RunInfo{0.25, "configs/deadlock_torus.yaml", {}, {}, {}});
  EXPECT_EQ(j["outcome"], "deadlock");
  const json& d = j["deadlock"];
  ASSERT_TRUE(d.is_object());
  const Cycle detected = d["detected_at"].get<Cycle>();
  EXPECT_EQ(detected - d["last_progress"].get<Cycle>(), 500u);
  EXPECT_FALSE(d["partial"].get<bool>());
  ASSERT_LT(detected, 20000u);      // stopped inside the measurement window
  EXPECT_EQ(d["kind"], "routing");  // unicast on one VC per channel around a torus ring
  EXPECT_EQ(j["cycles"].get<Cycle>(), detected + 1);

  // Flits and packets in the frozen state.
  const std::uint64_t injected = j["flits"]["injected"].get<std::uint64_t>();
  const std::uint64_t ejected = j["flits"]["ejected"].get<std::uint64_t>();
  EXPECT_EQ(j["flits"]["in_flight"].get<std::uint64_t>(), injected - ejected);
  EXPECT_GT(injected, ejected);
  EXPECT_EQ(d["flits_in_flight"].get<std::uint64_t>(), injected - ejected);
  EXPECT_EQ(d["flits_in_flight"].get<std::uint64_t>(), net->flits_in_network());
  const std::uint64_t created = j["packets"]["created"].get<std::uint64_t>();
  EXPECT_EQ(j["packets"]["outstanding"].get<std::uint64_t>(),
            created - j["packets"]["delivered"].get<std::uint64_t>());
  EXPECT_GT(j["packets"]["outstanding"].get<std::uint64_t>(), 0u);

  // Throughput over the covered part of the window [0, detected + 1): every packet was
  // created and every flit ejected inside it.
  const Cycle covered = j["measurement"]["covered_cycles"].get<Cycle>();
  EXPECT_EQ(covered, detected + 1);
  EXPECT_DOUBLE_EQ(j["throughput"]["offered_flits_per_node_cycle"].get<double>(),
                   static_cast<double>(created * 8) / (64.0 * static_cast<double>(covered)));
  EXPECT_DOUBLE_EQ(j["throughput"]["accepted_flits_per_node_cycle"].get<double>(),
                   static_cast<double>(ejected) / (64.0 * static_cast<double>(covered)));
  expect_links_consistent(j, *net, true, 8, 8);

  // Waiting VCs: one entry per input VC that holds flits, flits summing to the router buffers.
  const json& waiting = d["waiting"];
  ASSERT_TRUE(waiting.is_array());
  std::size_t nonempty = 0;
  std::uint64_t buffered = 0;
  for (const auto& r : net->routers()) {
    buffered += static_cast<std::uint64_t>(r->buffered());
    for (int p = 0; p < r->params().layout.inputs(); ++p)
      for (const InputVc& ivc : r->input(p).vcs) nonempty += ivc.buffer.empty() ? 0 : 1;
  }
  ASSERT_GT(nonempty, 0u);
  EXPECT_EQ(waiting.size(), nonempty);
  std::uint64_t flit_sum = 0;
  const std::set<std::string> inputs{"x+", "x-", "y+", "y-", "inj0"};
  const std::set<std::string> outputs{"x+", "x-", "y+", "y-", "ej0"};
  for (const json& w : waiting) {
    SCOPED_TRACE(w.dump());
    for (const char* key :
         {"router", "port", "vc", "packet", "dst", "flits", "state", "holds_output", "waits_for"})
      EXPECT_TRUE(w.contains(key)) << key;
    EXPECT_LT(w["router"].get<int>(), 64);
    EXPECT_EQ(inputs.count(w["port"].get<std::string>()), 1u);
    EXPECT_EQ(w["vc"], 0);
    EXPECT_LT(w["dst"].get<int>(), 64);
    EXPECT_GT(w["flits"].get<int>(), 0);
    EXPECT_LE(w["flits"].get<int>(), 2);  // buffer depth
    flit_sum += w["flits"].get<std::uint64_t>();
    const std::string state = w["state"].get<std::string>();
    EXPECT_TRUE(state == "active" || state == "waiting_for_vc") << state;
    if (state == "active") {
      ASSERT_TRUE(w["holds_output"].is_object());
      EXPECT_EQ(outputs.count(w["holds_output"]["port"].get<std::string>()), 1u);
      EXPECT_EQ(w["holds_output"]["vc"], 0);
      EXPECT_TRUE(w["holds_output"]["credit"].is_boolean());
    } else {
      EXPECT_TRUE(w["holds_output"].is_null());
    }
    for (const json& k : w["waits_for"]) EXPECT_LT(k.get<std::size_t>(), waiting.size());
  }
  EXPECT_EQ(flit_sum, buffered);

  // The cycle: valid, distinct indices, each waiting for the next and the last for the first.
  const json& cycle = d["cycle"];
  ASSERT_GE(cycle.size(), 2u);
  std::set<std::size_t> distinct;
  for (std::size_t i = 0; i < cycle.size(); ++i) {
    const std::size_t at = cycle[i].get<std::size_t>();
    const std::size_t next = cycle[(i + 1) % cycle.size()].get<std::size_t>();
    ASSERT_LT(at, waiting.size());
    distinct.insert(at);
    const json& edges = waiting[at]["waits_for"];
    EXPECT_NE(std::find(edges.begin(), edges.end(), json(next)), edges.end())
        << at << " does not wait for " << next;
    // A VC in the cycle is blocked: it either waits for an output VC or holds one without
    // credit.
    if (waiting[at]["state"] == "active") {
      EXPECT_EQ(waiting[at]["holds_output"]["credit"], false);
    }
  }
  EXPECT_EQ(distinct.size(), cycle.size());

  // The JSON carries the network's report.
  const DeadlockReport& report = *net->deadlock();
  ASSERT_EQ(report.waiting.size(), waiting.size());
  for (std::size_t i = 0; i < waiting.size(); ++i) {
    EXPECT_EQ(waiting[i]["router"].get<NodeId>(), report.waiting[i].router);
    EXPECT_EQ(waiting[i]["packet"].get<PacketId>(), report.waiting[i].packet);
    EXPECT_EQ(waiting[i]["waits_for"].get<std::vector<int>>(), report.waiting[i].waits_for);
  }
  EXPECT_EQ(cycle.get<std::vector<int>>(), report.cycle);

  // The summary reports the deadlock and the routers of the cycle.
  const std::string s =
      summary_text(*net, RunInfo{0.25, "configs/deadlock_torus.yaml", {}, {}, {}});
  EXPECT_TRUE(contains(s, "outcome: deadlock after " + std::to_string(detected + 1) + " cycles"))
      << s;
  EXPECT_TRUE(contains(s, "accepted throughput: ")) << s;
  EXPECT_TRUE(contains(s, "packet latency")) << s;
  EXPECT_TRUE(contains(s, "wait-for cycle (" + std::to_string(cycle.size()) + " VCs)")) << s;
  for (const json& i : cycle)
    EXPECT_TRUE(contains(
        s, "router " + std::to_string(waiting[i.get<std::size_t>()]["router"].get<int>()) + " in"))
        << s;
}

// A path worm to 11 destinations along row 0 and up column 7 of an idle 8x8 mesh (66 address
// bits: 2 header flits, 4 payload flits travel as 5) and a 5-flit unicast along row 7, on
// disjoint links: 3 header flits of 10, each of the 12 destination channels busy 5 cycles of
// the 1000-cycle window, nothing blocked, one sample per class.
TEST(Results, ClassesAndRunMetricsOfAScriptedRun) {
  Config c = mesh_config({8, 8});
  c.network.router.multidest = MultidestMode::kPath;
  c.simulation.warmup_cycles = 0;
  c.simulation.measure_cycles = 1000;
  RunOptions o;
  o.synthetic_traffic = false;
  auto net = run(c, o, [](SyntheticNetwork& nw) {
    nw.schedule_multicast(0, {1, 2, 3, 4, 5, 6, 7, 15, 23, 31, 39}, 4, 10);
    nw.schedule_packet(63, 56, 5, 10);
  });
  ASSERT_EQ(net->outcome(), RunOutcome::kCompleted);
  const json j = results_json(*net, RunInfo{});
  EXPECT_EQ(j["header_overhead"]["header_flits"], 3);
  EXPECT_EQ(j["header_overhead"]["flits_injected"], 10);
  EXPECT_DOUBLE_EQ(j["header_overhead"]["fraction"].get<double>(), 0.3);
  EXPECT_EQ(j["consumption_occupancy"]["channels_per_node"], 1);
  EXPECT_DOUBLE_EQ(j["consumption_occupancy"]["max"].get<double>(), 5.0 / 1000);
  EXPECT_DOUBLE_EQ(j["consumption_occupancy"]["mean"].get<double>(), 12 * 5.0 / (64 * 1000));
  EXPECT_EQ(j["blocking"]["blocked_flit_cycles"], 0);
  const json& uni = j["classes"]["unicast"];
  const json& multi = j["classes"]["multicast"];
  EXPECT_EQ(uni["count"], 1);
  EXPECT_EQ(multi["count"], 1);
  EXPECT_EQ(uni["packets"], 1);
  EXPECT_EQ(multi["packets"], 1);
  EXPECT_EQ(multi["completed_packets"], 1);
  EXPECT_EQ(multi["accepted_flits"], 11 * 5);
  EXPECT_EQ(uni["accepted_flits"], 5);
  EXPECT_DOUBLE_EQ(multi["accepted_flits_per_node_cycle"].get<double>(), 55.0 / (64 * 1000));
  EXPECT_EQ(multi["blocked_flit_cycles_per_packet"].get<double>(), 0.0);
  // The worm's latency is that of its last delivery, the largest run-wide sample.
  EXPECT_EQ(multi["max"], j["latency"]["max"]);
  EXPECT_EQ(j["latency"]["count"], 12);
  const std::string text = summary_text(*net, RunInfo{});
  EXPECT_NE(text.find("multicast: 1 measured"), std::string::npos) << text;
  EXPECT_NE(text.find("header flits 0.3000 of injected"), std::string::npos) << text;
}

}  // namespace
}  // namespace wormsim::testing::results_test
