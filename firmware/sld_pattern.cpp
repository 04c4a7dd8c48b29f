#include "sld_pattern.h"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

#include "collective.h"
#include "dominating_set.h"

namespace wormsim::fw {

namespace {
TopologyConfig mesh(int w, int h) {
  if (w < 1 || h < 1) throw std::invalid_argument("SldPattern: mesh sides must be >= 1");
  TopologyConfig t;
  t.kind = TopologyKind::kMesh;
  t.dims = {w, h};
  return t;
}
}  // namespace

SldPattern::SldPattern(int w, int h) : w_(w), h_(h), topology_(mesh(w, h)) {
  const auto sets = cockayne_dominating_sets(w, h);
  const std::size_t n = static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
  dominator_.assign(n, kNoNode);
  assigned_.assign(n, {});
  for (const auto& p : sets.front()) {
    const NodeId d = id(p[0], p[1]);
    dominators_.push_back(d);
    dominator_[d] = d;
  }
  std::sort(dominators_.begin(), dominators_.end());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const NodeId v = id(x, y);
      if (dominator_[v] == v) continue;
      // The adjacent dominator of lowest id: -y, -x, +x, +y.
      const int nb[4][2] = {{0, -1}, {-1, 0}, {1, 0}, {0, 1}};
      for (const auto& d : nb) {
        const int u = x + d[0], t = y + d[1];
        if (u < 0 || u >= w || t < 0 || t >= h) continue;
        const NodeId c = id(u, t);
        if (dominator_[c] == c) {
          dominator_[v] = c;
          assigned_[c].push_back(v);
          break;
        }
      }
      if (dominator_[v] == kNoNode)
        throw std::logic_error("SldPattern: node " + std::to_string(v) + " is not dominated");
    }
}

std::vector<NodeId> SldPattern::chain(NodeId root) const {
  std::vector<NodeId> members = dominators_;
  if (!is_dominator(root)) members.push_back(root);
  return dimension_ordered_chain(topology_, {0, 1}, members);
}

std::vector<NodeId> SldPattern::sends(NodeId root, NodeId self) const {
  std::vector<NodeId> out;
  if (!is_dominator(self) && self != root) return out;
  const std::vector<NodeId> c = chain(root);
  const std::size_t root_index =
      static_cast<std::size_t>(std::find(c.begin(), c.end(), root) - c.begin());
  out = umesh_children(c, root_index, self);
  if (is_dominator(self))
    for (NodeId v : assigned_[self])
      if (v != root) out.push_back(v);
  return out;
}

std::vector<std::vector<NodeId>> SldPattern::umesh_groups(const Phase1& p1, NodeId self,
                                                          PortModel ports) const {
  const std::vector<NodeId> s = umesh_children(p1.chain, p1.root_index, self);
  if (ports != PortModel::kAllPort) return one_per_step(s);
  // In order: a send shares the previous send's step unless that step already uses its channel.
  std::vector<std::vector<NodeId>> groups;
  for (NodeId to : s) {
    const int channel = first_hop(self, to);
    if (groups.empty() || std::any_of(groups.back().begin(), groups.back().end(),
                                      [&](NodeId t) { return first_hop(self, t) == channel; }))
      groups.emplace_back();
    groups.back().push_back(to);
  }
  return groups;
}

SldPattern::Phase1 SldPattern::phase1(NodeId root, PortModel ports) const {
  Phase1 p1;
  p1.chain = chain(root);
  p1.root_index = static_cast<std::size_t>(std::find(p1.chain.begin(), p1.chain.end(), root) -
                                           p1.chain.begin());
  p1.received.assign(static_cast<std::size_t>(nodes()), -1);
  p1.received[root] = 0;
  const std::uint64_t span = 4 * static_cast<std::uint64_t>(nodes());
  std::vector<NodeId> frontier{root};
  while (!frontier.empty()) {
    std::vector<NodeId> next;
    for (NodeId u : frontier) {
      const auto groups = umesh_groups(p1, u, ports);
      for (std::size_t g = 0; g < groups.size(); ++g)
        for (NodeId c : groups[g]) {
          const int step = p1.received[u] + 1 + static_cast<int>(g);
          p1.received[c] = step;
          for (int l : path(u, c))
            p1.links.insert(static_cast<std::uint64_t>(step) * span +
                            static_cast<std::uint64_t>(l));
          next.push_back(c);
        }
    }
    frontier = std::move(next);
  }
  return p1;
}

