#include "edn_reduction.h"

#include <algorithm>
#include <functional>
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

EdnReduction::EdnReduction(int k) { from_pattern(k); }

EdnReduction::EdnReduction(const std::vector<int>& dims) {
  if (dims.size() != 2 || dims[0] < 1 || dims[1] < 1)
    throw std::invalid_argument("EDN reduction: needs a 2D mesh {w, h}, w, h >= 1");
  const int w = dims[0];
  if (w == dims[1] && w >= 4 && w <= 1024 && (w & (w - 1)) == 0) {
    int k = 0;
    while ((1 << k) < w) ++k;
    from_pattern(k);
  } else {
    from_mesh(dims);
  }
}

void EdnReduction::from_pattern(int k) {
  const EdnPattern pattern(k);  // validates k
  w_ = h_ = 1 << k;
  tree_height_ = k - 1;
  const int side = w_;
  const auto n = static_cast<std::size_t>(side) * static_cast<std::size_t>(side);
  // 90 degrees: (x, y) -> (side - 1 - y, x).
  const auto rotate = [side](NodeId v) {
    const int x = static_cast<int>(v) % side, y = static_cast<int>(v) / side;
    return static_cast<NodeId>((side - 1 - y) + x * side);
  };
  parent_.assign(n, kNoNode);
  step_.assign(n, 0);
  tree_children_.assign(n, {});
  for (std::size_t v = 0; v < n; ++v)
    for (NodeId c : pattern.tree_children(static_cast<NodeId>(v))) {
      // The broadcast sends v -> c in the step of level(c) + 1 from the bottom; reversed, the
      // rotated child sends to the rotated parent in step level(c) + 1.
      const NodeId rc = rotate(c), rv = rotate(static_cast<NodeId>(v));
      parent_[rc] = rv;
      step_[rc] = pattern.level(c) + 1;
      tree_children_[rv].push_back(rc);
    }
  for (NodeId t : pattern.tops()) tops_.push_back(rotate(t));
  finish();
}

void EdnReduction::from_mesh(const std::vector<int>& dims) {
  w_ = dims[0];
  h_ = dims[1];
  // The descent on the h x w mesh; its node (x, y) lands on (w - 1 - y, x) of the w x h mesh.
  const EdnMesh mesh({h_, w_});
  tree_height_ = mesh.height();
  const int w = w_, h = h_;
  const auto rotate = [w, h](NodeId v) {
    const int x = static_cast<int>(v) % h, y = static_cast<int>(v) / h;
    return static_cast<NodeId>((w - 1 - y) + x * w);
  };
  const auto n = static_cast<std::size_t>(w_) * static_cast<std::size_t>(h_);
  parent_.assign(n, kNoNode);
  step_.assign(n, 0);
  tree_children_.assign(n, {});
  for (std::size_t v = 0; v < n; ++v)
    for (const EdnMesh::TreeSend& t : mesh.tree_sends(static_cast<NodeId>(v))) {
      // Received in descent round r, so it sends up in step height - r + 1, after every node
      // it reached in a later round.
      const NodeId rc = rotate(t.to), rv = rotate(static_cast<NodeId>(v));
      parent_[rc] = rv;
      step_[rc] = tree_height_ - t.round + 1;
      tree_children_[rv].push_back(rc);
    }
  for (NodeId t : mesh.tops()) tops_.push_back(rotate(t));
  finish();
}

void EdnReduction::finish() {
  const std::size_t n = parent_.size();
  subtree_.assign(n, {});
  // Subtrees, children before parents (a parent's step is above all its children's).
  std::vector<NodeId> order(n);
  for (std::size_t v = 0; v < n; ++v) order[v] = static_cast<NodeId>(v);
  const int top_key = tree_height_ + 1;
  std::stable_sort(order.begin(), order.end(), [this, top_key](NodeId a, NodeId b) {
    const int sa = parent_[a] == kNoNode ? top_key : step_[a];
    const int sb = parent_[b] == kNoNode ? top_key : step_[b];
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
  if (covered != n) throw std::logic_error("EDN reduction: the top nodes' subtrees miss nodes");
}

std::vector<int> EdnReduction::xy_path(NodeId a, NodeId b) const {
  std::vector<int> out;
  int x = static_cast<int>(a) % w_, y = static_cast<int>(a) / w_;
  const int bx = static_cast<int>(b) % w_, by = static_cast<int>(b) / w_;
  while (x != bx) {
    out.push_back((x + y * w_) * 4 + (bx > x ? 0 : 1));
    x += bx > x ? 1 : -1;
  }
  while (y != by) {
    out.push_back((x + y * w_) * 4 + (by > y ? 2 : 3));
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
  if (ms == 0) return {};
  std::vector<NodeId> targets = m;
  targets.push_back(root);
  const std::size_t nt = targets.size();
  const std::size_t root_index = ms;
  std::vector<std::vector<int>> path(ms * nt);
  for (std::size_t i = 0; i < ms; ++i)
    for (std::size_t j = 0; j < nt; ++j)
      if (i != j) path[i * nt + j] = xy_path(m[i], targets[j]);
  for (int steps = 1; steps <= 4; ++steps) {
    // Depth-first over (parent, step) per sender, pruning a partial assignment as soon as two
    // sends of one step share a link or a sender would send before it has received. Among the
    // complete ones: fewest messages arriving at one node in one step, then fewest hops, then
    // the smallest assignment (parents, then steps, read as numbers with sender 0 the lowest
    // digit), so the choice does not depend on the search order.
    using Score = std::tuple<int, std::size_t, std::size_t, std::size_t>;
    bool found = false;
    Score best{};
    std::vector<std::size_t> parent(ms), best_parent;
    std::vector<int> step(ms), best_step;
    const auto evaluate = [&] {
      int busiest = 0;
      std::size_t hops = 0, pcode = 0, scode = 0;
      for (std::size_t i = ms; i-- > 0;) {
        int same = 0;
        for (std::size_t j = 0; j < ms; ++j)
          if (parent[j] == parent[i] && step[j] == step[i]) ++same;
        busiest = std::max(busiest, same);
        hops += path[i * nt + parent[i]].size();
        pcode = pcode * nt + parent[i];
        scode = scode * static_cast<std::size_t>(steps) + static_cast<std::size_t>(step[i] - 1);
      }
      const Score score{busiest, hops, pcode, scode};
      if (!found || score < best) {
        found = true;
        best = score;
        best_parent = parent;
        best_step = step;
      }
    };
    const std::function<void(std::size_t)> assign = [&](std::size_t i) {
      if (i == ms) {
        evaluate();
        return;
      }
      for (std::size_t p = 0; p < nt; ++p) {
        if (p == i) continue;
        for (int s = 1; s <= steps; ++s) {
          bool ok = true;
          for (std::size_t j = 0; j < i && ok; ++j) {
            if (step[j] == s && !disjoint(path[i * nt + p], path[j * nt + parent[j]])) ok = false;
            if (parent[j] == i && s <= step[j]) ok = false;  // i sends after j's arrival
            if (p == j && step[j] <= s) ok = false;          // j forwards after i's arrival
          }
          if (!ok) continue;
          parent[i] = p;
          step[i] = s;
          assign(i + 1);
        }
      }
    };
    assign(0);
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
