#include "flit_event_log.h"

#include <algorithm>
#include <tuple>

#include <fmt/format.h>

namespace wormsim {

bool FlitEvent::operator<(const FlitEvent& o) const {
  return std::tie(cycle, router, port, vc, packet, index) <
         std::tie(o.cycle, o.router, o.port, o.vc, o.packet, o.index);
}

std::string to_string(const FlitEvent& e) {
  return fmt::format("cycle {} router {} port {} vc {} packet {} flit {}", e.cycle, e.router,
                     e.port, e.vc, e.packet, e.index);
}

FlitLogComparison compare_flit_logs(std::vector<FlitEvent> a, std::vector<FlitEvent> b,
                                    const std::string& a_name, const std::string& b_name) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  FlitLogComparison r;
  r.compared = std::max(a.size(), b.size());
  const std::size_t common = std::min(a.size(), b.size());
  std::size_t first = common;
  for (std::size_t i = 0; i < common; ++i) {
    if (a[i] == b[i]) continue;
    if (first == common) first = i;
    ++r.mismatches;
  }
  r.mismatches += r.compared - common;
  if (r.mismatches == 0) return r;
  auto side = [&](const std::vector<FlitEvent>& log, const std::string& name) {
    std::string s = fmt::format("  {} ({} events):\n", name, log.size());
    const std::size_t lo = first >= 3 ? first - 3 : 0;
    for (std::size_t i = lo; i < std::min(log.size(), first + 3); ++i)
      s += fmt::format("    {} [{}] {}\n", i == first ? ">>" : "  ", i, to_string(log[i]));
    if (first >= log.size()) s += fmt::format("    >> [{}] (no event: log ends)\n", first);
    return s;
  };
  r.first_mismatch = fmt::format("{} of {} flit events differ; first at sorted position {}:\n",
                                 r.mismatches, r.compared, first) +
                     side(a, a_name) + side(b, b_name);
  return r;
}

}  // namespace wormsim
