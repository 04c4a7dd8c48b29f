#include "edn_mesh.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>

#include "dominating_set.h"
#include "two_step_startup.h"

namespace wormsim::fw {

namespace {

using P = std::array<int, 3>;

struct Send {
  P from, to;
  int round;
};

struct Block {
  P size{1, 1, 1};
  std::vector<P> tops;
  std::vector<Send> sends;
  int height = 0;
};

int index_of(const P& p, const P& size) { return p[0] + size[0] * (p[1] + size[1] * p[2]); }

// Directed links of the dimension-ordered (X, then Y, then Z) path a -> b in a box of `size`.
std::vector<int> links(P a, const P& b, const P& size) {
  std::vector<int> out;
  for (int d = 0; d < 3; ++d)
    while (a[d] != b[d]) {
      const bool up = b[d] > a[d];
      out.push_back(index_of(a, size) * 6 + 2 * d + (up ? 0 : 1));
      a[d] += up ? 1 : -1;
    }
  return out;
}

bool all_disjoint(const std::vector<std::vector<int>>& paths) {
  std::set<int> used;
  for (const auto& p : paths)
    for (int l : p)
      if (!used.insert(l).second) return false;
  return true;
}

// Assigns every target to a sender, at most `cap` targets per sender, all paths link-disjoint
// (seed 000 Definition 2). Backtracking with a step budget; nullopt if none found.
std::optional<std::vector<Send>> assign(const std::vector<P>& senders,
                                        const std::vector<P>& targets, const P& size, int cap,
                                        int round, long budget) {
  const std::size_t ns = senders.size(), nt = targets.size();
  std::vector<std::vector<int>> paths(nt * ns);
  for (std::size_t t = 0; t < nt; ++t)
    for (std::size_t s = 0; s < ns; ++s) paths[t * ns + s] = links(senders[s], targets[t], size);
  // Targets with the fewest usable senders first.
  std::vector<std::size_t> order(nt);
  for (std::size_t t = 0; t < nt; ++t) order[t] = t;
  std::vector<std::vector<std::size_t>> choices(nt);
  for (std::size_t t = 0; t < nt; ++t) {
    for (std::size_t s = 0; s < ns; ++s) choices[t].push_back(s);
    std::stable_sort(choices[t].begin(), choices[t].end(), [&](std::size_t a, std::size_t b) {
      return paths[t * ns + a].size() < paths[t * ns + b].size();
    });
  }
  std::vector<int> owner(nt, -1), load(ns, 0);
  std::vector<char> used(static_cast<std::size_t>(size[0] * size[1] * size[2]) * 6, 0);
  std::function<bool(std::size_t)> place = [&](std::size_t i) -> bool {
    if (i == nt) return true;
    if (--budget < 0) return false;
    const std::size_t t = order[i];
    for (std::size_t s : choices[t]) {
      if (load[s] >= cap) continue;
      const std::vector<int>& p = paths[t * ns + s];
      if (std::any_of(p.begin(), p.end(),
                      [&](int l) { return used[static_cast<std::size_t>(l)] != 0; }))
        continue;
      for (int l : p) used[static_cast<std::size_t>(l)] = 1;
      ++load[s];
      owner[t] = static_cast<int>(s);
      if (place(i + 1)) return true;
      for (int l : p) used[static_cast<std::size_t>(l)] = 0;
      --load[s];
    }
    return false;
  };
  if (!place(0)) return std::nullopt;
  std::vector<Send> out;
  for (std::size_t s = 0; s < ns; ++s)
    for (std::size_t t = 0; t < nt; ++t)
      if (owner[t] == static_cast<int>(s)) out.push_back({senders[s], targets[t], round});
  return out;
}

// A top node reaching every other one over disjoint paths in one step (the startup hub).
std::optional<P> hub_of(const std::vector<P>& tops, const P& size) {
  for (const P& h : tops) {
    std::vector<std::vector<int>> paths;
    for (const P& t : tops)
      if (t != h) paths.push_back(links(h, t, size));
    if (all_disjoint(paths)) return h;
  }
  return std::nullopt;
}

// Chooses the fewest top nodes (tmin..tmax) among `cands` that reach all the others in one
// round over disjoint paths, sending ceil(others / tops) each at most; central candidates
// first. With `want_hub`, only sets with a hub. `relaxed` (when nothing else is found): any
// load up to `ports` and a longer search.
std::optional<std::pair<std::vector<P>, std::vector<Send>>> choose_tops(std::vector<P> cands,
                                                                        const P& size, int tmin,
                                                                        int tmax, bool want_hub,
                                                                        int ports, bool relaxed) {
  const int n = static_cast<int>(cands.size());
  if (n <= tmin) return std::make_pair(cands, std::vector<Send>{});
  // Twice the distance from the box centre, then position: deterministic.
  std::stable_sort(cands.begin(), cands.end(), [&](const P& a, const P& b) {
    int da = 0, db = 0;
    for (int d = 0; d < 3; ++d) {
      da += std::abs(2 * a[d] - (size[d] - 1));
      db += std::abs(2 * b[d] - (size[d] - 1));
    }
    return da < db;
  });
  long subsets = 0;
  for (int t = tmin; t <= std::min(tmax, n); ++t) {
    std::vector<int> pick(static_cast<std::size_t>(t));
    for (int i = 0; i < t; ++i) pick[static_cast<std::size_t>(i)] = i;
    while (true) {
      if (++subsets > (relaxed ? 40000 : 4000)) break;
      std::vector<P> tops, rest;
      std::vector<bool> in(static_cast<std::size_t>(n), false);
      for (int i : pick) in[static_cast<std::size_t>(i)] = true;
      for (int i = 0; i < n; ++i)
        (in[static_cast<std::size_t>(i)] ? tops : rest)
            .push_back(cands[static_cast<std::size_t>(i)]);
      const int balanced = (static_cast<int>(rest.size()) + t - 1) / t;
      if (balanced > ports) break;  // each send leaves on its own link
      if (!want_hub || hub_of(tops, size))
        for (int cap = balanced; cap <= (relaxed ? ports : balanced); ++cap)
          if (auto sends = assign(tops, rest, size, cap, 1, relaxed ? 50000 : 5000))
            return std::make_pair(tops, *sends);
      // Next combination.
      int i = t - 1;
      while (i >= 0 && pick[static_cast<std::size_t>(i)] == n - t + i) --i;
      if (i < 0) break;
      ++pick[static_cast<std::size_t>(i)];
      for (int j = i + 1; j < t; ++j)
        pick[static_cast<std::size_t>(j)] = pick[static_cast<std::size_t>(j - 1)] + 1;
    }
  }
  return std::nullopt;
}

// Every minimum dominating set of the w x h grid (w * h <= 64), up to `limit` of them, in
// search order: branch on the dominators of the first undominated node with fewest
// neighbours, for sizes from ceil(w h / 5) up.
std::vector<std::vector<std::array<int, 2>>> minimum_dominating_sets(int w, int h,
                                                                     std::size_t limit) {
  const int n = w * h;
  std::vector<std::uint64_t> closed(static_cast<std::size_t>(n), 0);
  for (int i = 0; i < n; ++i) {
    const int x = i % w, y = i / w;
    const int nb[5][2] = {{0, 0}, {1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    for (const auto& d : nb) {
      const int u = x + d[0], v = y + d[1];
      if (u >= 0 && u < w && v >= 0 && v < h)
        closed[static_cast<std::size_t>(i)] |= std::uint64_t{1} << (u + w * v);
    }
  }
  const std::uint64_t all = n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
  std::set<std::uint64_t> found;
  std::function<void(std::uint64_t, std::uint64_t, int)> rec = [&](std::uint64_t chosen,
                                                                   std::uint64_t covered, int k) {
    if (found.size() >= limit) return;
    if (covered == all) {
      found.insert(chosen);
      return;
    }
    const int open = n - __builtin_popcountll(covered);
    if (k == 0 || open > 5 * k) return;
    int c = -1, best = 6;
    for (int i = 0; i < n; ++i)
      if (!(covered >> i & 1)) {
        const int deg = __builtin_popcountll(closed[static_cast<std::size_t>(i)]);
        if (deg < best) best = deg, c = i;
      }
    for (int d = 0; d < n; ++d)
      if ((closed[static_cast<std::size_t>(c)] >> d & 1) && !(chosen >> d & 1))
        rec(chosen | std::uint64_t{1} << d, covered | closed[static_cast<std::size_t>(d)], k - 1);
  };
  for (int k = (n + 4) / 5; k <= n && found.empty(); ++k) rec(0, 0, k);
  std::vector<std::vector<std::array<int, 2>>> out;
  for (std::uint64_t m : found) {
    std::vector<std::array<int, 2>> set;
    for (int i = 0; i < n; ++i)
      if (m >> i & 1) set.push_back({i % w, i / w});
    out.push_back(set);
  }
  return out;
}

class Builder {
 public:
  explicit Builder(int dims) : dims_(dims) {}

  Block build(const P& size, bool top_level) {
    if (!top_level) {
      const auto it = memo_.find(size);
      if (it != memo_.end()) return it->second;
    }
    Block b = make(size, top_level);
    if (!top_level) memo_[size] = b;
    return b;
  }

 private:
  int tmin() const { return dims_ == 3 ? 4 : 2; }
  int tmax() const { return 6; }
  // The largest basic-block side: 7 in 2D (Fig. 3.11), 5 in 3D (the 4 x 4 x 5 of Fig. 3.21).
  int base_side() const { return dims_ == 3 ? 5 : 7; }

  Block make(const P& size, bool top_level) {
    const bool want_hub = top_level && dims_ == 2;
    if (dims_ == 3 && size[2] > base_side()) {
      const int parts = size[2] >= 12 ? 3 : 2;
      std::vector<int> cuts = split(size[2], parts);
      for (int variant = 0; variant < 4; ++variant) {  // 2, 3: the relaxed search
        std::vector<Part> ps;
        int z = 0;
        for (int i = 0; i < parts; ++i) {
          const P s{size[0], size[1], cuts[static_cast<std::size_t>(i)]};
          ps.push_back({s, {0, 0, z}, {false, false, variant % 2 == 1 && i % 2 == 1}});
          z += s[2];
        }
        if (auto b = combine(ps, size, false, variant >= 2)) return *b;
      }
      throw std::logic_error("EDN: no top nodes for a " + name(size) + " block");
    }
    if (size[0] > base_side() || size[1] > base_side()) {
      const std::vector<int> xs =
          size[0] > base_side() ? split(size[0], 2) : std::vector<int>{size[0]};
      const std::vector<int> ys =
          size[1] > base_side() ? split(size[1], 2) : std::vector<int>{size[1]};
      // Mirror masks per part (ix, iy): centre-symmetric (Fig. 3.9), none, x only, y only,
      // Appendix A's (upper right mirrored, lower quadrants rotated).
      const auto mask = [](int variant, int ix, int iy) -> std::array<bool, 3> {
        switch (variant) {
          case 0: return {ix == 1, iy == 1, false};
          case 1: return {false, false, false};
          case 2: return {ix == 1, false, false};
          case 3: return {false, iy == 1, false};
          default: return {ix == 1 || iy == 1, iy == 1, false};
        }
      };
      // Passes: with a hub if wanted, without, then the relaxed search.
      for (const auto& [hub, relaxed] :
           {std::pair<bool, bool>{want_hub, false}, {false, false}, {false, true}}) {
        for (int variant = 0; variant < 5; ++variant) {
          std::vector<Part> ps;
          int y = 0;
          for (std::size_t iy = 0; iy < ys.size(); ++iy) {
            int x = 0;
            for (std::size_t ix = 0; ix < xs.size(); ++ix) {
              ps.push_back({{xs[ix], ys[iy], size[2]},
                            {x, y, 0},
                            mask(variant, static_cast<int>(ix), static_cast<int>(iy))});
              x += xs[ix];
            }
            y += ys[iy];
          }
          if (auto b = combine(ps, size, hub, relaxed)) return *b;
        }
      }
      throw std::logic_error("EDN: no top nodes for a " + name(size) + " block");
    }
    return base(size, want_hub);
  }

  struct Part {
    P size;
    P offset;
    std::array<bool, 3> mirror;
  };

  static std::vector<int> split(int n, int parts) {
    std::vector<int> out;
    for (int i = 0; i < parts; ++i) out.push_back(n / parts + (i < n % parts ? 1 : 0));
    return out;
  }

  static std::string name(const P& s) {
    return std::to_string(s[0]) + "x" + std::to_string(s[1]) + "x" + std::to_string(s[2]);
  }

  std::optional<Block> combine(const std::vector<Part>& parts, const P& size, bool want_hub,
                               bool relaxed = false) {
    Block b;
    b.size = size;
    std::vector<P> cands;
    for (const Part& part : parts) {
      const Block sub = build(part.size, false);
      const auto place = [&](P p) {
        for (int d = 0; d < 3; ++d)
          p[static_cast<std::size_t>(d)] =
              (part.mirror[static_cast<std::size_t>(d)]
                   ? part.size[static_cast<std::size_t>(d)] - 1 - p[static_cast<std::size_t>(d)]
                   : p[static_cast<std::size_t>(d)]) +
              part.offset[static_cast<std::size_t>(d)];
        return p;
      };
      for (const P& t : sub.tops) cands.push_back(place(t));
      for (const Send& s : sub.sends) b.sends.push_back({place(s.from), place(s.to), s.round + 1});
      b.height = std::max(b.height, sub.height + 1);
    }
    auto tops = choose_tops(cands, size, tmin(), tmax(), want_hub, 2 * dims_, relaxed);
    if (!tops) return std::nullopt;
    b.tops = tops->first;
    if (tops->second.empty()) {
      // Every sub-block top node is a top node: no round of its own.
      for (Send& s : b.sends) --s.round;
      --b.height;
    }
    b.sends.insert(b.sends.end(), tops->second.begin(), tops->second.end());
    return b;
  }

  // The basic block from the candidate dominating set that needs the fewest top nodes (with a
  // hub first when `want_hub`), then the smallest set.
  Block base(const P& size, bool want_hub) {
    std::optional<Block> best;
    std::vector<std::vector<std::array<int, 2>>> planes =
        cockayne_dominating_sets(size[0], size[1]);
    if (size[0] * size[1] <= 64) {
      const auto exact = minimum_dominating_sets(size[0], size[1], 16);
      planes.insert(planes.end(), exact.begin(), exact.end());
    }
    for (bool hub : {want_hub, false}) {
      for (const auto& plane : planes) {
        std::optional<Block> b = base_from(size, plane, hub);
        if (b && (!best || b->height < best->height ||
                  (b->height == best->height && b->tops.size() < best->tops.size())))
          best = b;
        // No smaller set of top nodes exists.
        if (best && (best->height < 2 || static_cast<int>(best->tops.size()) <= tmin())) break;
      }
      if (best || !want_hub) break;
    }
    if (best) return *best;
    throw std::logic_error("EDN: no top nodes for a " + name(size) + " basic block");
  }

  std::optional<Block> base_from(const P& size, const std::vector<std::array<int, 2>>& plane,
                                 bool want_hub) {
    Block b;
    b.size = size;
    std::vector<P> d1;
    std::set<P> in;
    for (int z = 0; z < size[2]; ++z)
      for (const auto& q : plane) {
        // Alternate planes mirrored in x (3D), so that the planes' sets differ.
        const P p{z % 2 == 1 ? size[0] - 1 - q[0] : q[0], q[1], z};
        d1.push_back(p);
        in.insert(p);
      }
    // Last round: every other node from a dominating neighbour in its plane.
    std::vector<Send> last;
    for (int z = 0; z < size[2]; ++z)
      for (int y = 0; y < size[1]; ++y)
        for (int x = 0; x < size[0]; ++x) {
          const P p{x, y, z};
          if (in.count(p)) continue;
          const int nb[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
          for (const auto& d : nb) {
            const P q{x + d[0], y + d[1], z};
            if (in.count(q)) {
              last.push_back({q, p, 0});
              break;
            }
          }
        }
    if (last.empty()) {  // a single node
      b.tops = d1;
      return b;
    }
    if (static_cast<int>(d1.size()) <= 4) {
      // The dominating nodes are the top nodes (the 4 x 4 block of Fig. 3.6).
      b.tops = d1;
      b.height = 1;
      for (Send s : last) b.sends.push_back({s.from, s.to, 1});
      return b;
    }
    auto tops = choose_tops(d1, size, tmin(), tmax(), want_hub, 2 * dims_, false);
    if (!tops) return std::nullopt;
    b.tops = tops->first;
    b.sends = tops->second;
    b.height = 2;
    for (Send s : last) b.sends.push_back({s.from, s.to, 2});
    return b;
  }

  int dims_;
  std::map<P, Block> memo_;
};

}  // namespace

EdnMesh::EdnMesh(std::vector<int> dims) : dims_(std::move(dims)) {
  if (dims_.size() != 2 && dims_.size() != 3)
    throw std::invalid_argument("EDN: the mesh needs 2 or 3 dimensions");
  P size{1, 1, 1};
  std::size_t n = 1;
  for (std::size_t d = 0; d < dims_.size(); ++d) {
    if (dims_[d] < 1 || dims_[d] > 4096) throw std::invalid_argument("EDN: mesh side out of range");
    size[d] = dims_[d];
    n *= static_cast<std::size_t>(dims_[d]);
  }
  Builder builder(static_cast<int>(dims_.size()));
  const Block b = builder.build(size, true);
  height_ = b.height;
  round_.assign(n, -1);
  sends_.assign(n, {});
  for (const P& t : b.tops) {
    tops_.push_back(static_cast<NodeId>(index_of(t, size)));
    round_[tops_.back()] = 0;
  }
  for (const Send& s : b.sends) {
    const auto from = static_cast<NodeId>(index_of(s.from, size));
    const auto to = static_cast<NodeId>(index_of(s.to, size));
    sends_[from].push_back({to, s.round});
    if (round_[to] != -1)
      throw std::logic_error("EDN: node " + std::to_string(to) + " is reached twice");
    round_[to] = s.round;
  }
  for (std::size_t v = 0; v < n; ++v) {
    if (round_[v] < 0)
      throw std::logic_error("EDN: node " + std::to_string(v) + " is never reached");
    std::stable_sort(sends_[v].begin(), sends_[v].end(),
                     [](const TreeSend& a, const TreeSend& c) { return a.round < c.round; });
    for (const TreeSend& s : sends_[v])
      if (s.round <= round_[v])
        throw std::logic_error("EDN: node " + std::to_string(v) + " sends before it receives");
  }
  for (NodeId h : tops_) {
    std::vector<std::vector<int>> paths;
    for (NodeId t : tops_)
      if (t != h) paths.push_back(path(h, t));
    if (all_disjoint(paths)) {
      hub_ = h;
      break;
    }
  }
  startup_steps_.assign(n, 0);
  for (std::size_t r = 0; r < n; ++r) {
    const auto root = static_cast<NodeId>(r);
    std::vector<std::vector<int>> paths;
    for (NodeId t : tops_)
      if (t != root) paths.push_back(path(root, t));
    if (paths.empty())
      startup_steps_[r] = 0;
    else if (all_disjoint(paths))
      startup_steps_[r] = 1;
    else if (hub_ != kNoNode)
      startup_steps_[r] = 2;
    else
      startup_steps_[r] = static_cast<std::uint8_t>(startup(root).steps);
  }
}

std::vector<int> EdnMesh::path(NodeId a, NodeId b) const {
  P size{1, 1, 1}, pa{0, 0, 0}, pb{0, 0, 0};
  for (std::size_t d = 0; d < dims_.size(); ++d) size[d] = dims_[d];
  int ia = static_cast<int>(a), ib = static_cast<int>(b);
  for (std::size_t d = 0; d < 3; ++d) {
    pa[d] = ia % size[d];
    pb[d] = ib % size[d];
    ia /= size[d];
    ib /= size[d];
  }
  return links(pa, pb, size);
}

EdnMesh::Startup EdnMesh::startup(NodeId root) const {
  std::vector<NodeId> others;
  for (NodeId t : tops_)
    if (t != root) others.push_back(t);
  Startup best;
  if (others.empty()) return best;
  const auto disjoint = [&](const std::vector<std::pair<NodeId, NodeId>>& sends) {
    std::vector<std::vector<int>> paths;
    for (const auto& [s, r] : sends) paths.push_back(path(s, r));
    return all_disjoint(paths);
  };
  const auto hops = [&](const std::vector<std::pair<NodeId, NodeId>>& sends) {
    std::size_t h = 0;
    for (const auto& [s, r] : sends) h += path(s, r).size();
    return h;
  };
  // One step.
  {
    Startup s;
    s.steps = 1;
    for (NodeId t : others) s.step1.emplace_back(root, t);
    if (disjoint(s.step1)) return s;
  }
  // Two steps: score (busiest sender's sends, -step-1 size, hops), smaller is better.
  bool found = false;
  std::tuple<int, int, std::size_t> best_score{0, 0, 0};
  for_each_two_step_startup(
      root, others, false, disjoint, [&](const Sends& step1, const Sends& step2, int busiest) {
        if (!disjoint(step2)) return;
        const auto score =
            std::make_tuple(busiest, -static_cast<int>(step1.size()), hops(step1) + hops(step2));
        if (!found || score < best_score) {
          found = true;
          best_score = score;
          best = Startup{};
          best.steps = 2;
          best.step1 = step1;
          best.step2 = step2;
        }
      });
  if (found) return best;
  // Fallback (more than 2 steps; only some odd sizes): every step, each holder in turn sends
  // to every remaining top node whose path is disjoint from the step's paths so far.
  best = Startup{};
  std::vector<NodeId> holders{root}, rest = others;
  std::vector<std::vector<std::pair<NodeId, NodeId>>> steps;
  while (!rest.empty()) {
    std::vector<std::pair<NodeId, NodeId>> step;
    std::set<int> used;
    std::vector<NodeId> reached;
    for (NodeId h : holders)
      for (auto it = rest.begin(); it != rest.end();) {
        const std::vector<int> p = path(h, *it);
        if (std::none_of(p.begin(), p.end(), [&](int l) { return used.count(l) > 0; })) {
          used.insert(p.begin(), p.end());
          step.emplace_back(h, *it);
          reached.push_back(*it);
          it = rest.erase(it);
        } else {
          ++it;
        }
      }
    holders.insert(holders.end(), reached.begin(), reached.end());
    steps.push_back(std::move(step));
  }
  best.steps = static_cast<int>(steps.size());
  best.step1 = steps[0];
  if (steps.size() > 1) best.step2 = steps[1];
  for (std::size_t i = 2; i < steps.size(); ++i) best.later.push_back(steps[i]);
  return best;
}

std::vector<std::vector<NodeId>> EdnMesh::children(NodeId root, NodeId self) const {
  const bool top = std::find(tops_.begin(), tops_.end(), self) != tops_.end();
  Startup st;
  int steps = startup_steps_[root];
  if (self == root || top) st = startup(root);
  // The step in which self holds the message.
  int recv = steps + round_[self];
  std::vector<std::vector<std::pair<NodeId, NodeId>>> by_step{st.step1, st.step2};
  for (const auto& l : st.later) by_step.push_back(l);
  if (self == root) {
    recv = 0;
  } else if (top) {
    for (std::size_t s = 0; s < by_step.size(); ++s)
      for (const auto& [from, to] : by_step[s])
        if (to == self) recv = static_cast<int>(s) + 1;
  }
  std::vector<std::vector<NodeId>> out;
  const auto at = [&](int step) -> std::vector<NodeId>& {
    const int g = step - recv - 1;
    if (g < 0) throw std::logic_error("EDN: a send before the message arrives");
    if (static_cast<int>(out.size()) <= g) out.resize(static_cast<std::size_t>(g) + 1);
    return out[static_cast<std::size_t>(g)];
  };
  for (std::size_t s = 0; s < by_step.size(); ++s)
    for (const auto& [from, to] : by_step[s])
      if (from == self) at(static_cast<int>(s) + 1).push_back(to);
  for (const TreeSend& t : sends_[self])
    if (t.to != root) at(steps + t.round).push_back(t.to);
  while (!out.empty() && out.back().empty()) out.pop_back();
  return out;
}

}  // namespace wormsim::fw
