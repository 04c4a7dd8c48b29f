#include "edn_pattern.h"

#include <algorithm>
#include <functional>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>

#include "two_step_startup.h"

namespace wormsim::fw {

namespace {

struct P {
  int x, y;
  bool operator==(const P& o) const { return x == o.x && y == o.y; }
};
struct Edge {
  P from, to;
  int level;  // level of the sender's role in this send
};
struct Block {
  int size = 0;
  std::array<P, 4> tops{};  // labels A, B, C, D
  std::vector<Edge> edges;
};

// Directed links of the XY path a -> b in a mesh of `side`, as from_index * 4 + direction.
std::vector<int> xy_links(P a, P b, int side) {
  std::vector<int> out;
  P c = a;
  while (c.x != b.x) {
    const int dir = b.x > c.x ? 0 : 1;
    out.push_back((c.x + c.y * side) * 4 + dir);
    c.x += b.x > c.x ? 1 : -1;
  }
  while (c.y != b.y) {
    const int dir = b.y > c.y ? 2 : 3;
    out.push_back((c.x + c.y * side) * 4 + dir);
    c.y += b.y > c.y ? 1 : -1;
  }
  return out;
}

// Assigns each target to one of the senders (at most three each) so that all XY paths are
// link-disjoint (seed 000 Definition 2). Throws if the pattern admits no such assignment.
std::vector<Edge> assign(const std::array<P, 4>& senders, const std::vector<P>& targets, int side,
                         int level) {
  std::vector<int> owner(targets.size(), -1);
  std::array<int, 4> load{};
  std::set<int> used;
  std::vector<std::vector<int>> paths(targets.size() * 4);
  for (std::size_t t = 0; t < targets.size(); ++t)
    for (std::size_t s = 0; s < 4; ++s) paths[t * 4 + s] = xy_links(senders[s], targets[t], side);
  std::function<bool(std::size_t)> place = [&](std::size_t t) -> bool {
    if (t == targets.size()) return true;
    // Try the senders nearest to the target first.
    std::array<std::size_t, 4> order{0, 1, 2, 3};
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return paths[t * 4 + a].size() < paths[t * 4 + b].size();
    });
    for (std::size_t s : order) {
      if (load[s] == 3) continue;
      const std::vector<int>& path = paths[t * 4 + s];
      if (std::any_of(path.begin(), path.end(), [&](int l) { return used.count(l) > 0; })) continue;
      for (int l : path) used.insert(l);
      ++load[s];
      owner[t] = static_cast<int>(s);
      if (place(t + 1)) return true;
      for (int l : path) used.erase(l);
      --load[s];
    }
    return false;
  };
  if (!place(0))
    throw std::logic_error("EDN: no link-disjoint assignment of level-" +
                           std::to_string(level - 1) + " nodes in a " + std::to_string(side) +
                           "-wide block");
  std::vector<Edge> out;
  for (std::size_t s = 0; s < 4; ++s)
    for (std::size_t t = 0; t < targets.size(); ++t)
      if (owner[t] == static_cast<int>(s)) out.push_back({senders[s], targets[t], level});
  return out;
}

// Pattern B of Fig. 3.6 in a 4x4 block, or its mirror image A.
Block four_by_four(bool mirror) {
  Block b;
  b.size = 4;
  const std::array<P, 4> dom{{{1, 0}, {3, 1}, {0, 2}, {2, 3}}};
  for (std::size_t i = 0; i < 4; ++i) {
    P d = dom[i];
    if (mirror) d.x = 3 - d.x;
    b.tops[i] = d;
    const P nbr[4] = {{d.x + 1, d.y}, {d.x - 1, d.y}, {d.x, d.y + 1}, {d.x, d.y - 1}};
    for (const P& n : nbr)
      if (n.x >= 0 && n.x < 4 && n.y >= 0 && n.y < 4) b.edges.push_back({d, n, 1});
  }
  return b;
}

Block place(const Block& src, const std::function<P(P)>& f) {
  Block out;
  out.size = src.size;
  for (std::size_t i = 0; i < 4; ++i) out.tops[i] = f(src.tops[i]);
  for (const Edge& e : src.edges) out.edges.push_back({f(e.from), f(e.to), e.level});
  return out;
}

void merge(Block& into, const Block& part) {
  into.edges.insert(into.edges.end(), part.edges.begin(), part.edges.end());
}

Block build(int k) {
  if (k == 2) return four_by_four(false);
  Block b;
  b.size = 1 << k;
  std::array<Block, 4> quads;  // UL, UR, LL, LR
  if (k == 3) {
    // Pattern D of Fig. 3.8(b): B blocks on the left, A blocks on the right.
    const Block bb = four_by_four(false), aa = four_by_four(true);
    quads[0] = bb;
    quads[1] = place(aa, [](P p) { return P{p.x + 4, p.y}; });
    quads[2] = place(bb, [](P p) { return P{p.x, p.y + 4}; });
    quads[3] = place(aa, [](P p) { return P{p.x + 4, p.y + 4}; });
    b.tops = {{{1, 0}, {6, 0}, {2, 7}, {5, 7}}};
  } else {
    const Block sub = build(k - 1);
    const int n = b.size, h = n / 2;
    quads[0] = sub;
    quads[1] = place(sub, [n](P p) { return P{n - 1 - p.x, p.y}; });
    quads[2] = place(sub, [n, h](P p) { return P{h - 1 - p.x, n - 1 - p.y}; });
    quads[3] = place(sub, [n](P p) { return P{n - 1 - p.x, n - 1 - p.y}; });
    // Appendix A recurrence.
    b.tops = {quads[0].tops[2], quads[1].tops[2], quads[2].tops[2], quads[3].tops[3]};
  }
  std::vector<P> targets;
  for (const Block& q : quads) {
    merge(b, q);
    for (const P& t : q.tops)
      if (std::find(b.tops.begin(), b.tops.end(), t) == b.tops.end()) targets.push_back(t);
  }
  if (targets.size() != 12)
    throw std::logic_error("EDN: the top nodes of a " + std::to_string(b.size) +
                           "-wide block are not among its quadrants' top nodes");
  const std::vector<Edge> top = assign(b.tops, targets, b.size, k - 1);
  b.edges.insert(b.edges.end(), top.begin(), top.end());
  return b;
}

}  // namespace

