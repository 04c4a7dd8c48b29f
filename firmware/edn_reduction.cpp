#include "edn_reduction.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <tuple>

namespace wormsim::fw {

namespace {

std::vector<NodeId> merged(const std::vector<NodeId>& a, const std::vector<NodeId>& b) {
  std::vector<NodeId> out;
  out.reserve(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

bool disjoint(const std::vector<int>& a, const std::vector<int>& b) {
  for (int l : a)
    if (std::find(b.begin(), b.end(), l) != b.end()) return false;
  return true;
}

}  // namespace

EdnReduction::EdnReduction(int k) : k_(k), side_(1 << k) {
  const EdnPattern pattern(k);  // validates k
  const auto n = static_cast<std::size_t>(side_) * static_cast<std::size_t>(side_);
  // 90 degrees: (x, y) -> (side - 1 - y, x).
  const auto rotate = [this](NodeId v) {
    const int x = static_cast<int>(v) % side_, y = static_cast<int>(v) / side_;
    return static_cast<NodeId>((side_ - 1 - y) + x * side_);
  };
  parent_.assign(n, kNoNode);
  step_.assign(n, 0);
  tree_children_.assign(n, {});
  subtree_.assign(n, {});
  for (std::size_t v = 0; v < n; ++v)
    for (NodeId c : pattern.tree_children(static_cast<NodeId>(v))) {
      // The broadcast sends v -> c in the step of level(c) + 1 from the bottom; reversed, the
      // rotated child sends to the rotated parent in step level(c) + 1.
      const NodeId rc = rotate(c), rv = rotate(static_cast<NodeId>(v));
      parent_[rc] = rv;
      step_[rc] = pattern.level(c) + 1;
      tree_children_[rv].push_back(rc);
    }
  for (std::size_t i = 0; i < 4; ++i) tops_[i] = rotate(pattern.tops()[i]);
  // Subtrees, children before parents (a parent's step is above all its children's).
  std::vector<NodeId> order(n);
  for (std::size_t v = 0; v < n; ++v) order[v] = static_cast<NodeId>(v);
  std::stable_sort(order.begin(), order.end(), [this](NodeId a, NodeId b) {
    const int sa = parent_[a] == kNoNode ? k_ : step_[a];
    const int sb = parent_[b] == kNoNode ? k_ : step_[b];
    return sa < sb;
  });
  for (NodeId v : order) {
    std::vector<NodeId> s{v};
    for (NodeId c : tree_children_[v]) {
      if (parent_[v] != kNoNode && step_[c] >= step_[v])
        throw std::logic_error("EDN reduction: node " + std::to_string(c) +
                               " sends after its parent " + std::to_string(v));
      s = merged(s, subtree_[c]);
    }
    subtree_[v] = std::move(s);
  }
  std::size_t covered = 0;
  for (NodeId t : tops_) covered += subtree_[t].size();
  if (covered != n) throw std::logic_error("EDN reduction: the four subtrees miss nodes");
}

std::vector<int> EdnReduction::xy_path(NodeId a, NodeId b) const {
  std::vector<int> out;
  int x = static_cast<int>(a) % side_, y = static_cast<int>(a) / side_;
  const int bx = static_cast<int>(b) % side_, by = static_cast<int>(b) / side_;
  while (x != bx) {
    out.push_back((x + y * side_) * 4 + (bx > x ? 0 : 1));
    x += bx > x ? 1 : -1;
  }
  while (y != by) {
    out.push_back((x + y * side_) * 4 + (by > y ? 2 : 3));
    y += by > y ? 1 : -1;
  }
  return out;
}

std::vector<EdnSend> EdnReduction::completion(NodeId root) const {
  // The senders: the top nodes other than the root. Each sends once, to another top node or
  // to the root, after everything it receives (a tree over {tops, root}).
  std::vector<NodeId> m;
  for (NodeId t : tops_)
    if (t != root) m.push_back(t);
  const std::size_t ms = m.size();
  std::vector<NodeId> targets = m;
  targets.push_back(root);
  std::vector<std::vector<int>> path(ms * targets.size());
  for (std::size_t i = 0; i < ms; ++i)
    for (std::size_t j = 0; j < targets.size(); ++j)
      if (i != j) path[i * targets.size() + j] = xy_path(m[i], targets[j]);
  const std::size_t root_index = ms;
  if (ms == 0) return {};
  for (int steps = 1; steps <= 4; ++steps) {
    bool found = false;
    std::tuple<int, std::size_t> best{0, 0};  // (busiest receiver per step, hops)
    std::vector<std::size_t> best_parent;
    std::vector<int> best_step;
    std::size_t parent_combos = 1, step_combos = 1;
    for (std::size_t i = 0; i < ms; ++i) parent_combos *= targets.size();
    for (std::size_t i = 0; i < ms; ++i) step_combos *= static_cast<std::size_t>(steps);
    std::vector<std::size_t> parent(ms);
    std::vector<int> step(ms);
    for (std::size_t pc = 0; pc < parent_combos; ++pc) {
      std::size_t code = pc;
      bool ok = true;
      for (std::size_t i = 0; i < ms; ++i) {
        parent[i] = code % targets.size();
        code /= targets.size();
        if (parent[i] == i) ok = false;
      }
      if (!ok) continue;
      for (std::size_t sc = 0; sc < step_combos; ++sc) {
        code = sc;
        for (std::size_t i = 0; i < ms; ++i) {
          step[i] = 1 + static_cast<int>(code % static_cast<std::size_t>(steps));
          code /= static_cast<std::size_t>(steps);
        }
        // A top node sends after it has received (this also rules out cycles).
        bool valid = true;
        for (std::size_t i = 0; i < ms && valid; ++i)
          if (parent[i] != root_index && step[parent[i]] <= step[i]) valid = false;
        for (std::size_t i = 0; i < ms && valid; ++i)
          for (std::size_t j = i + 1; j < ms && valid; ++j)
            if (step[i] == step[j] && !disjoint(path[i * targets.size() + parent[i]],
                                                path[j * targets.size() + parent[j]]))
              valid = false;
        if (!valid) continue;
        int busiest = 0;
        std::size_t hops = 0;
        for (std::size_t i = 0; i < ms; ++i) {
          int same = 0;
          for (std::size_t j = 0; j < ms; ++j)
            if (parent[j] == parent[i] && step[j] == step[i]) ++same;
          busiest = std::max(busiest, same);
          hops += path[i * targets.size() + parent[i]].size();
        }
        const auto score = std::make_tuple(busiest, hops);
        if (!found || score < best) {
          found = true;
          best = score;
          best_parent = parent;
          best_step = step;
        }
      }
    }
    if (!found) continue;
    // Carries: a top node's subtree plus what it received, in step order.
    std::vector<std::vector<NodeId>> carries(ms);
    for (std::size_t i = 0; i < ms; ++i) carries[i] = carries_of(m[i], root);
    std::vector<EdnSend> out;
    for (int s = 1; s <= steps; ++s)
      for (std::size_t i = 0; i < ms; ++i)
        if (best_step[i] == s) {
          out.push_back({m[i], targets[best_parent[i]], s, carries[i]});
          if (best_parent[i] != root_index)
            carries[best_parent[i]] = merged(carries[best_parent[i]], carries[i]);
        }
    return out;
  }
  throw std::logic_error("EDN reduction: no completion to root " + std::to_string(root) +
                         " in 4 link-disjoint steps");
}

std::vector<NodeId> EdnReduction::carries_of(NodeId v, NodeId root) const {
  const std::vector<NodeId>& s = subtree_[v];
  if (v == root || !std::binary_search(s.begin(), s.end(), root)) return s;
  std::vector<NodeId> out;
  std::set_difference(s.begin(), s.end(), subtree_[root].begin(), subtree_[root].end(),
                      std::back_inserter(out));
  return out;
}

std::vector<EdnSend> EdnReduction::sends(NodeId root) const {
  std::vector<EdnSend> out;
  for (std::size_t v = 0; v < parent_.size(); ++v)
    if (parent_[v] != kNoNode && static_cast<NodeId>(v) != root)
      out.push_back(
          {static_cast<NodeId>(v), parent_[v], step_[v], carries_of(static_cast<NodeId>(v), root)});
  for (EdnSend s : completion(root)) {
    s.step += tree_height();
    out.push_back(std::move(s));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const EdnSend& a, const EdnSend& b) { return a.step < b.step; });
  return out;
}

EdnReduction::Role EdnReduction::role(NodeId root, NodeId self) const {
  Role r;
  for (NodeId c : tree_children_[self])
    if (c != root) r.receives.push_back({c, self, step_[c], carries_of(c, root)});
  if (parent_[self] != kNoNode && self != root)
    r.sends.push_back({self, parent_[self], step_[self], carries_of(self, root)});
  const bool top = std::find(tops_.begin(), tops_.end(), self) != tops_.end();
  if (!top && self != root) return r;
  for (EdnSend s : completion(root)) {
    s.step += tree_height();
    if (s.to == self) r.receives.push_back(s);
    if (s.from == self) r.sends.push_back(std::move(s));
  }
  return r;
}

}  // namespace wormsim::fw
