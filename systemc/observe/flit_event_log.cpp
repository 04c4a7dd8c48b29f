#include "flit_event_log.h"

#include <algorithm>
#include <iterator>
#include <tuple>

#include <fmt/format.h>

namespace wormsim {

bool FlitEvent::operator<(const FlitEvent& o) const {
  return std::tie(cycle, router, port, vc, packet, index) <
         std::tie(o.cycle, o.router, o.port, o.vc, o.packet, o.index);
}

void canonical_order(std::vector<FlitEvent>& log) {
  std::stable_sort(log.begin(), log.end(), [](const FlitEvent& a, const FlitEvent& b) {
    return std::tie(a.cycle, a.router) < std::tie(b.cycle, b.router);
  });
}

std::string to_string(const FlitEvent& e) {
  return fmt::format("cycle {} router {} port {} vc {} packet {} flit {}", e.cycle, e.router,
                     e.port, e.vc, e.packet, e.index);
}

Cycle FlitLogDifference::first_cycle() const {
  if (only_a.empty()) return only_b.front().cycle;
  if (only_b.empty()) return only_a.front().cycle;
  return std::min(only_a.front().cycle, only_b.front().cycle);
}

FlitLogDifference difference(const std::vector<FlitEvent>& sorted_a,
                             const std::vector<FlitEvent>& sorted_b) {
  FlitLogDifference d;
  std::set_difference(sorted_a.begin(), sorted_a.end(), sorted_b.begin(), sorted_b.end(),
                      std::back_inserter(d.only_a));
  std::set_difference(sorted_b.begin(), sorted_b.end(), sorted_a.begin(), sorted_a.end(),
                      std::back_inserter(d.only_b));
  return d;
}

std::string describe_first_cycle(const FlitLogDifference& diff, const std::string& a_name,
                                 const std::string& b_name, std::size_t limit) {
  const Cycle first = diff.first_cycle();
  auto side = [&](const std::vector<FlitEvent>& only, const std::string& name) {
    std::string s;
    std::size_t n = 0;
    for (const FlitEvent& e : only)
      if (e.cycle == first) ++n;
    s += fmt::format("  only in {} ({} events):\n", name, n);
    std::size_t shown = 0;
    for (const FlitEvent& e : only) {
      if (e.cycle != first) continue;
      if (shown++ == limit) {
        s += fmt::format("    ... {} more\n", n - limit);
        break;
      }
      s += "    " + to_string(e) + "\n";
    }
    return s;
  };
  return fmt::format("first differing cycle {}:\n", first) + side(diff.only_a, a_name) +
         side(diff.only_b, b_name);
}

FlitLogComparison compare_flit_logs(std::vector<FlitEvent> a, std::vector<FlitEvent> b,
                                    const std::string& a_name, const std::string& b_name) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  FlitLogComparison r;
  r.compared = std::max(a.size(), b.size());
  const FlitLogDifference diff = difference(a, b);
  r.mismatches = diff.only_a.size() + diff.only_b.size();
  if (r.mismatches == 0) return r;
  r.first_cycle = diff.first_cycle();
  r.first_mismatch = fmt::format("{} flit events are in one log only (of {} in {} and {} in {}); ",
                                 r.mismatches, a.size(), a_name, b.size(), b_name) +
                     describe_first_cycle(diff, a_name, b_name);
  return r;
}

}  // namespace wormsim
