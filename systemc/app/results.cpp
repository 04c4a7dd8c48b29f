#include "results.h"

#include <fmt/format.h>

#include "config_loader.h"

namespace wormsim {

namespace {

nlohmann::json distribution_json(const Distribution& d) {
  return {{"count", d.count},
          {"mean", d.mean},
          {"min", d.min},
          {"max", d.max},
          {"p50", d.p50},
          {"p95", d.p95},
          {"p99", d.p99},
          {"bin_width", d.bin_width},
          {"histogram", d.histogram}};
}

struct LinkSummary {
  double mean = 0;
  double max = 0;
};

LinkSummary link_summary(const Network& net) {
  LinkSummary s;
  const double window = std::max(1.0, static_cast<double>(net.stats().covered_cycles()));
  int count = 0;
  for (const Link& l : net.links()) {
    if (l.upstream.component >= net.topology().nodes() ||
        l.downstream.component >= net.topology().nodes())
      continue;  // NI channels
    const double u = static_cast<double>(l.flits_carried) / window;
    s.mean += u;
    s.max = std::max(s.max, u);
    ++count;
  }
  if (count > 0) s.mean /= count;
  return s;
}

bool has_software_multicast(const SyntheticNetwork& net) {
  const Config& c = net.config();
  return c.network.router.multidest == MultidestMode::kNone &&
         (c.traffic.multicast_fraction > 0 || net.software_multicast().operations_created() > 0);
}

double ratio(double num, double den) { return den > 0 ? num / den : 0.0; }

nlohmann::json class_json(const Statistics& st, TrafficClass c) {
  const ClassStats& k = st.by_class(c);
  nlohmann::json j = distribution_json(Distribution::of(k.latency));
  j["network_latency"] = distribution_json(Distribution::of(k.network_latency));
  j["packets"] = k.created;
  j["measured_packets"] = k.measured_created;
  j["completed_packets"] = k.completed;
  j["offered_flits_per_node_cycle"] = st.offered_load(c);
  j["accepted_flits"] = k.accepted_flits;
  j["accepted_flits_per_node_cycle"] = st.accepted_throughput(c);
  j["blocked_flit_cycles"] = k.blocked_flit_cycles;
  j["blocked_flit_cycles_per_packet"] =
      ratio(static_cast<double>(k.blocked_flit_cycles), static_cast<double>(k.measured_created));
  return j;
}

struct OccupancySummary {
  double mean = 0;
  double max = 0;
};

OccupancySummary consumption_occupancy(const Statistics& st) {
  OccupancySummary o;
  const std::vector<Cycle> busy = st.consumption_busy();
  const double window = static_cast<double>(st.covered_cycles());
  if (busy.empty() || window <= 0) return o;
  for (Cycle b : busy) {
    const double u = static_cast<double>(b) / window;
    o.mean += u;
    o.max = std::max(o.max, u);
  }
  o.mean /= static_cast<double>(busy.size());
  return o;
}

}  // namespace

nlohmann::json results_json(const SyntheticNetwork& net, const RunInfo& info) {
  nlohmann::json j = results_json(static_cast<const Network&>(net), info);
  if (!has_software_multicast(net)) return j;
  const SoftwareMulticast& sm = net.software_multicast();
  j["software_multicast"] = {{"operations", sm.latencies().size()},
                             {"latency", distribution_json(Distribution::of(sm.latencies()))},
                             {"packets_per_operation", sm.packets_per_operation()},
                             {"outstanding", sm.operations_outstanding()}};
  return j;
}

std::string summary_text(const SyntheticNetwork& net, const RunInfo& info) {
  std::string s = summary_text(static_cast<const Network&>(net), info);
  if (!has_software_multicast(net)) return s;
  const SoftwareMulticast& sm = net.software_multicast();
  const Distribution d = Distribution::of(sm.latencies());
  s += fmt::format(
      "software multicast ({}, until the last destination; {} measured operations, {:.2f} "
      "packets each): avg {:.2f}, p50 {}, p99 {}, max {} cycles\n",
      to_string(sm.scheme()), d.count, sm.packets_per_operation(), d.mean, d.p50, d.p99, d.max);
  return s;
}

nlohmann::json results_json(const Network& net, const RunInfo& info) {
  const Statistics& st = net.stats();
  const Topology& topo = net.topology();
  nlohmann::json j;
  j["schema"] = "wormsim.results.v1";
  j["version"] = info.version;
  j["git_commit"] = info.git_commit;
  j["command_line"] = info.command_line;
  j["config_source"] = info.config_source;
  j["config"] = to_json(net.config());
  j["outcome"] = to_string(net.outcome());
  j["cycles"] = net.cycles();
  j["evaluated_cycles"] = net.evaluated_cycles();
  j["wall_seconds"] = info.wall_seconds;
  // How the run was evaluated, not what it computed: with wall_seconds, command_line and
  // config.simulation.threads, the only fields that differ between thread counts or engines.
  j["engine"] = to_string(net.engine());
  j["threads"] = net.threads();
  j["parallel_cycles"] = net.parallel_cycles();
  j["clock_period_ns"] = net.config().network.clock_period_ns;
  j["flits"] = {{"injected", st.flits_injected()},
                {"ejected", st.flits_ejected()},
                {"replicated", st.flits_replicated()},
                {"stripped", st.flits_stripped()},
                {"in_flight", st.flits_in_flight()}};
  j["packets"] = {{"created", st.packets_created()},
                  {"delivered", st.packets_delivered()},
                  {"outstanding", net.scoreboard().live_packets()},
                  {"measured", st.latencies().size()}};
  j["measurement"] = {{"window_begin", st.window_begin()},
                      {"window_end", st.window_end()},
                      {"covered_cycles", st.covered_cycles()}};
  j["throughput"] = {{"offered_flits_per_node_cycle", st.offered_load()},
                     {"accepted_flits_per_node_cycle", st.accepted_throughput()}};
  const Distribution lat = Distribution::of(st.latencies());
  const Distribution nlat = Distribution::of(st.network_latencies());
  const double us_per_cycle = net.config().network.clock_period_ns / 1000.0;
  j["latency"] = distribution_json(lat);
  j["network_latency"] = distribution_json(nlat);
  j["latency_us"] = {{"mean", lat.mean * us_per_cycle},
                     {"max", static_cast<double>(lat.max) * us_per_cycle},
                     {"network_mean", nlat.mean * us_per_cycle}};
  j["hops"] = distribution_json(Distribution::of(st.hops()));
  const LinkSummary ls = link_summary(net);
  nlohmann::json links = nlohmann::json::array();
  const double window = std::max(1.0, static_cast<double>(st.covered_cycles()));
  for (const Link& l : net.links()) {
    if (l.upstream.component >= topo.nodes() || l.downstream.component >= topo.nodes()) continue;
    links.push_back({{"from", l.upstream.component},
                     {"port", topo.port_name(l.upstream.port)},
                     {"to", l.downstream.component},
                     {"flits", l.flits_carried},
                     {"utilization", static_cast<double>(l.flits_carried) / window}});
  }
  j["link_utilization"] = {{"mean", ls.mean}, {"max", ls.max}, {"links", links}};
  j["classes"] = {{"unicast", class_json(st, TrafficClass::kUnicast)},
                  {"multicast", class_json(st, TrafficClass::kMultidest)}};
  j["header_overhead"] = {{"header_flits", st.header_flits_injected()},
                          {"flits_injected", st.flits_injected()},
                          {"fraction", ratio(static_cast<double>(st.header_flits_injected()),
                                             static_cast<double>(st.flits_injected()))}};
  const OccupancySummary occ = consumption_occupancy(st);
  j["consumption_occupancy"] = {{"channels_per_node", st.consumption_channels_per_node()},
                                {"mean", occ.mean},
                                {"max", occ.max}};
  const ClassStats& uni = st.by_class(TrafficClass::kUnicast);
  const ClassStats& multi = st.by_class(TrafficClass::kMultidest);
  const std::uint64_t blocked = uni.blocked_flit_cycles + multi.blocked_flit_cycles;
  j["blocking"] = {{"blocked_flit_cycles", blocked},
                   {"per_measured_packet",
                    ratio(static_cast<double>(blocked),
                          static_cast<double>(uni.measured_created + multi.measured_created))}};
  j["scoreboard"] = {{"violations", net.scoreboard().violation_count()},
                     {"messages", net.scoreboard().violations()}};
  if (net.deadlock()) {
    const DeadlockReport& d = *net.deadlock();
    nlohmann::json waiting = nlohmann::json::array();
    for (const WaitingVc& w : d.waiting)
      waiting.push_back(
          {{"router", w.router},
           {"port", d.input_names.at(static_cast<std::size_t>(w.port))},
           {"holds_output",
            w.out_port < 0
                ? nlohmann::json(nullptr)
                : nlohmann::json{{"port", d.output_names.at(static_cast<std::size_t>(w.out_port))},
                                 {"vc", w.out_vc},
                                 {"credit", !w.no_credit}}},
           {"vc", w.vc},
           {"packet", w.packet},
           {"dst", w.dst},
           {"flits", w.flits},
           {"state", w.state},
           {"waits_for", w.waits_for}});
    j["deadlock"] = {{"kind", to_string(d.kind)},
                     {"detected_at", d.detected_at},
                     {"last_progress", d.last_progress},
                     {"partial", d.partial},
                     {"flits_in_flight", d.flits_in_flight},
                     {"waiting", waiting},
                     {"cycle", d.cycle}};
  } else {
    j["deadlock"] = nullptr;
  }
  return j;
}

std::string summary_text(const Network& net, const RunInfo& info) {
  const Config& c = net.config();
  const Statistics& st = net.stats();
  const Distribution lat = Distribution::of(st.latencies());
  const Distribution nlat = Distribution::of(st.network_latencies());
  const Distribution hops = Distribution::of(st.hops());
  const LinkSummary ls = link_summary(net);
  std::string dims;
  if (c.network.topology.kind == TopologyKind::kHypercube) {
    dims = fmt::format("{}-cube", c.network.topology.hypercube_dimension);
  } else {
    for (std::size_t i = 0; i < c.network.topology.dims.size(); ++i)
      dims += fmt::format("{}{}", i ? "x" : "", c.network.topology.dims[i]);
  }
  std::string s;
  s += fmt::format(
      "wormsim: {} {} ({} nodes), {} routing, {} VCs x {} flits, pipeline {}{}, "
      "link {} / credit {} cycles, {}\n",
      dims, to_string(c.network.topology.kind), net.topology().nodes(),
      to_string(c.network.routing.algorithm), c.network.router.vcs, c.network.router.buffer_depth,
      c.network.router.pipeline_depth,
      c.network.router.pipeline == PipelineModel::kDelay
          ? std::string()
          : " (" + to_string(c.network.router.pipeline) + ")",
      c.network.router.link_latency, c.network.router.credit_latency,
      to_string(c.network.router.port_model));
  s += fmt::format("traffic: {}, {} flits/packet, offered {:.4f} flits/node/cycle (config {})\n",
                   to_string(c.traffic.pattern), c.traffic.packet_length, st.offered_load(),
                   c.traffic.injection_rate);
  s += fmt::format("outcome: {} after {} cycles ({} evaluated), {:.3f} s wall\n",
                   to_string(net.outcome()), net.cycles(), net.evaluated_cycles(),
                   info.wall_seconds);
  s += fmt::format("flits: {} injected, {} ejected, {} in flight\n", st.flits_injected(),
                   st.flits_ejected(), st.flits_in_flight());
  s += fmt::format("accepted throughput: {:.4f} flits/node/cycle\n", st.accepted_throughput());
  s += fmt::format("packet latency (cycles, {} measured): avg {:.2f}, p50 {}, p99 {}, max {}\n",
                   lat.count, lat.mean, lat.p50, lat.p99, lat.max);
  s += fmt::format("network latency (cycles): avg {:.2f}, max {}\n", nlat.mean, nlat.max);
  const double us_per_cycle = c.network.clock_period_ns / 1000.0;
  s += fmt::format("packet latency (time, clock {:g} ns{}): avg {:.4g} us, max {:.4g} us\n",
                   c.network.clock_period_ns,
                   c.machine.preset == "none" ? "" : ", machine " + c.machine.preset,
                   lat.mean * us_per_cycle, static_cast<double>(lat.max) * us_per_cycle);
  const ClassStats& multi = st.by_class(TrafficClass::kMultidest);
  if (multi.created > 0) {
    for (TrafficClass tc : {TrafficClass::kUnicast, TrafficClass::kMultidest}) {
      const ClassStats& k = st.by_class(tc);
      const Distribution kl = Distribution::of(k.latency);
      const Distribution kn = Distribution::of(k.network_latency);
      s += fmt::format(
          "  {}: {} measured, latency avg {:.2f} (network {:.2f}), p99 {}, accepted {:.4f} "
          "flits/node/cycle, blocked {:.2f} flit-cycles/packet\n",
          tc == TrafficClass::kUnicast ? "unicast" : "multicast", kl.count, kl.mean, kn.mean,
          kl.p99, st.accepted_throughput(tc),
          ratio(static_cast<double>(k.blocked_flit_cycles),
                static_cast<double>(k.measured_created)));
    }
  }
  s += fmt::format("hops: avg {:.3f}, max {}\n", hops.mean, hops.max);
  s += fmt::format("link utilization: mean {:.4f}, max {:.4f} flits/cycle\n", ls.mean, ls.max);
  const OccupancySummary occ = consumption_occupancy(st);
  const std::uint64_t blocked =
      st.by_class(TrafficClass::kUnicast).blocked_flit_cycles + multi.blocked_flit_cycles;
  const std::uint64_t measured =
      st.by_class(TrafficClass::kUnicast).measured_created + multi.measured_created;
  s += fmt::format(
      "consumption channels busy: mean {:.4f}, max {:.4f}; header flits {:.4f} of injected; "
      "blocked {:.2f} flit-cycles/packet\n",
      occ.mean, occ.max,
      ratio(static_cast<double>(st.header_flits_injected()),
            static_cast<double>(st.flits_injected())),
      ratio(static_cast<double>(blocked), static_cast<double>(measured)));
  if (net.scoreboard().violation_count() > 0) {
    s += fmt::format("SCOREBOARD: {} violations\n", net.scoreboard().violation_count());
    for (const std::string& m : net.scoreboard().violations()) s += "  " + m + "\n";
  }
  if (net.deadlock()) s += net.deadlock()->text();
  return s;
}

}  // namespace wormsim
