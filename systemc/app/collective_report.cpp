#include "collective_report.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

namespace wormsim {

using Json = nlohmann::json;

std::optional<TauFit> tau_fit(const CollectiveHarness& h) {
  std::map<std::uint32_t, std::pair<double, int>> by_size;
  for (const OperationResult& r : h.results())
    if (r.op.algorithm == CollectiveAlgorithm::kPingPong) {
      auto& [sum, n] = by_size[r.op.bytes];
      sum += r.max_latency * h.cycle_us();
      ++n;
    }
  if (by_size.size() < 2) return std::nullopt;
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const auto& [bytes, p] : by_size) {
    const double x = bytes, y = p.first / p.second;
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  const double n = static_cast<double>(by_size.size());
  TauFit f;
  f.points = static_cast<int>(by_size.size());
  f.tn_us_per_byte = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  f.ts_us = (sy - f.tn_us_per_byte * sx) / n;
  f.tau = f.ts_us != 0 ? f.tn_us_per_byte / f.ts_us : 0;
  const Config& c = h.network().config();
  f.model_ts_us = static_cast<double>(c.node.alpha_cycles + c.node.gamma_cycles) * h.cycle_us();
  f.model_tn_us_per_byte = h.cycle_us() / c.network.flit_bytes;
  f.ts_error = f.model_ts_us != 0 ? f.ts_us / f.model_ts_us - 1 : 0;
  f.tn_error = f.tn_us_per_byte / f.model_tn_us_per_byte - 1;
  return f;
}

std::vector<CollectiveSummaryRow> summarise(const CollectiveHarness& h) {
  std::vector<CollectiveSummaryRow> rows;
  for (const OperationResult& r : h.results()) {
    auto it = std::find_if(rows.begin(), rows.end(), [&](const CollectiveSummaryRow& x) {
      return x.algorithm == r.op.algorithm && x.bytes == r.op.bytes;
    });
    if (it == rows.end()) {
      CollectiveSummaryRow row;
      row.algorithm = r.op.algorithm;
      row.bytes = r.op.bytes;
      row.min_steps = r.steps;
      row.max_steps = r.steps;
      rows.push_back(row);
      it = rows.end() - 1;
    }
    ++it->roots;
    it->max_latency_cycles += r.max_latency;
    it->avg_latency_cycles += r.avg_latency;
    it->worst_latency_cycles = std::max(it->worst_latency_cycles, r.max_latency);
    it->min_steps = std::min(it->min_steps, r.steps);
    it->max_steps = std::max(it->max_steps, r.steps);
    it->flit_hops += static_cast<double>(r.flit_hops);
    it->avg_path_length += r.avg_path_length;
    it->contention_stepwise += static_cast<double>(r.contention_stepwise);
    it->contention_depth += static_cast<double>(r.contention_depth);
    it->header_flits += static_cast<double>(r.header_flits);
    it->blocked_cycles += static_cast<double>(r.blocked_cycles);
    it->max_sends = std::max(it->max_sends, r.max_sends);
    it->max_receives = std::max(it->max_receives, r.max_receives);
  }
  for (CollectiveSummaryRow& row : rows) {
    const double n = row.roots;
    row.max_latency_cycles /= n;
    row.avg_latency_cycles /= n;
    row.flit_hops /= n;
    row.avg_path_length /= n;
    row.contention_stepwise /= n;
    row.contention_depth /= n;
    row.header_flits /= n;
    row.blocked_cycles /= n;
  }
  return rows;
}

Json collective_json(const CollectiveHarness& h) {
  const double us = h.cycle_us();
  Json j;
  j["cycle_us"] = us;
  j["operations_planned"] = h.operations().size();
  j["operations_run"] = h.results().size();
  j["verification_errors"] = h.verification_errors();
  if (h.background_enabled()) {
    const BackgroundResult b = h.background();
    const BackgroundConfig& c = h.config().collective.background;
    Json bg;
    bg["load"] = c.load;
    bg["packet_length"] = c.packet_length;
    bg["pattern"] = to_string(c.pattern);
    bg["warmup_cycles"] = c.warmup_cycles;
    bg["packets_created"] = b.packets_created;
    bg["packets_delivered"] = b.packets_delivered;
    bg["packets_measured"] = b.packets_measured;
    bg["mean_latency_cycles"] = b.mean_latency;
    bg["mean_network_latency_cycles"] = b.mean_network_latency;
    bg["mean_latency_us"] = b.mean_latency * us;
    j["background"] = std::move(bg);
  }
  Json ops = Json::array();
  for (const OperationResult& r : h.results()) {
    Json o;
    o["index"] = r.op.index;
    o["algorithm"] = to_string(r.op.algorithm);
    o["kind"] = to_string(kind_of(r.op.algorithm));
    o["root"] = r.op.root;
    o["bytes"] = r.op.bytes;
    o["destinations"] = r.op.destinations.size();
    o["start_cycle"] = r.start;
    o["end_cycle"] = r.end;
    o["max_latency_cycles"] = r.max_latency;
    o["avg_latency_cycles"] = r.avg_latency;
    o["max_latency_us"] = r.max_latency * us;
    o["avg_latency_us"] = r.avg_latency * us;
    o["steps"] = r.steps;
    o["messages"] = r.messages;
    o["flit_hops"] = r.flit_hops;
    o["avg_path_length"] = r.avg_path_length;
    o["contention_stepwise"] = r.contention_stepwise;
    o["contention_depth"] = r.contention_depth;
    o["header_flits"] = r.header_flits;
    o["blocked_cycles"] = r.blocked_cycles;
    o["max_sends"] = r.max_sends;
    o["max_receives"] = r.max_receives;
    o["errors"] = r.errors;
    ops.push_back(std::move(o));
  }
  j["operations"] = std::move(ops);
  Json rows = Json::array();
  for (const CollectiveSummaryRow& s : summarise(h)) {
    Json o;
    o["algorithm"] = to_string(s.algorithm);
    o["kind"] = to_string(kind_of(s.algorithm));
    o["bytes"] = s.bytes;
    o["roots"] = s.roots;
    o["max_latency_us"] = s.max_latency_cycles * us;
    o["avg_latency_us"] = s.avg_latency_cycles * us;
    o["worst_max_latency_us"] = s.worst_latency_cycles * us;
    o["max_latency_cycles"] = s.max_latency_cycles;
    o["avg_latency_cycles"] = s.avg_latency_cycles;
    o["min_steps"] = s.min_steps;
    o["max_steps"] = s.max_steps;
    o["flit_hops"] = s.flit_hops;
    o["avg_path_length"] = s.avg_path_length;
    o["contention_stepwise"] = s.contention_stepwise;
    o["contention_depth"] = s.contention_depth;
    o["header_flits"] = s.header_flits;
    o["blocked_cycles"] = s.blocked_cycles;
    o["max_sends"] = s.max_sends;
    o["max_receives"] = s.max_receives;
    rows.push_back(std::move(o));
  }
  j["summary"] = std::move(rows);
  if (const std::optional<TauFit> f = tau_fit(h)) {
    j["tau_fit"] = {{"points", f->points},
                    {"ts_us", f->ts_us},
                    {"tn_us_per_byte", f->tn_us_per_byte},
                    {"tau", f->tau},
                    {"model_ts_us", f->model_ts_us},
                    {"model_tn_us_per_byte", f->model_tn_us_per_byte},
                    {"ts_error", f->ts_error},
                    {"tn_error", f->tn_error}};
  }
  return j;
}

std::string collective_summary_text(const CollectiveHarness& h) {
  const double us = h.cycle_us();
  std::string s =
      fmt::format("collective: {} of {} operations, {} verification errors (cycle = {:.6g} us)\n",
                  h.results().size(), h.operations().size(), h.verification_errors(), us);
  s += fmt::format(
      "  {:<22} {:>6} {:>5} {:>12} {:>12} {:>7} {:>10} {:>6} {:>11} {:>8} {:>8} {:>6} {:>6}\n",
      "algorithm", "bytes", "roots", "max_lat_us", "avg_lat_us", "steps", "flit_hops", "hops",
      "contention", "hdr_flit", "blocked", "sends", "recvs");
  for (const CollectiveSummaryRow& r : summarise(h)) {
    const std::string steps = r.min_steps == r.max_steps
                                  ? std::to_string(r.min_steps)
                                  : fmt::format("{}-{}", r.min_steps, r.max_steps);
    s += fmt::format(
        "  {:<22} {:>6} {:>5} {:>12.3f} {:>12.3f} {:>7} {:>10.0f} {:>6.2f} "
        "{:>5.1f}/{:<5.1f} {:>8.1f} {:>8.0f} {:>6} {:>6}\n",
        to_string(r.algorithm), r.bytes, r.roots, r.max_latency_cycles * us,
        r.avg_latency_cycles * us, steps, r.flit_hops, r.avg_path_length, r.contention_stepwise,
        r.contention_depth, r.header_flits, r.blocked_cycles, r.max_sends, r.max_receives);
  }
  s += "  (latency: mean over roots of max / average over destinations; contention: "
       "stepwise/depth events per operation;\n   hdr_flit: destination-list header flits, "
       "blocked: flit-cycles lost to other messages (VC or switch), per operation;\n"
       "   sends/recvs: message set-ups, the most messages one node sent / received in an "
       "operation, largest over roots)\n";
  if (const std::optional<TauFit> f = tau_fit(h))
    s += fmt::format(
        "  tau fit over {} sizes: T_s = {:.4f} us (alpha+gamma {:.4f}, {:+.2f}%), "
        "T_n = {:.6f} us/byte (beta {:.6f}, {:+.2f}%), tau = {:.6f}\n",
        f->points, f->ts_us, f->model_ts_us, 100 * f->ts_error, f->tn_us_per_byte,
        f->model_tn_us_per_byte, 100 * f->tn_error, f->tau);
  if (h.background_enabled()) {
    const BackgroundResult b = h.background();
    const BackgroundConfig& c = h.config().collective.background;
    s += fmt::format(
        "  background: {} flits/node/cycle of {}-flit {} packets, {} created, {} delivered; "
        "after the {}-cycle warm-up {} packets, mean latency {:.1f} cycles ({:.3f} us), "
        "network latency {:.1f}\n",
        c.load, c.packet_length, to_string(c.pattern), b.packets_created, b.packets_delivered,
        c.warmup_cycles, b.packets_measured, b.mean_latency, b.mean_latency * us,
        b.mean_network_latency);
  }
  for (const OperationResult& r : h.results())
    for (const std::string& e : r.errors)
      s += fmt::format("  ERROR {}: {}\n", describe_operation(r.op), e);
  return s;
}

Json timeline_json(const CollectiveHarness& h) {
  const double us = h.cycle_us();
  Json events = Json::array();
  auto slice = [&](NodeId node, int tid, const std::string& name, Cycle b, Cycle e, Json args) {
    if (b == MessageRecord::kNone || e == MessageRecord::kNone || e < b) return;
    events.push_back({{"name", name},
                      {"cat", tid == 0 ? "cpu" : "network"},
                      {"ph", "X"},
                      {"pid", node},
                      {"tid", tid},
                      {"ts", static_cast<double>(b) * us},
                      {"dur", static_cast<double>(e - b) * us},
                      {"args", std::move(args)}});
  };
  const int nodes = h.network().topology().nodes();
  for (int n = 0; n < nodes; ++n) {
    events.push_back(
        {{"name", "process_name"},
         {"ph", "M"},
         {"pid", n},
         {"args",
          {{"name", fmt::format("node {} {}", n,
                                h.network().topology().node_name(static_cast<NodeId>(n)))}}}});
    events.push_back({{"name", "thread_name"},
                      {"ph", "M"},
                      {"pid", n},
                      {"tid", 0},
                      {"args", {{"name", "cpu"}}}});
    events.push_back({{"name", "thread_name"},
                      {"ph", "M"},
                      {"pid", n},
                      {"tid", 1},
                      {"args", {{"name", "network (incoming)"}}}});
  }
  for (const MessageRecord& m : h.log().records()) {
    const Json args = {{"operation", m.operation}, {"src", m.src},   {"dst", m.dst},
                       {"bytes", m.bytes},         {"hops", m.hops}, {"seq", m.seq}};
    slice(m.src, 0, fmt::format("send start-up -> {}", m.dst), m.send_begin, m.doorbell, args);
    slice(m.dst, 1, fmt::format("transit {} -> {}", m.src, m.dst), m.doorbell, m.delivered + 1,
          args);
    slice(m.dst, 0, fmt::format("receive overhead <- {}", m.src), m.receive_begin, m.received,
          args);
  }
  Json j;
  j["traceEvents"] = std::move(events);
  j["displayTimeUnit"] = "ns";
  j["otherData"] = {{"generator", "wormsim"}, {"time_unit", "us"}};
  return j;
}

}  // namespace wormsim