EdnPattern::EdnPattern(int k) : side_(1 << k) {
  if (k < 2 || k > 10) throw std::invalid_argument("EDN pattern needs 2 <= k <= 10");
  const Block b = build(k);
  const std::size_t n = static_cast<std::size_t>(side_) * static_cast<std::size_t>(side_);
  level_.assign(n, 0);
  children_.assign(n, {});
  child_level_.assign(n, {});
  auto id = [this](P p) { return static_cast<NodeId>(p.x + p.y * side_); };
  std::vector<Edge> edges = b.edges;
  std::stable_sort(edges.begin(), edges.end(),
                   [](const Edge& a, const Edge& c) { return a.level > c.level; });
  std::vector<int> received(n, 0);
  for (const Edge& e : edges) {
    children_[id(e.from)].push_back(id(e.to));
    child_level_[id(e.from)].push_back(e.level);
    level_[id(e.from)] = std::max(level_[id(e.from)], e.level);
    ++received[id(e.to)];
  }
  for (std::size_t i = 0; i < 4; ++i) {
    tops_[i] = id(b.tops[i]);
    level_[tops_[i]] = k - 1;
  }
  // Every node except the four top nodes has exactly one parent.
  for (std::size_t v = 0; v < n; ++v) {
    const bool top = std::find(tops_.begin(), tops_.end(), static_cast<NodeId>(v)) != tops_.end();
    if (received[v] != (top ? 0 : 1))
      throw std::logic_error("EDN: node " + std::to_string(v) + " has " +
                             std::to_string(received[v]) + " parents in the " +
                             std::to_string(side_) + "x" + std::to_string(side_) + " pattern");
  }
}

std::vector<int> EdnPattern::xy_path(NodeId a, NodeId b) const {
  return xy_links({static_cast<int>(a) % side_, static_cast<int>(a) / side_},
                  {static_cast<int>(b) % side_, static_cast<int>(b) / side_}, side_);
}

EdnPattern::Startup EdnPattern::startup(NodeId root) const {
  std::vector<NodeId> others;
  for (NodeId t : tops_)
    if (t != root) others.push_back(t);
  auto disjoint = [&](const std::vector<std::pair<NodeId, NodeId>>& sends) {
    std::set<int> used;
    for (const auto& [s, r] : sends)
      for (int l : xy_path(s, r))
        if (!used.insert(l).second) return false;
    return true;
  };
  auto hops = [&](const std::vector<std::pair<NodeId, NodeId>>& sends) {
    std::size_t h = 0;
    for (const auto& [s, r] : sends) h += xy_path(s, r).size();
    return h;
  };
  Startup best;
  // Score, smaller is better: (step-2 conflicts, busiest sender's sends, -step-1 size, hops).
  std::tuple<int, int, int, std::size_t> best_score{1 << 30, 0, 0, 0};
  for_each_two_step_startup(
      root, others, true, disjoint, [&](const Sends& step1, const Sends& step2, int busiest) {
        const int conflicts = disjoint(step2) ? 0 : 1;
        const auto score = std::make_tuple(conflicts, busiest, -static_cast<int>(step1.size()),
                                           hops(step1) + hops(step2));
        if (score < best_score) {
          best_score = score;
          best = {step1, step2};
        }
      });
  return best;
}

std::vector<std::vector<NodeId>> EdnPattern::children(NodeId root, NodeId self) const {
  std::vector<std::vector<NodeId>> out;
  auto add = [&](std::vector<NodeId> group) {
    if (!group.empty()) out.push_back(std::move(group));
  };
  // Only the root and the top nodes take part in the startup phase.
  if (self == root || std::find(tops_.begin(), tops_.end(), self) != tops_.end()) {
    const Startup s = startup(root);
    for (const auto* step : {&s.step1, &s.step2}) {
      std::vector<NodeId> group;
      for (const auto& [from, to] : *step)
        if (from == self) group.push_back(to);
      add(std::move(group));
    }
  }
  const std::vector<NodeId>& ch = children_[self];
  const std::vector<int>& lv = child_level_[self];
  for (std::size_t i = 0; i < ch.size();) {
    std::vector<NodeId> group;
    const int level = lv[i];
    for (; i < ch.size() && lv[i] == level; ++i)
      if (ch[i] != root) group.push_back(ch[i]);
    add(std::move(group));
  }
  return out;
}

}  // namespace wormsim::fw
