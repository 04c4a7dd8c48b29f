#include "multicast_route.h"

#include <algorithm>
#include <array>
#include <set>

#include <fmt/format.h>

namespace wormsim {

namespace {
constexpr TrafficClass kMulti = TrafficClass::kMultidest;
}  // namespace

void MulticastRoute::branches(NodeId here, const Flit& head, int in_port, int in_vc,
                              std::vector<MulticastBranch>& out, bool absorbed) const {
  out.clear();
  const MulticastHeader& h = table_.at(head.mcast);
  if (h.mode == MultidestMode::kPath) {
    const NodeId target = h.dests[head.mpos];
    if (absorbed) {  // the stripped address flit named this node: absorb and forward
      if (target == here)
        throw std::logic_error(
            fmt::format("path worm from {} lists node {} twice in a row", h.src, here));
      out.push_back({route_compute_.ejection(in_port, kMulti), here, head.mpos});
      out.push_back(
          {route_compute_.route(here, target, in_port, in_vc, kMulti), target, head.mpos});
      return;
    }
    if (here != target) {
      out.push_back(
          {route_compute_.route(here, target, in_port, in_vc, kMulti), target, head.mpos});
      return;
    }
    out.push_back({route_compute_.ejection(in_port, kMulti), here, head.mpos});
    const std::size_t next = static_cast<std::size_t>(head.mpos) + 1;
    if (next < h.dests.size())
      out.push_back({route_compute_.route(here, h.dests[next], in_port, in_vc, kMulti),
                     h.dests[next], static_cast<std::uint16_t>(next)});
    return;
  }
  // Tree: the destinations whose route from the source passes here, grouped by next port.
  constexpr int kMaxPorts = 64;
  std::array<NodeId, kMaxPorts> first{};
  first.fill(kNoNode);
  bool eject = false;
  for (NodeId d : h.dests) {
    if (d == here) {
      eject = true;
      continue;
    }
    if (!route_compute_.on_route(h.src, d, here)) continue;
    const int port = route_compute_.first_hop_port(here, d);
    if (first[static_cast<std::size_t>(port)] == kNoNode) first[static_cast<std::size_t>(port)] = d;
  }
  if (eject) out.push_back({route_compute_.ejection(in_port, kMulti), here, 0});
  for (int p = 0; p < topology_.network_ports(); ++p) {
    const NodeId d = first[static_cast<std::size_t>(p)];
    if (d != kNoNode) out.push_back({route_compute_.route(here, d, in_port, in_vc, kMulti), d, 0});
  }
  if (out.empty())
    throw std::logic_error(
        fmt::format("tree worm from {} reached node {}, which leads to none of "
                    "its destinations",
                    h.src, here));
}

int MulticastRoute::header_flits_read(NodeId here, const Flit& head) const {
  if (reading_.decode == HeaderDecode::kHeadFlit || path_ir_ == PathIr::kMinimal) return 1;
  const MulticastHeader& h = table_.at(head.mcast);
  const std::size_t next = static_cast<std::size_t>(head.mpos) + 1;
  if (h.mode == MultidestMode::kPath) {
    if (h.dests[head.mpos] != here || next >= h.dests.size()) return 1;
    if (reading_.encoding == HeaderEncoding::kAddressFlits)
      return static_cast<int>(next) + 1;  // entry e in flit e
    if (reading_.encoding == HeaderEncoding::kAddressList) {
      // Entry e fills bits [e w, (e + 1) w) of the list packed from the head flit on.
      const long long last_bit =
          static_cast<long long>(next + 1) * address_bits(reading_.nodes) - 1;
      return static_cast<int>(last_bit / (8LL * reading_.flit_bytes)) + 1;
    }
  }
  // A tree worm, or a path worm's bit-string: the whole list.
  return header_flits(reading_.encoding, h.dests.size(), reading_.nodes, reading_.flit_bytes,
                      path_ir_);
}

std::string brcp_violation(const RouteCompute& rc, NodeId src, const std::vector<NodeId>& dests) {
  if (dests.empty()) return "the destination list is empty";
  for (std::size_t i = 0; i < dests.size(); ++i)
    if (dests[i] == src) return fmt::format("destination {} is the source itself", i);
  if (rc.hamiltonian()) {
    const bool up = rc.label(dests[0]) > rc.label(src);
    int last = rc.label(src);
    for (std::size_t i = 0; i < dests.size(); ++i) {
      const int l = rc.label(dests[i]);
      if (up ? l <= last : l >= last)
        return fmt::format(
            "destination {} (node {}, label {}) breaks the {} label order of the "
            "Hamiltonian path",
            i, dests[i], l, up ? "rising" : "falling");
      last = l;
    }
    return {};
  }
  // Walk the base route from the source to the last destination; the list must appear on it
  // in order.
  const NodeId last = dests.back();
  std::size_t next = 0;
  for (NodeId n = src;;) {
    if (n == dests[next]) ++next;
    if (next == dests.size() || n == last) break;
    n = rc.next_node(n, last);
  }
  if (next < dests.size())
    return fmt::format(
        "destination {} (node {}) is not on the base route from node {} to the last "
        "destination {} after the ones before it",
        next, dests[next], src, last);
  return {};
}

std::string multicast_list_violation(const RouteCompute& rc, MultidestMode mode, NodeId src,
                                     const std::vector<NodeId>& dests, int nodes) {
  if (dests.empty()) return "the destination list is empty";
  std::vector<NodeId> sorted = dests;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    if (sorted[i] >= static_cast<NodeId>(nodes))
      return fmt::format("destination node {} does not exist ({} nodes)", sorted[i], nodes);
    if (sorted[i] == src) return fmt::format("destination {} is the source itself", sorted[i]);
    if (i > 0 && sorted[i] == sorted[i - 1])
      return fmt::format("destination {} is listed twice", sorted[i]);
  }
  if (mode == MultidestMode::kPath) {
    const std::string why = brcp_violation(rc, src, dests);
    if (!why.empty()) return "the path does not conform to the base routing: " + why;
  }
  return {};
}

