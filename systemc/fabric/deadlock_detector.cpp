#include "deadlock_detector.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

namespace wormsim {

std::string to_string(DeadlockKind k) {
  switch (k) {
    case DeadlockKind::kConsumptionChannels: return "consumption_channels";
    case DeadlockKind::kReplicationBranches: return "replication_branches";
    case DeadlockKind::kRouting: return "routing";
    case DeadlockKind::kUnknown: return "unknown";
  }
  return "?";
}

namespace {

const char* explain(DeadlockKind k) {
  switch (k) {
    case DeadlockKind::kConsumptionChannels:
      return "a worm waits for a consumption channel held by the next in the cycle";
    case DeadlockKind::kReplicationBranches:
      return "a replicating worm waits on one of its network branches";
    case DeadlockKind::kRouting:
      return "network channels only, no replicating worm: a cyclic channel dependency of the "
             "routing and VC classes";
    case DeadlockKind::kUnknown: return "no wait-for cycle found";
  }
  return "?";
}

DeadlockKind classify(const std::vector<WaitingVc>& waiting, const std::vector<int>& cycle) {
  if (cycle.empty()) return DeadlockKind::kUnknown;
  for (std::size_t i = 0; i < cycle.size(); ++i) {
    const WaitingVc& u = waiting[static_cast<std::size_t>(cycle[i])];
    const int v = cycle[(i + 1) % cycle.size()];
    if (std::find(u.waits_for_consumption.begin(), u.waits_for_consumption.end(), v) !=
        u.waits_for_consumption.end())
      return DeadlockKind::kConsumptionChannels;
  }
  for (int i : cycle)
    if (waiting[static_cast<std::size_t>(i)].replicating) return DeadlockKind::kReplicationBranches;
  return DeadlockKind::kRouting;
}

}  // namespace

std::string DeadlockReport::describe(const WaitingVc& w) const {
  const std::string port = input_names.at(static_cast<std::size_t>(w.port));
  std::string s = fmt::format("router {} in {} vc {}: packet {} (to {}), {} flits, {}", w.router,
                              port, w.vc, w.packet, w.dst, w.flits, w.state);
  if (w.out_port >= 0) {
    const std::string out = output_names.at(static_cast<std::size_t>(w.out_port));
    s += fmt::format(", holds out {} vc {}{}", out, w.out_vc, w.no_credit ? " with no credit" : "");
  }
  if (!w.branches.empty()) s += ", replicating to " + w.branches;
  if (!w.wants.empty()) s += ", wants " + w.wants;
  return s;
}

std::string DeadlockReport::text() const {
  std::string s = partial
                      ? fmt::format(
                            "deadlock: a flit at the front of an input VC has not moved from cycle "
                            "{} to cycle {} while other traffic moved; {} flits in flight\n",
                            last_progress, detected_at, flits_in_flight)
                      : fmt::format(
                            "deadlock: no flit moved from cycle {} to cycle {} with {} flits in "
                            "flight\n",
                            last_progress, detected_at, flits_in_flight);
  s += fmt::format("deadlock kind: {} ({})\n", to_string(kind), explain(kind));
  if (!cycle.empty()) {
    s += fmt::format("wait-for cycle ({} VCs):\n", cycle.size());
    for (int i : cycle) s += "  " + describe(waiting[static_cast<std::size_t>(i)]) + "\n";
    s += "  -> back to the first\n";
  } else {
    s += "no wait-for cycle found (livelock or starvation)\n";
  }
  constexpr std::size_t kShown = 64;
  s += fmt::format("waiting VCs ({}):\n", waiting.size());
  for (std::size_t i = 0; i < waiting.size() && i < kShown; ++i)
    s += "  " + describe(waiting[i]) + "\n";
  if (waiting.size() > kShown) s += fmt::format("  ... {} more\n", waiting.size() - kShown);
  return s;
}

DeadlockReport build_deadlock_report(const std::vector<std::unique_ptr<Router>>& routers,
                                     const Topology& topology, Cycle now, Cycle last_progress,
                                     std::uint64_t in_flight) {
  DeadlockReport report;
  report.detected_at = now;
  report.last_progress = last_progress;
  report.flits_in_flight = in_flight;
  if (routers.empty()) return report;
  const PortLayout& layout = routers.front()->params().layout;
  for (int p = 0; p < layout.network; ++p) {
    report.input_names.push_back(topology.port_name(p));
    report.output_names.push_back(topology.port_name(p));
  }
  for (int c = 0; c < layout.injection; ++c) report.input_names.push_back(fmt::format("inj{}", c));
  for (int c = 0; c < layout.ejection; ++c) report.output_names.push_back(fmt::format("ej{}", c));

  std::map<std::tuple<NodeId, int, int>, int> index;
  for (const auto& r : routers) {
    const int vcs = r->params().vcs;
    for (int p = 0; p < r->params().layout.inputs(); ++p) {
      for (int v = 0; v < vcs; ++v) {
        const InputVc& ivc = r->input(p).vcs[static_cast<std::size_t>(v)];
        if (ivc.buffer.empty()) continue;
        WaitingVc w;
        w.router = r->id();
        w.port = p;
        w.vc = v;
        w.packet = ivc.buffer.front().flit.packet_id;
        w.dst = ivc.buffer.front().flit.dst;
        w.flits = ivc.buffer.size();
        w.state = to_string(ivc.state);
        if (ivc.state == VcState::kIdle && ivc.header_reads > 0)
          w.state = fmt::format("waiting_for_header ({} of the {} header flits it reads arrived)",
                                std::min(ivc.buffer.size(), ivc.header_reads), ivc.header_reads);
        w.replicating = ivc.branches.size() > 1;
        w.out_port = ivc.out_port;
        w.out_vc = ivc.out_vc;
        w.no_credit =
            ivc.state == VcState::kActive && ivc.out_port >= 0 &&
            !r->output(ivc.out_port).credits[static_cast<std::size_t>(ivc.out_vc)].available();
        for (const ReplicaBranch& b : ivc.branches) {
          w.branches += w.branches.empty() ? "[" : ", ";
          if (b.out_port < 0) {
            w.branches += fmt::format(
                "{}..{} (waiting for a VC{})",
                report.output_names.at(static_cast<std::size_t>(b.target.route.port_lo)),
                report.output_names.at(static_cast<std::size_t>(b.target.route.port_hi - 1)),
                ivc.room_needed > 0 ? fmt::format(" with room for {} flits", ivc.room_needed)
                                    : std::string());
          } else {
            const bool stuck =
                !b.done &&
                !r->output(b.out_port).credits[static_cast<std::size_t>(b.out_vc)].available();
            w.branches +=
                fmt::format("{} vc {}{}",
                            report.output_names.at(static_cast<std::size_t>(b.out_port)), b.out_vc,
                            b.done  ? " (done)"
                            : stuck ? " (no credit)"
                                    : "");
          }
        }
        if (!w.branches.empty()) w.branches += "]";
        if (ivc.state == VcState::kRouted && ivc.branches.empty()) {
          const RouteResult& rr = ivc.route;
          w.wants = report.output_names.at(static_cast<std::size_t>(rr.port_lo));
          if (rr.port_hi - rr.port_lo > 1)
            w.wants += ".." + report.output_names.at(static_cast<std::size_t>(rr.port_hi - 1));
          w.wants += fmt::format(" vc {}..{}", rr.vc_lo, rr.vc_hi - 1);
        }
        index[{w.router, p, v}] = static_cast<int>(report.waiting.size());
        report.waiting.push_back(w);
      }
    }
  }
  for (WaitingVc& w : report.waiting) {
    const Router& r = *routers[w.router];
    const InputVc& ivc = r.input(w.port).vcs[static_cast<std::size_t>(w.vc)];
    const int vcs = r.params().vcs;
    // The listed VC a holder's tail is behind: the holder itself, or, when its buffer has
    // drained, the upstream VC that still holds the worm (a drained VC keeps its output VC
    // until the tail passes), followed across routers; -1 when the NI feeds it.
    auto holding = [&](NodeId router, int in_port, int vc) {
      for (std::size_t hop = 0; hop <= routers.size(); ++hop) {
        auto it = index.find({router, in_port, vc});
        if (it != index.end()) return it->second;
        if (!layout.is_network(in_port)) return -1;
        const NodeId up = topology.neighbor(router, in_port);
        if (up == kNoNode) return -1;
        const int holder = routers[up]->owner(topology.reverse_port(in_port), vc);
        if (holder < 0) return -1;
        router = up;
        in_port = holder / vcs;
        vc = holder % vcs;
      }
      return -1;
    };
    // A head waits for the holders of the VCs it may take; under cut-through replication also
    // for the packets whose flits still fill a free VC's downstream buffer.
    auto wait_for_holders = [&](const RouteResult& route, int room) {
      for (int p = route.port_lo; p < route.port_hi; ++p) {
        for (int v = route.vc_lo; v < route.vc_hi; ++v) {
          const int holder = r.owner(p, v);
          if (holder < 0) {
            if (room == 0 || !layout.is_network(p) ||
                r.output(p).credits[static_cast<std::size_t>(v)].has_room(room))
              continue;
            auto it = index.find({topology.neighbor(w.router, p), topology.reverse_port(p), v});
            if (it != index.end()) w.waits_for.push_back(it->second);
            continue;
          }
          const int held = holding(w.router, holder / vcs, holder % vcs);
          if (held < 0) continue;
          w.waits_for.push_back(held);
          if (!layout.is_network(p)) w.waits_for_consumption.push_back(held);
        }
      }
    };
    if (!ivc.branches.empty()) {
      for (const ReplicaBranch& b : ivc.branches) {
        if (ivc.state == VcState::kRouted) {
          wait_for_holders(b.target.route, ivc.room_needed);
        } else if (!b.done && layout.is_network(b.out_port) &&
                   !r.output(b.out_port).credits[static_cast<std::size_t>(b.out_vc)].available()) {
          const NodeId next = topology.neighbor(w.router, b.out_port);
          auto it = index.find({next, topology.reverse_port(b.out_port), b.out_vc});
          if (it != index.end()) w.waits_for.push_back(it->second);
        }
      }
    } else if (ivc.state == VcState::kActive && layout.is_network(ivc.out_port) &&
               !r.output(ivc.out_port).credits[static_cast<std::size_t>(ivc.out_vc)].available()) {
      const NodeId next = topology.neighbor(w.router, ivc.out_port);
      auto it = index.find({next, topology.reverse_port(ivc.out_port), ivc.out_vc});
      if (it != index.end()) w.waits_for.push_back(it->second);
    } else if (ivc.state == VcState::kRouted) {
      wait_for_holders(ivc.route, 0);
    }
  }
  // Depth-first search for a cycle in the wait-for graph, iterative so that wait-for chains
  // of any length (hundreds of thousands of VCs on big tori) cannot overflow the stack.
  const std::size_t n = report.waiting.size();
  std::vector<int> color(n, 0), parent(n, -1);
  std::vector<std::pair<int, std::size_t>> stack;  // (vertex, next edge to follow)
  for (std::size_t root = 0; root < n && report.cycle.empty(); ++root) {
    if (color[root] != 0) continue;
    stack.emplace_back(static_cast<int>(root), 0);
    color[root] = 1;
    while (!stack.empty() && report.cycle.empty()) {
      auto& [u, next] = stack.back();
      const std::vector<int>& edges = report.waiting[static_cast<std::size_t>(u)].waits_for;
      if (next == edges.size()) {
        color[static_cast<std::size_t>(u)] = 2;
        stack.pop_back();
        continue;
      }
      const int v = edges[next++];
      if (color[static_cast<std::size_t>(v)] == 1) {
        // Back edge u -> v: the cycle is v -> ... -> u -> v along the DFS tree.
        std::vector<int> cyc{v};
        for (int x = u; x != v; x = parent[static_cast<std::size_t>(x)]) cyc.push_back(x);
        std::reverse(cyc.begin() + 1, cyc.end());
        report.cycle = std::move(cyc);
      } else if (color[static_cast<std::size_t>(v)] == 0) {
        parent[static_cast<std::size_t>(v)] = u;
        color[static_cast<std::size_t>(v)] = 1;
        stack.emplace_back(v, 0);
      }
    }
    stack.clear();
  }
  report.kind = classify(report.waiting, report.cycle);
  return report;
}

bool has_deadlocked_core(const DeadlockReport& report) {
  const std::size_t n = report.waiting.size();
  std::vector<char> in(n, 0);
  for (std::size_t i = 0; i < n; ++i) in[i] = report.waiting[i].waits_for.empty() ? 0 : 1;
  for (bool removed = true; removed;) {
    removed = false;
    for (std::size_t i = 0; i < n; ++i) {
      if (in[i] == 0) continue;
      for (int j : report.waiting[i].waits_for)
        if (in[static_cast<std::size_t>(j)] == 0) {
          in[i] = 0;
          removed = true;
          break;
        }
    }
  }
  return std::find(in.begin(), in.end(), 1) != in.end();
}

}  // namespace wormsim
