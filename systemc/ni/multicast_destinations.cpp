#include "multicast_destinations.h"

#include <algorithm>

#include "multicast_route.h"

namespace wormsim {

std::vector<NodeId> pick_in_order(const std::vector<NodeId>& nodes, std::size_t want,
                                  std::mt19937_64& rng) {
  want = std::min(want, nodes.size());
  std::vector<NodeId> chosen;
  chosen.reserve(want);
  std::size_t needed = want;
  for (std::size_t i = 0; i < nodes.size() && needed > 0; ++i) {
    const std::size_t left = nodes.size() - i;
    if (std::uniform_int_distribution<std::size_t>(1, left)(rng) <= needed) {
      chosen.push_back(nodes[i]);
      --needed;
    }
  }
  return chosen;
}

MulticastDestinations::MulticastDestinations(MulticastPattern pattern, MultidestMode mode, int m,
                                             const std::vector<NodeId>& hotspots,
                                             const Topology& topology,
                                             const RouteCompute& route_compute, NodeId src)
    : pattern_(pattern),
      mode_(mode),
      m_(m),
      topology_(topology),
      route_compute_(route_compute),
      src_(src) {
  if (pattern == MulticastPattern::kHotspot) {
    for (NodeId h : hotspots)
      if (h != src && std::find(hot_.begin(), hot_.end(), h) == hot_.end()) hot_.push_back(h);
  }
  // row_column needs a 2D mesh or torus (Config::validate()); elsewhere nothing to draw from.
  if (pattern != MulticastPattern::kRowColumn || topology.kind() == TopologyKind::kHypercube ||
      topology.dimensions() != 2)
    return;
  const int x = topology.coord(src, 0);
  const int y = topology.coord(src, 1);
  for (int i = 0; i < topology.side(0); ++i)
    if (i != x) candidates_.push_back(topology.node_at({i, y}));
  for (int j = 0; j < topology.side(1); ++j)
    if (j != y) candidates_.push_back(topology.node_at({x, j}));
  std::sort(candidates_.begin(), candidates_.end());
  if (mode != MultidestMode::kPath) return;
  if (route_compute.hamiltonian()) {
    for (NodeId n : candidates_)
      (route_compute.label(n) > route_compute.label(src) ? high_ : low_).push_back(n);
    std::sort(high_.begin(), high_.end(),
              [&](NodeId a, NodeId b) { return route_compute.label(a) < route_compute.label(b); });
    std::sort(low_.begin(), low_.end(),
              [&](NodeId a, NodeId b) { return route_compute.label(a) > route_compute.label(b); });
    return;
  }
  NodeId longest = kNoNode;
  int longest_hops = 0;
  for (NodeId n : candidates_) {
    const int hops = route_compute.route_hops(src, n);
    if (hops >= m) ends_.push_back(n);
    if (hops > longest_hops) {
      longest = n;
      longest_hops = hops;
    }
  }
  if (ends_.empty() && longest != kNoNode) ends_.push_back(longest);
}

std::vector<NodeId> MulticastDestinations::draw(std::mt19937_64& rng) const {
  return mode_ == MultidestMode::kPath ? draw_path(rng) : draw_tree(rng);
}

std::vector<NodeId> MulticastDestinations::draw_tree(std::mt19937_64& rng) const {
  const auto m = static_cast<std::size_t>(m_);
  std::vector<NodeId> chosen;
  if (pattern_ == MulticastPattern::kRowColumn) {
    // Partial Fisher-Yates over the candidates.
    std::vector<NodeId> pool = candidates_;
    for (std::size_t i = 0; i < m && i < pool.size(); ++i) {
      std::uniform_int_distribution<std::size_t> pick(i, pool.size() - 1);
      std::swap(pool[i], pool[pick(rng)]);
      chosen.push_back(pool[i]);
    }
    return chosen;
  }
  if (pattern_ == MulticastPattern::kHotspot) chosen = hot_;
  const int nodes = topology_.nodes();
  std::uniform_int_distribution<NodeId> pick(0, static_cast<NodeId>(nodes - 1));
  while (chosen.size() < m && chosen.size() + 1 < static_cast<std::size_t>(nodes)) {
    const NodeId d = pick(rng);
    if (d != src_ && std::find(chosen.begin(), chosen.end(), d) == chosen.end())
      chosen.push_back(d);
  }
  return chosen;
}

std::vector<NodeId> MulticastDestinations::path_to(NodeId end) const {
  std::vector<NodeId> route;
  if (route_compute_.hamiltonian()) {
    const int lo = route_compute_.label(src_);
    const int hi = route_compute_.label(end);
    for (NodeId n = 0; n < static_cast<NodeId>(topology_.nodes()); ++n) {
      const int l = route_compute_.label(n);
      if (n != end && ((lo < l && l < hi) || (hi < l && l < lo))) route.push_back(n);
    }
    std::sort(route.begin(), route.end(), [&](NodeId a, NodeId b) {
      return (route_compute_.label(a) < route_compute_.label(b)) == (lo < hi);
    });
    route.push_back(end);
    return route;
  }
  for (NodeId n = src_; n != end;) {
    n = route_compute_.next_node(n, end);
    route.push_back(n);
  }
  return route;
}

std::vector<NodeId> MulticastDestinations::draw_path(std::mt19937_64& rng) const {
  const auto m = static_cast<std::size_t>(m_);
  if (pattern_ == MulticastPattern::kRowColumn) {
    if (route_compute_.hamiltonian()) {
      const bool high_ok = high_.size() >= m;
      const bool low_ok = low_.size() >= m;
      bool take_high = high_.size() >= low_.size();
      if (high_ok && low_ok)
        take_high = std::uniform_int_distribution<int>(0, 1)(rng) == 0;
      else if (high_ok || low_ok)
        take_high = high_ok;
      return pick_in_order(take_high ? high_ : low_, m, rng);
    }
    if (ends_.empty()) return {};
    const NodeId end = ends_[std::uniform_int_distribution<std::size_t>(0, ends_.size() - 1)(rng)];
    return pick_in_order(path_to(end), m, rng);
  }
  if (pattern_ == MulticastPattern::kHotspot && !hot_.empty()) {
    const NodeId h = hot_[std::uniform_int_distribution<std::size_t>(0, hot_.size() - 1)(rng)];
    std::vector<NodeId> route = path_to(h);
    route.pop_back();
    std::vector<NodeId> chosen = pick_in_order(route, m - 1, rng);
    chosen.push_back(h);
    return chosen;
  }
  return random_brcp_path(route_compute_, topology_, src_, m_, rng);
}

}  // namespace wormsim