std::vector<std::vector<NodeId>> split_into_paths(const RouteCompute& rc, const Topology& topology,
                                                  NodeId src, std::vector<NodeId> dests) {
  std::vector<std::vector<NodeId>> paths;
  dests.erase(std::remove(dests.begin(), dests.end(), src), dests.end());
  std::sort(dests.begin(), dests.end());
  dests.erase(std::unique(dests.begin(), dests.end()), dests.end());
  if (rc.hamiltonian()) {
    std::vector<NodeId> high;
    std::vector<NodeId> low;
    for (NodeId d : dests) (rc.label(d) > rc.label(src) ? high : low).push_back(d);
    std::sort(high.begin(), high.end(),
              [&](NodeId a, NodeId b) { return rc.label(a) < rc.label(b); });
    std::sort(low.begin(), low.end(),
              [&](NodeId a, NodeId b) { return rc.label(a) > rc.label(b); });
    if (!high.empty()) paths.push_back(std::move(high));
    if (!low.empty()) paths.push_back(std::move(low));
    return paths;
  }
  // Greedy: the remaining destination whose base route from src covers the most remaining
  // destinations becomes the end of the next path.
  std::vector<char> left(static_cast<std::size_t>(topology.nodes()), 0);
  for (NodeId d : dests) left[d] = 1;
  std::size_t remaining = dests.size();
  while (remaining > 0) {
    NodeId best = kNoNode;
    std::size_t best_count = 0;
    for (NodeId end : dests) {
      if (!left[end]) continue;
      std::size_t count = 0;
      for (NodeId n = src; n != end;) {
        n = rc.next_node(n, end);
        count += left[n] != 0;
      }
      if (count > best_count) {
        best_count = count;
        best = end;
      }
    }
    std::vector<NodeId> path;
    for (NodeId n = src; n != best;) {
      n = rc.next_node(n, best);
      if (left[n]) {
        path.push_back(n);
        left[n] = 0;
      }
    }
    remaining -= path.size();
    paths.push_back(std::move(path));
  }
  return paths;
}

std::vector<NodeId> random_brcp_path(const RouteCompute& rc, const Topology& topology, NodeId src,
                                     int m, std::mt19937_64& rng) {
  const int nodes = topology.nodes();
  std::vector<NodeId> route;
  if (rc.hamiltonian()) {
    std::vector<NodeId> high;
    std::vector<NodeId> low;
    for (NodeId n = 0; n < static_cast<NodeId>(nodes); ++n) {
      if (n == src) continue;
      (rc.label(n) > rc.label(src) ? high : low).push_back(n);
    }
    const bool take_high =
        low.empty() || (!high.empty() && std::uniform_int_distribution<int>(0, 1)(rng) == 0);
    route = take_high ? high : low;
    std::sort(route.begin(), route.end(), [&](NodeId a, NodeId b) {
      return take_high ? rc.label(a) < rc.label(b) : rc.label(a) > rc.label(b);
    });
  } else {
    // The route to a random end node; a few tries for one with at least m nodes.
    std::uniform_int_distribution<NodeId> pick(0, static_cast<NodeId>(nodes - 1));
    for (int attempt = 0; attempt < 16; ++attempt) {
      NodeId end = pick(rng);
      if (end == src) continue;
      std::vector<NodeId> r;
      for (NodeId n = src; n != end;) {
        n = rc.next_node(n, end);
        r.push_back(n);
      }
      if (r.size() > route.size()) route = std::move(r);
      if (static_cast<int>(route.size()) >= m) break;
    }
  }
  // m of the route's nodes, in route order.
  const std::size_t want = std::min(route.size(), static_cast<std::size_t>(m));
  std::vector<NodeId> chosen;
  std::size_t needed = want;
  for (std::size_t i = 0; i < route.size() && needed > 0; ++i) {
    const std::size_t left = route.size() - i;
    if (std::uniform_int_distribution<std::size_t>(1, left)(rng) <= needed) {
      chosen.push_back(route[i]);
      --needed;
    }
  }
  return chosen;
}

std::uint64_t multicast_links(const RouteCompute& rc, MultidestMode mode, NodeId src,
                              const std::vector<NodeId>& dests) {
  std::uint64_t links = 0;
  if (mode == MultidestMode::kPath) {
    NodeId at = src;
    for (NodeId d : dests) {
      links += static_cast<std::uint64_t>(rc.route_hops(at, d));
      at = d;
    }
    return links;
  }
  std::set<std::pair<NodeId, NodeId>> edges;
  for (NodeId d : dests)
    for (NodeId n = src; n != d;) {
      const NodeId next = rc.next_node(n, d);
      edges.insert({n, next});
      n = next;
    }
  return edges.size();
}

std::uint64_t stripped_path_flit_hops(const RouteCompute& rc, NodeId src,
                                      const std::vector<NodeId>& dests, int flits, int per_flit) {
  std::uint64_t flit_hops = 0;
  NodeId at = src;
  for (std::size_t j = 0; j < dests.size(); ++j) {
    // Leg j (from the j-th destination, the source for j = 0) follows floor(j / per_flit)
    // strips.
    flit_hops += static_cast<std::uint64_t>(flits - static_cast<int>(j) / per_flit) *
                 static_cast<std::uint64_t>(rc.route_hops(at, dests[j]));
    at = dests[j];
  }
  return flit_hops;
}

}  // namespace wormsim