std::vector<std::vector<NodeId>> SldPattern::children(const Phase1& p1, NodeId root, NodeId self,
                                                      PortModel ports) const {
  if (!is_dominator(self) && self != root) return {};
  std::vector<std::vector<NodeId>> groups = umesh_groups(p1, self, ports);
  if (!is_dominator(self)) return groups;
  const std::uint64_t span = 4 * static_cast<std::uint64_t>(nodes());
  std::size_t from = groups.size();  // one-port: after the previous send
  for (NodeId v : assigned_[self]) {
    if (v == root) continue;
    const int channel = first_hop(self, v);
    const std::uint64_t link =
        static_cast<std::uint64_t>(self) * 4 + static_cast<std::uint64_t>(channel);
    std::size_t g = ports == PortModel::kAllPort ? 0 : from;
    // The channel is busy in a step when a U-mesh worm (this node's own included) crosses it.
    while (p1.links.count(static_cast<std::uint64_t>(p1.received[self] + 1 + static_cast<int>(g)) *
                              span +
                          link) != 0 ||
           (ports == PortModel::kAllPort && g < groups.size() &&
            std::any_of(groups[g].begin(), groups[g].end(),
                        [&](NodeId t) { return first_hop(self, t) == channel; })))
      ++g;
    if (groups.size() <= g) groups.resize(g + 1);
    groups[g].push_back(v);
    from = g + 1;
  }
  return groups;
}

std::vector<std::vector<NodeId>> SldPattern::children(NodeId root, NodeId self,
                                                      PortModel ports) const {
  if (!is_dominator(self) && self != root) return {};
  return children(phase1(root, ports), root, self, ports);
}

std::vector<SldPattern::Send> SldPattern::schedule(NodeId root, PortModel ports) const {
  const Phase1 p1 = phase1(root, ports);
  std::vector<Send> out;
  std::vector<NodeId> frontier{root};
  std::vector<int> step(static_cast<std::size_t>(nodes()), 0);
  while (!frontier.empty()) {
    std::vector<NodeId> next;
    for (NodeId self : frontier) {
      const auto groups = children(p1, root, self, ports);
      for (std::size_t g = 0; g < groups.size(); ++g)
        for (NodeId to : groups[g]) {
          step[to] = step[self] + 1 + static_cast<int>(g);
          out.push_back({self, to, step[to], !is_dominator(to) && to != root});
          next.push_back(to);
        }
    }
    frontier = std::move(next);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Send& a, const Send& b) { return a.step < b.step; });
  return out;
}

int SldPattern::steps(NodeId root, PortModel ports) const {
  int s = 0;
  for (const Send& x : schedule(root, ports)) s = std::max(s, x.step);
  return s;
}

int SldPattern::first_hop(NodeId a, NodeId b) const {
  const int ax = static_cast<int>(a) % w_, ay = static_cast<int>(a) / w_;
  const int bx = static_cast<int>(b) % w_, by = static_cast<int>(b) / w_;
  if (bx != ax) return bx > ax ? 0 : 1;
  if (by != ay) return by > ay ? 2 : 3;
  return -1;
}

std::vector<int> SldPattern::path(NodeId a, NodeId b) const {
  std::vector<int> out;
  while (a != b) {
    const int d = first_hop(a, b);
    out.push_back(static_cast<int>(a) * 4 + d);
    a = static_cast<NodeId>(static_cast<int>(a) + (d == 0 ? 1 : d == 1 ? -1 : d == 2 ? w_ : -w_));
  }
  return out;
}

}  // namespace wormsim::fw
