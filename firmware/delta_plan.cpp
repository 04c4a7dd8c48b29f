// Seed 002's one-to-all and all-to-one plans (delta_plan.h). Every rule that the seed leaves
// open is the reading of docs/drafts/issue19-spec.md, labelled RECONSTRUCTED where it is one.
#include "delta_plan.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <stdexcept>

namespace wormsim::fw {

namespace {

using A = CollectiveAlgorithm;

struct Rect {
  int y0 = 0, x0 = 0, h = 0, w = 0;
};

class Mesh {
 public:
  Mesh(int rows, int cols) : rows_(rows), cols_(cols) {}
  int rows() const { return rows_; }
  int cols() const { return cols_; }
  int p() const { return rows_ * cols_; }
  NodeId id(int y, int x) const { return static_cast<NodeId>(y * cols_ + x); }
  int y(NodeId n) const { return static_cast<int>(n) / cols_; }
  int x(NodeId n) const { return static_cast<int>(n) % cols_; }
  int distance(NodeId a, NodeId b) const { return std::abs(y(a) - y(b)) + std::abs(x(a) - x(b)); }
  // The nodes of a rectangle in increasing id order.
  std::vector<NodeId> nodes(const Rect& r) const {
    std::vector<NodeId> out;
    for (int yy = r.y0; yy < r.y0 + r.h; ++yy)
      for (int xx = r.x0; xx < r.x0 + r.w; ++xx) out.push_back(id(yy, xx));
    return out;
  }
  std::vector<NodeId> all_but(NodeId root) const {
    std::vector<NodeId> out;
    for (int n = 0; n < p(); ++n)
      if (static_cast<NodeId>(n) != root) out.push_back(static_cast<NodeId>(n));
    return out;
  }

 private:
  int rows_, cols_;
};

// Collects a scatter tree's sends; finish() puts each node's sends in R1 order.
class ScatterBuilder {
 public:
  explicit ScatterBuilder(const Mesh& mesh) : mesh_(mesh) {
    const auto p = static_cast<std::size_t>(mesh.p());
    plan_.sends.resize(p);
    plan_.parent.assign(p, kNoNode);
    plan_.receives.resize(p);
  }
  void send(NodeId from, NodeId to, std::vector<NodeId> carries, int step) {
    if (plan_.parent[to] != kNoNode || from == to)
      throw std::logic_error("delta_plan: node " + std::to_string(to) + " is sent to twice");
    plan_.parent[to] = from;
    plan_.receives[to] = carries;
    plan_.sends[from].push_back({to, std::move(carries), step});
  }
  ScatterPlan finish(NodeId root) {
    for (std::size_t n = 0; n < plan_.sends.size(); ++n) {
      const auto from = static_cast<NodeId>(n);
      std::stable_sort(plan_.sends[n].begin(), plan_.sends[n].end(),
                       [&](const PlanSend& a, const PlanSend& b) {
                         if (a.step != b.step) return a.step < b.step;
                         const int da = mesh_.distance(from, a.to), db = mesh_.distance(from, b.to);
                         if (da != db) return da > db;
                         return a.to < b.to;
                       });
      if (static_cast<NodeId>(n) != root && plan_.parent[n] == kNoNode)
        throw std::logic_error("delta_plan: node " + std::to_string(n) + " receives nothing");
    }
    return std::move(plan_);
  }

