#include "lockstep_checker.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

namespace wormsim {

namespace {
std::string port_name(const Network& network, int port, bool input) {
  const PortLayout& layout = network.layout();
  if (port < layout.network) return network.topology().port_name(port);
  return fmt::format("{}{}", input ? "inj" : "ej", port - layout.network);
}
}  // namespace

std::string describe_router_state(const Network& network, NodeId id) {
  const Router& r = *network.routers().at(id);
  const int vcs = r.params().vcs;
  std::string s =
      fmt::format("    router {} ({}, {} flits buffered):\n", id, r.implementation(), r.buffered());
  for (int p = 0; p < r.params().layout.inputs(); ++p)
    for (int v = 0; v < vcs; ++v) {
      const InputVc& ivc = r.input(p).vcs[static_cast<std::size_t>(v)];
      if (ivc.state == VcState::kIdle && ivc.buffer.empty()) continue;
      s += fmt::format("      in {} vc {}: {}", port_name(network, p, true), v,
                       to_string(ivc.state));
      if (!ivc.buffer.empty()) {
        s += ", flits";
        for (int k = 0; k < ivc.buffer.size(); ++k)
          s += fmt::format(" {}.{}", ivc.buffer.at(k).flit.packet_id, ivc.buffer.at(k).flit.index);
      }
      if (ivc.state == VcState::kActive && ivc.out_port >= 0)
        s += fmt::format(", holds out {} vc {}", port_name(network, ivc.out_port, false),
                         ivc.out_vc);
      bool first = true;
      for (const ReplicaBranch& b : ivc.branches) {
        if (b.done || b.out_port < 0) continue;
        s += fmt::format("{}out {} vc {}", first ? ", replicating to " : ", ",
                         port_name(network, b.out_port, false), b.out_vc);
        first = false;
      }
      s += "\n";
    }
  for (int o = 0; o < r.params().layout.outputs(); ++o)
    for (int v = 0; v < vcs; ++v) {
      const CreditCounter& c = r.output(o).credits[static_cast<std::size_t>(v)];
      const int holder = r.owner(o, v);
      if (holder < 0 && c.all_returned()) continue;
      s += fmt::format("      out {} vc {}:", port_name(network, o, false), v);
      if (holder >= 0)
        s += fmt::format(" held by in {} vc {},", port_name(network, holder / vcs, true),
                         holder % vcs);
      s += fmt::format(" {} of {} credits\n", c.credits(), c.capacity());
    }
  return s;
}

LockstepChecker::LockstepChecker(const sc_core::sc_module_name& name, Network& a, Network& b,
                                 std::string a_name, std::string b_name)
    : sc_module(name), a_(a), b_(b), a_name_(std::move(a_name)), b_name_(std::move(b_name)) {
  if (a.clock_period() != b.clock_period())
    throw std::invalid_argument(
        fmt::format("lock-step comparison of {} and {}: clock periods differ ({} and {})", a_name_,
                    b_name_, a.clock_period().to_string(), b.clock_period().to_string()));
  a.add_router_observer(&recorder_a_);
  b.add_router_observer(&recorder_b_);
  SC_METHOD(check);
  sensitive << a.evaluated_event() << b.evaluated_event();
  dont_initialize();
}

// Woken by either network's evaluation of cycle c (at c's time): checks half a period later,
// then sleeps until the next evaluation, so a run with nothing left to do still ends.
void LockstepChecker::check() {
  if (!check_scheduled_) {
    check_scheduled_ = true;
    next_trigger(a_.clock_period() / 2);
    return;
  }
  check_scheduled_ = false;
  compare_pending();
}

void LockstepChecker::compare_pending() {
  if (log_a_.empty() && log_b_.empty()) return;
  events_a_ += log_a_.size();
  events_b_ += log_b_.size();
  std::sort(log_a_.begin(), log_a_.end());
  std::sort(log_b_.begin(), log_b_.end());
  // The state read below is the one after the latest cycle compared here (the first differing
  // cycle itself unless the run ended by sc_stop before a check).
  const Cycle latest =
      std::max(log_a_.empty() ? 0 : log_a_.back().cycle, log_b_.empty() ? 0 : log_b_.back().cycle);
  const FlitLogDifference diff = difference(log_a_, log_b_);
  log_a_.clear();
  log_b_.clear();
  result_.compared = std::max(events_a_, events_b_);
  if (diff.empty()) return;
  const bool first = result_.mismatches == 0;
  result_.mismatches += diff.only_a.size() + diff.only_b.size();
  if (!first) return;
  result_.first_cycle = diff.first_cycle();
  std::set<NodeId> routers;
  for (const auto* only : {&diff.only_a, &diff.only_b})
    for (const FlitEvent& e : *only)
      if (e.cycle == result_.first_cycle) routers.insert(e.router);
  std::string state;
  for (const auto& [network, name] :
       {std::pair<const Network*, const std::string*>{&a_, &a_name_}, {&b_, &b_name_}}) {
    state += fmt::format("  state of {} after cycle {}:\n", *name, latest);
    for (NodeId r : routers) state += describe_router_state(*network, r);
  }
  first_report_ = describe_first_cycle(diff, a_name_, b_name_) + state;
}

const FlitLogComparison& LockstepChecker::finish() {
  compare_pending();
  if (result_.mismatches > 0)
    result_.first_mismatch = fmt::format(
                                 "lock-step: {} flit events are in one run only (of {} "
                                 "in {} and {} in {}); ",
                                 result_.mismatches, events_a_, a_name_, events_b_, b_name_) +
                             first_report_;
  return result_;
}

}  // namespace wormsim
