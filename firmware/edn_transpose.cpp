#include "edn_transpose.h"

#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

namespace wormsim::fw {

namespace {

// Directed links of the XY route (ax, ay) -> (bx, by) in a 4x4 block, as node * 4 + direction
// (0..3 = +x, -x, +y, -y).
std::vector<int> block_xy_links(int ax, int ay, int bx, int by) {
  std::vector<int> out;
  for (; ax != bx; ax += bx > ax ? 1 : -1) out.push_back((ax + 4 * ay) * 4 + (bx > ax ? 0 : 1));
  for (; ay != by; ay += by > ay ? 1 : -1) out.push_back((ax + 4 * ay) * 4 + (by > ay ? 2 : 3));
  return out;
}

// The basic pattern (seed 000 Fig. 3.28(a), RECONSTRUCTED by search): every off-diagonal node
// of a 4x4 block picks a diagonal collector so that the 12 XY paths share no directed link.
// Of all such patterns: fewest hops, then fewest nodes with collector(x, y) != collector(y, x),
// then the first found (nodes in id order, collectors in ascending order).
std::array<int, 16> search_basic_pattern() {
  std::vector<std::pair<int, int>> nodes;  // off-diagonal (x, y), id order
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x)
      if (x != y) nodes.emplace_back(x, y);
  std::array<int, 16> pick{};
  for (int c = 0; c < 4; ++c) pick[static_cast<std::size_t>(c * 5)] = c;
  std::array<bool, 64> used{};
  bool found = false;
  std::tuple<int, int> best{0, 0};
  std::array<int, 16> best_pick{};
  // Depth-first over the nodes; `hops` so far.
  const auto search = [&](const auto& self, std::size_t i, int hops) -> void {
    if (i == nodes.size()) {
      int asymmetric = 0;
      for (const auto& [x, y] : nodes)
        if (pick[static_cast<std::size_t>(x + 4 * y)] != pick[static_cast<std::size_t>(y + 4 * x)])
          ++asymmetric;
      const auto score = std::make_tuple(hops, asymmetric);
      if (!found || score < best) {
        found = true;
        best = score;
        best_pick = pick;
      }
      return;
    }
    const auto [x, y] = nodes[i];
    for (int c = 0; c < 4; ++c) {
      const std::vector<int> links = block_xy_links(x, y, c, c);
      bool free = true;
      for (int l : links) free = free && !used[static_cast<std::size_t>(l)];
      if (!free) continue;
      for (int l : links) used[static_cast<std::size_t>(l)] = true;
      pick[static_cast<std::size_t>(x + 4 * y)] = c;
      self(self, i + 1, hops + static_cast<int>(links.size()));
      for (int l : links) used[static_cast<std::size_t>(l)] = false;
    }
  };
  search(search, 0, 0);
  if (!found) throw std::logic_error("EDN transpose: no link-disjoint 4x4 diagonal gather");
  return best_pick;
}

}  // namespace

EdnTranspose::EdnTranspose(int k) : k_(k), side_(k >= 2 && k <= 10 ? 1 << k : 0) {
  if (side_ == 0)
    throw std::invalid_argument(
        "EDN transpose: the mesh must be 2^k x 2^k with 2 <= k <= 10, not k = " +
        std::to_string(k));
  base_ = search_basic_pattern();
  const auto n = static_cast<std::size_t>(side_) * static_cast<std::size_t>(side_);
  std::vector<int> lx(n), ly(n);  // where each node's block is
  for (std::size_t o = 0; o < n; ++o) {
    lx[o] = static_cast<int>(o) % side_;
    ly[o] = static_cast<int>(o) / side_;
  }
  // The steps: gathers at levels 1 .. k/2, the exchange of the two off-diagonal quadrants
  // (odd k), scatters at levels k/2 .. 1. Level j works on 4^(j-1) sub-blocks.
  enum class Kind { kGather, kExchange, kScatter };
  std::vector<std::pair<Kind, int>> plan;
  const int levels = k / 2;
  for (int j = 1; j <= levels; ++j) plan.emplace_back(Kind::kGather, j);
  if (k % 2 == 1) plan.emplace_back(Kind::kExchange, 0);
  for (int j = levels; j >= 1; --j) plan.emplace_back(Kind::kScatter, j);
  int step = 0;
  for (const auto& [kind, level] : plan) {
    ++step;
    const int s = level > 0 ? 1 << (2 * (level - 1)) : 0;  // 4^(level - 1)
    const int half = side_ / 2;
    // Origins in ascending order, so every message's carries come out ascending.
    std::map<std::pair<NodeId, NodeId>, std::vector<NodeId>> messages;
    for (std::size_t o = 0; o < n; ++o) {
      const int x = lx[o], y = ly[o];
      int tx = x, ty = y;
      if (kind == Kind::kGather) {
        if (x % s != y % s) throw std::logic_error("EDN transpose: a gather off the diagonal");
        const int p = (x / s) % 4, q = (y / s) % 4;
        if (p == q) continue;
        const int c = collector(p, q);
        tx = x + (c - p) * s;
        ty = y + (c - q) * s;
      } else if (kind == Kind::kExchange) {
        if (x / half == y / half) continue;
        if (x % half != y % half)
          throw std::logic_error("EDN transpose: an exchange off the diagonal");
        tx = y;
        ty = x;
      } else {
        const int p = (x / s) % 4, q = (y / s) % 4;
        if (p != q) throw std::logic_error("EDN transpose: a scatter from off the diagonal");
        // Towards the destination, the transposed origin: its sub-block at this level.
        const int dx = static_cast<int>(o) / side_, dy = static_cast<int>(o) % side_;
        const int dp = (dx / s) % 4, dq = (dy / s) % 4;
        if (dp == p && dq == q) continue;
        tx = x + (dp - p) * s;
        ty = y + (dq - q) * s;
      }
      messages[{static_cast<NodeId>(x + y * side_), static_cast<NodeId>(tx + ty * side_)}]
          .push_back(static_cast<NodeId>(o));
      lx[o] = tx;
      ly[o] = ty;
    }
    for (auto& [ends, carries] : messages)
      sends_.push_back({ends.first, ends.second, step, std::move(carries)});
  }
  for (std::size_t o = 0; o < n; ++o)
    if (static_cast<NodeId>(lx[o] + ly[o] * side_) != transposed(static_cast<NodeId>(o)))
      throw std::logic_error("EDN transpose: the block of node " + std::to_string(o) +
                             " ends at the wrong node");
  sent_by_.assign(n, {});
  received_by_.assign(n, {});
  for (std::size_t i = 0; i < sends_.size(); ++i) {
    sent_by_[sends_[i].from].push_back(i);
    received_by_[sends_[i].to].push_back(i);
  }
}

NodeId EdnTranspose::transposed(NodeId n) const {
  const int x = static_cast<int>(n) % side_, y = static_cast<int>(n) / side_;
  return static_cast<NodeId>(y + x * side_);
}

EdnTranspose::Role EdnTranspose::role(NodeId self) const {
  Role r;
  for (std::size_t i : received_by_.at(self)) r.receives.push_back(sends_[i]);
  for (std::size_t i : sent_by_.at(self)) r.sends.push_back(sends_[i]);
  return r;
}

}  // namespace wormsim::fw