 private:
  const Mesh& mesh_;
  ScatterPlan plan_;
};

// 2-lev-rec inside `r` from holder h, starting in superstep t (seed 002 section 3.2, Fig. 1):
// h sends each other row of r (its blocks in id order) to that row's node in h's column, then
// every node of h's column sends each node of its row its block.
void two_lev_rec(const Mesh& m, ScatterBuilder& b, const Rect& r, NodeId h, int t) {
  for (int yy = r.y0; yy < r.y0 + r.h; ++yy)
    if (yy != m.y(h)) b.send(h, m.id(yy, m.x(h)), m.nodes({yy, r.x0, 1, r.w}), t);
  for (int yy = r.y0; yy < r.y0 + r.h; ++yy)
    for (int xx = r.x0; xx < r.x0 + r.w; ++xx)
      if (xx != m.x(h)) b.send(m.id(yy, m.x(h)), m.id(yy, xx), {m.id(yy, xx)}, t + 1);
}

// logp-lev-sq's binomial tree in `r` from holder h, superstep t (seed 002 sections 3.1, 3.2;
// spec 2.1.6). RECONSTRUCTED: cut the columns when w >= h, else the rows; the first half has
// the larger side when the side is odd; the other half's leader is h's offset in it (clamped to
// its size when the halves differ). `whole`, when set, is what every message carries (our-br);
// otherwise a message carries the other half's blocks.
void halve(const Mesh& m, ScatterBuilder& b, const Rect& r, NodeId h, int t,
           const std::vector<NodeId>* whole) {
  if (r.h * r.w <= 1) return;
  Rect own = r, other = r;
  NodeId leader = kNoNode;
  if (r.w >= r.h) {
    const int first = (r.w + 1) / 2;
    const bool in_first = m.x(h) < r.x0 + first;
    own = in_first ? Rect{r.y0, r.x0, r.h, first} : Rect{r.y0, r.x0 + first, r.h, r.w - first};
    other = in_first ? Rect{r.y0, r.x0 + first, r.h, r.w - first} : Rect{r.y0, r.x0, r.h, first};
    const int offset = m.x(h) - own.x0;
    leader = m.id(m.y(h), other.x0 + std::min(offset, other.w - 1));
  } else {
    const int first = (r.h + 1) / 2;
    const bool in_first = m.y(h) < r.y0 + first;
    own = in_first ? Rect{r.y0, r.x0, first, r.w} : Rect{r.y0 + first, r.x0, r.h - first, r.w};
    other = in_first ? Rect{r.y0 + first, r.x0, r.h - first, r.w} : Rect{r.y0, r.x0, first, r.w};
    const int offset = m.y(h) - own.y0;
    leader = m.id(other.y0 + std::min(offset, other.h - 1), m.x(h));
  }
  b.send(h, leader, whole != nullptr ? *whole : m.nodes(other), t);
  halve(m, b, own, h, t + 1, whole);
  halve(m, b, other, leader, t + 1, whole);
}

// floor(gamma * n), robust to gamma's binary representation (0.6 * 5 is 3).
int gamma_floor(double gamma, int n) {
  return static_cast<int>(std::floor(gamma * static_cast<double>(n) + 1e-9));
}

std::vector<NodeId> snake_range(const Mesh& m, int lo, int hi) {
  std::vector<NodeId> out;
  for (int i = lo; i < hi; ++i) out.push_back(snake_node(m.cols(), i));
  return out;
}

// logp-lev-rec(gamma) over the snake range [lo, hi) from snake index s (seed 002 sections 3.1,
// 3.2, Fig. 1; spec 2.1.7). RECONSTRUCTED: n_A = max(ceil(n/2), min(n-1, floor(gamma n)));
// the holder's part is the n_A smallest indices when s - lo < n_A, else the n_A largest; the
// other part's leader is its index next to the holder's part.
void snake_split(const Mesh& m, ScatterBuilder& b, int lo, int hi, int s, double gamma, int t) {
  const int n = hi - lo;
  if (n <= 1) return;
  const int na = std::max((n + 1) / 2, std::min(n - 1, gamma_floor(gamma, n)));
  int alo = lo, ahi = lo + na, blo = lo + na, bhi = hi, leader = lo + na;
  if (s - lo >= na) {
    alo = hi - na;
    ahi = hi;
    blo = lo;
    bhi = hi - na;
    leader = hi - na - 1;
  }
  b.send(snake_node(m.cols(), s), snake_node(m.cols(), leader), snake_range(m, blo, bhi), t);
  snake_split(m, b, alo, ahi, s, gamma, t + 1);
  snake_split(m, b, blo, bhi, leader, gamma, t + 1);
}

bool pow2(int v) { return v > 0 && (v & (v - 1)) == 0; }

int floor_log2(int v) {
  int k = 0;
  while ((2 << k) <= v) ++k;
  return k;
}

// The scatter tree of a one-to-all algorithm or of the one-to-all counterpart of an
// all-to-one algorithm (seed 002 section 4.1: "the role of the sends and receives reversed").
ScatterPlan scatter_tree(const Mesh& m, NodeId root, A alg, double gamma) {
  ScatterBuilder b(m);
  const Rect whole{0, 0, m.rows(), m.cols()};
  switch (alg) {
    case A::kO2a1LevDir:
    case A::kGatherDirect:
      // Fig. 1: "The source processor issues p-1 sends, one to each distinct destination."
      for (NodeId d : m.all_but(root)) b.send(root, d, {d}, 1);
      break;
    case A::kO2a1LevSysBr: {
      // RECONSTRUCTED stand-in for "the system's broadcast" (section 3.2, undocumented): a
      // 2-level direct broadcast of the whole L(p-1) message, down the root's column, then
      // along every row (spec 1.2: about 25 sequential full transfers; 15 + 15 on 16x16).
      const std::vector<NodeId> all = m.all_but(root);
      for (int yy = 0; yy < m.rows(); ++yy)
        if (yy != m.y(root)) b.send(root, m.id(yy, m.x(root)), all, 1);
      for (int yy = 0; yy < m.rows(); ++yy)
        for (int xx = 0; xx < m.cols(); ++xx)
          if (xx != m.x(root)) b.send(m.id(yy, m.x(root)), m.id(yy, xx), all, 2);
      break;
    }
    case A::kO2a1LevOurBr: {
      // "a broadcasting tree in the form of a binomial heap" (section 3.2). RECONSTRUCTED: the
      // tree of logp-lev-sq, every message the whole L(p-1) (spec 2.1.3).
      const std::vector<NodeId> all = m.all_but(root);
      halve(m, b, whole, root, 1, &all);
      break;
    }
    case A::kO2a2LevRec:
    case A::kA2o2LevRec: two_lev_rec(m, b, whole, root, 1); break;
    case A::kO2a3LevSq:
    case A::kA2o3LevSq: {
      // Section 3.2: "If the source processor is in row i and column j of a submachine, then
      // the processor in row i and column j of each submachine is the leader"; the blocks are
      // spec section 0's (RECONSTRUCTED beyond 4x4 and 16x16).
      const SqBlock q = sq_block(m.rows(), m.cols());
      const int oy = m.y(root) % q.rows, ox = m.x(root) % q.cols;
      for (int by = 0; by < m.rows(); by += q.rows)
        for (int bx = 0; bx < m.cols(); bx += q.cols) {
          const Rect blk{by, bx, q.rows, q.cols};
          const NodeId leader = m.id(by + oy, bx + ox);
          if (leader != root) b.send(root, leader, m.nodes(blk), 1);
        }
      for (int by = 0; by < m.rows(); by += q.rows)
        for (int bx = 0; bx < m.cols(); bx += q.cols)
          two_lev_rec(m, b, {by, bx, q.rows, q.cols}, m.id(by + oy, bx + ox), 2);
      break;
    }
    case A::kO2aLogpLevSq:
    case A::kA2oLogpLevSq: halve(m, b, whole, root, 1, nullptr); break;
    case A::kO2aLogpLevRec:
      snake_split(m, b, 0, m.p(), snake_index(m.cols(), root), gamma, 1);
      break;
    default:
      throw std::logic_error("delta_plan: not a seed 002 one-to-all or all-to-one algorithm");
  }
  return b.finish(root);
}

// A gather tree from parent edges: carries and children filled in, steps by height.
class GatherBuilder {
 public:
  explicit GatherBuilder(int p) {
    const auto n = static_cast<std::size_t>(p);
    plan_.parent.assign(n, kNoNode);
    plan_.carries.resize(n);
    plan_.children.resize(n);
    plan_.step.assign(n, 0);
  }
  void edge(NodeId from, NodeId to, std::vector<NodeId> carries) {
    if (plan_.parent[from] != kNoNode || from == to)
      throw std::logic_error("delta_plan: node " + std::to_string(from) + " sends twice");
    plan_.parent[from] = to;
    plan_.carries[from] = std::move(carries);
    plan_.children[to].push_back(from);
  }
  GatherPlan finish(NodeId root) {
    const std::function<int(NodeId)> height = [&](NodeId v) {
      int h = 0;
      for (NodeId c : plan_.children[v]) h = std::max(h, height(c));
      return h + 1;
    };
    for (std::size_t n = 0; n < plan_.parent.size(); ++n) {
      const auto v = static_cast<NodeId>(n);
      if (v == root) continue;
      if (plan_.parent[n] == kNoNode)
        throw std::logic_error("delta_plan: node " + std::to_string(n) + " sends nothing");
      plan_.step[n] = height(v);
      std::sort(plan_.children[n].begin(), plan_.children[n].end());
    }
    std::sort(plan_.children[root].begin(), plan_.children[root].end());
    return std::move(plan_);
  }

 private:
  GatherPlan plan_;
};

// All-to-one logp-lev-rec(gamma), 0 < gamma < 1 (seed 002 section 4; spec 2.2): gathers the
// snake range [lo, hi) to snake index d. n_A = min(n-1, max(1, floor(gamma n))); d's part is
// the n_A smallest or largest indices, the other part gathers to its index next to it. When d
// is in neither (gamma < 0.5, or 0.5 on an odd range), "one submachine contains the first d - 1 processors
// and executes an all-to-one communication with P_{d-1} as destination" (RECONSTRUCTED off by
// one: [lo, d) to d - 1, which then sends its d - lo blocks to d; [d, hi) to d).
void snake_gather(const Mesh& m, GatherBuilder& g, int lo, int hi, int d, double gamma) {
  const int n = hi - lo;
  if (n <= 1) return;
  const int na = std::min(n - 1, std::max(1, gamma_floor(gamma, n)));
  if (d - lo < na || d >= hi - na) {
    const bool low = d - lo < na;
    const int blo = low ? lo + na : lo, bhi = low ? hi : hi - na;
    const int leader = low ? lo + na : hi - na - 1;
    g.edge(snake_node(m.cols(), leader), snake_node(m.cols(), d), snake_range(m, blo, bhi));
    snake_gather(m, g, low ? lo : hi - na, low ? lo + na : hi, d, gamma);
    snake_gather(m, g, blo, bhi, leader, gamma);
    return;
  }
  g.edge(snake_node(m.cols(), d - 1), snake_node(m.cols(), d), snake_range(m, lo, d));
  snake_gather(m, g, lo, d, d - 1, gamma);
  snake_gather(m, g, d, hi, d, gamma);
}

}  // namespace

SqBlock sq_block(int rows, int cols) {
  const int q = 1 << (floor_log2(rows * cols) / 2);
  const int br = 1 << (floor_log2(q) / 2);
  return {br, q / br};
}

std::string delta_plan_unsupported(int rows, int cols, CollectiveAlgorithm alg) {
  if (rows < 1 || cols < 1 || rows * cols < 2) return "the mesh needs at least 2 nodes";
  if (alg == A::kO2a3LevSq || alg == A::kA2o3LevSq) {
    const SqBlock q = sq_block(rows, cols);
    if (!pow2(rows) || !pow2(cols) || q.rows > rows || q.cols > cols)
      return "3-lev-sq needs power-of-two sides that hold its " + std::to_string(q.rows) + " x " +
             std::to_string(q.cols) + " blocks";
  }
  return {};
}

int snake_index(int cols, NodeId n) {
  const int y = static_cast<int>(n) / cols, x = static_cast<int>(n) % cols;
  return y * cols + (y % 2 == 0 ? x : cols - 1 - x);
}

NodeId snake_node(int cols, int index) {
  const int y = index / cols, k = index % cols;
  return static_cast<NodeId>(y * cols + (y % 2 == 0 ? k : cols - 1 - k));
}

ScatterPlan o2a_plan(int rows, int cols, NodeId root, CollectiveAlgorithm alg, double gamma) {
  if (kind_of(alg) != CollectiveKind::kScatter || !is_seed002_o2a_a2o(alg))
    throw std::logic_error("o2a_plan: " + to_string(alg) + " is not a seed 002 one-to-all");
  const std::string why = delta_plan_unsupported(rows, cols, alg);
  if (!why.empty()) throw std::logic_error("o2a_plan: " + why);
  const Mesh m(rows, cols);
  return scatter_tree(m, root, alg, gamma);
}

GatherPlan a2o_plan(int rows, int cols, NodeId root, CollectiveAlgorithm alg, double gamma) {
  if (kind_of(alg) != CollectiveKind::kGather)
    throw std::logic_error("a2o_plan: " + to_string(alg) + " is not an all-to-one");
  const std::string why = delta_plan_unsupported(rows, cols, alg);
  if (!why.empty()) throw std::logic_error("a2o_plan: " + why);
  const Mesh m(rows, cols);
  GatherBuilder g(m.p());
  if (alg == A::kA2oLogpLevRec) {
    snake_gather(m, g, 0, m.p(), snake_index(cols, root), gamma);
  } else {
    // The one-to-all tree with sends and receives reversed (seed 002 section 4.1): a node's
    // message holds the blocks its one-to-all message held, its subtree's.
    const ScatterPlan s = scatter_tree(m, root, alg, gamma);
    for (std::size_t n = 0; n < s.parent.size(); ++n)
      if (s.parent[n] != kNoNode) g.edge(static_cast<NodeId>(n), s.parent[n], s.receives[n]);
  }
  return g.finish(root);
}

}  // namespace wormsim::fw
