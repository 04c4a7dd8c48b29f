#include "edn_torus_pattern.h"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <utility>

namespace wormsim::fw {

namespace {

struct Off {
  int dx, dy;
};

// Fig. 4.7: Y_a, Y_b, Y_c, in units of delta.
constexpr std::array<Off, 3> kYPattern{{{-1, -1}, {0, 2}, {2, 0}}};
// Fig. 4.8's T_pattern(type, delta), RECONSTRUCTED: the sends of the phase's holder (Y_s) and
// of the Y_a, Y_b, Y_c receivers, in units of delta from the sender, farthest first. Of the
// assignments of the twelve other nodes of the 4x4 grid to the four senders, three each, with
// routes of at most 2 delta hops (the step time of Eq. 4.1) that share no directed link even
// when the grid tiles the torus (Fig. 4.11(c)), there are 12 under the + tie rule; this is the
// first in row-major order of the targets (docs/edn-torus.md). Y_a repeats the Y shape; Y_s and
// Y_b send the "T" shape.
constexpr std::array<std::array<Off, 3>, 4> kTPattern{
    {{{{1, 0}, {-1, 0}, {0, 1}}},     // Y_s, at (0, 0)
     {{{-1, -1}, {0, 2}, {2, 0}}},    // Y_a, at (-1, -1)
     {{{1, 0}, {-1, 0}, {0, 1}}},     // Y_b, at (0, 2)
     {{{-1, 1}, {0, 1}, {0, -1}}}}};  // Y_c, at (2, 0)
// Fig. 4.9 / Corollary 3's proof: the F pattern, delta = 1.
constexpr std::array<Off, 3> kFPattern{{{-1, 1}, {0, 1}, {1, 0}}};

// Fig. 4.12(a) (4x4x7): the six sends of the first step, one per XY plane, as (plane offset,
// dx, dy), in the seed's order. The seed prints the last one as (x, y - 1, z + 1), which would
// share its first link with (x, y - 1, z + 4); every port must carry one message, and +y is
// the one left free, so it is (x, y + 1, z + 1) here (docs/edn-torus.md).
struct Slot {
  int plane, dx, dy;
};
constexpr std::array<Slot, 6> kFirstStep{
    {{3, 0, 0}, {2, 1, 0}, {-2, 0, 0}, {-3, 0, -1}, {-1, -1, 0}, {1, 0, 1}}};
// Lateral moves of a zone holder's sends that do not go straight along z (Fig. 4.12(b)).
constexpr std::array<Off, 4> kLateral{{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}};

int log2_exact(int v) {
  int d = 0;
  while ((1 << d) < v) ++d;
  return (1 << d) == v ? d : -1;
}

int wrap(int v, int k) { return ((v % k) + k) % k; }

// A zone of contiguous planes [lo, hi] (offsets from the root's plane) and its holder.
struct Zone {
  int lo, hi;
  int plane, x, y;  // the holder: plane offset and (x, y) relative to the root
  int step;         // the step in which the holder received
};

// Splits [lo, hi] into n contiguous near-equal parts, the larger first.
std::vector<std::pair<int, int>> split(int lo, int hi, int n) {
  const int size = hi - lo + 1;
  std::vector<std::pair<int, int>> out;
  int at = lo;
  for (int i = 0; i < n; ++i) {
    const int len = size / n + (i < size % n ? 1 : 0);
    out.emplace_back(at, at + len - 1);
    at += len;
  }
  return out;
}

struct Distribution {
  std::vector<PlaneSend> sends;
  std::vector<Zone> planes;  // one zone of one plane per plane: its holder
};

Distribution distribute(int z) {
  Distribution out;
  const int lo = -((z - 1) / 2), hi = z / 2;  // offsets, (-z/2, z/2]
  std::vector<Zone> work;
  if (z <= 7) {
    out.planes.push_back({0, 0, 0, 0, 0, 0});
    for (const Slot& s : kFirstStep)
      if (s.plane >= lo && s.plane <= hi) {
        out.sends.push_back({0, s.plane, s.dx, s.dy, 1});
        out.planes.push_back({s.plane, s.plane, s.plane, s.dx, s.dy, 1});
      }
  } else {
    // Seven zones: the root's, centred on it, of ceil(z/7) planes, and three on each side
    // splitting the rest evenly. The root sends to each zone's plane nearest to it.
    const int own = (z + 6) / 7;
    const int own_lo = -((own - 1) / 2), own_hi = own_lo + own - 1;
    const std::vector<std::pair<int, int>> up = split(own_hi + 1, hi, 3);
    std::vector<std::pair<int, int>> down = split(lo, own_lo - 1, 3);
    std::reverse(down.begin(), down.end());        // nearest first
    work.push_back({own_lo, own_hi, 0, 0, 0, 1});  // free after step 1
    for (const Slot& s : kFirstStep) {
      const int j = std::abs(s.plane) - 1;
      const std::pair<int, int> r =
          s.plane > 0 ? up[static_cast<std::size_t>(j)] : down[static_cast<std::size_t>(j)];
      const int target = s.plane > 0 ? r.first : r.second;
      out.sends.push_back({0, target, s.dx, s.dy, 1});
      work.push_back({r.first, r.second, target, s.dx, s.dy, 1});
    }
  }
  // Zone holders split their zones (Fig. 4.12(b)): at most six sub-zones, one of them the
  // holder's; the farthest sub-zone on each side gets the straight z route, the others a
  // lateral first hop, so every route leaves on its own port and stays within the zone.
  while (!work.empty()) {
    const Zone zn = work.back();
    work.pop_back();
    if (zn.lo == zn.hi) {
      out.planes.push_back(zn);
      continue;
    }
    const auto parts = split(zn.lo, zn.hi, std::min(6, zn.hi - zn.lo + 1));
    std::vector<std::pair<int, int>> below, above;  // farthest first
    for (const auto& p : parts) {
      if (p.second < zn.plane) below.insert(below.begin(), p);
      if (p.first > zn.plane) above.push_back(p);
      if (p.first <= zn.plane && zn.plane <= p.second)
        work.push_back({p.first, p.second, zn.plane, zn.x, zn.y, zn.step + 1});
    }
    std::reverse(above.begin(), above.end());
    std::vector<std::pair<std::pair<int, int>, Off>> sends;  // (sub-zone, lateral)
    std::size_t lateral = 0;
    for (const auto* side : {&above, &below})
      for (std::size_t i = 0; i < side->size(); ++i)
        sends.emplace_back((*side)[i], i == 0 ? Off{0, 0} : kLateral[lateral++]);
    std::stable_sort(sends.begin(), sends.end(), [&](const auto& a, const auto& b) {
      const auto dist = [&](const auto& s) {
        const int t = s.first.first > zn.plane ? s.first.first : s.first.second;
        return std::abs(t - zn.plane) + std::abs(s.second.dx) + std::abs(s.second.dy);
      };
      return dist(a) > dist(b);
    });
    for (const auto& [part, off] : sends) {
      const int target = part.first > zn.plane ? part.first : part.second;
      out.sends.push_back({zn.plane, target, off.dx, off.dy, zn.step + 1});
      work.push_back({part.first, part.second, target, zn.x + off.dx, zn.y + off.dy, zn.step + 1});
    }
  }
  std::stable_sort(out.sends.begin(), out.sends.end(),
                   [](const PlaneSend& a, const PlaneSend& b) { return a.step < b.step; });
  return out;
}

}  // namespace

std::string EdnTorusPattern::unsupported(const std::vector<int>& dims) {
  if (dims.size() != 2 && dims.size() != 3)
    return "the EDN torus patterns are 2D or 3D (seed 000 sections 4.2-4.3)";
  const int d = log2_exact(dims[0]);
  if (dims[0] != dims[1] || d < 2 || d > 10)
    return "the XY planes must be 2^d x 2^d, 2 <= d <= 10 (seed 000 Corollary 2, Theorem 3)";
  if (dims.size() == 3 && (dims[2] < 1 || dims[2] > 4096)) return "the z side must be 1..4096";
  return "";
}

std::vector<std::pair<char, int>> EdnTorusPattern::plane_steps(int side) {
  const int d = log2_exact(side);
  if (d < 2) throw std::invalid_argument("EDN torus plane: side must be 2^d, d >= 2");
  std::vector<std::pair<char, int>> out;
  // Theorem 2's {YT}_delta_1 ... {YT}_delta_k, delta_m = 4^(k-m) (d = 2k), or Corollary 3's
  // delta_m = 2 x 4^(k-m) and a final F_1 (d = 2k + 1).
  for (int delta = side / 4; delta >= 1 + d % 2; delta /= 4) {
    out.emplace_back('Y', delta);
    out.emplace_back('T', delta);
  }
  if (d % 2 == 1) out.emplace_back('F', 1);
  return out;
}

std::vector<PlaneSend> EdnTorusPattern::plane_distribution(int z) {
  if (z < 1) throw std::invalid_argument("EDN torus: z must be at least 1");
  return distribute(z).sends;
}

EdnTorusPattern::EdnTorusPattern(const std::vector<int>& dims) : dims_(dims) {
  const std::string why = unsupported(dims);
  if (!why.empty()) throw std::invalid_argument("EDN torus pattern: " + why);
  if (dims_.size() == 2) dims_.push_back(1);
  const int side = dims_[0], z = dims_[2];
  const std::size_t n =
      static_cast<std::size_t>(side) * static_cast<std::size_t>(side) * static_cast<std::size_t>(z);
  step_.assign(n, -1);
  groups_.assign(n, {});
  const auto id = [&](int x, int y, int p) {
    return static_cast<NodeId>(wrap(x, side) + side * (wrap(y, side) + side * wrap(p, z)));
  };
  const auto add = [&](NodeId from, int step, const std::vector<NodeId>& to) {
    std::vector<std::vector<NodeId>>& g = groups_[from];
    // Group g of a node goes out in step receive + 1 + g (SendGroups): the pattern keeps
    // every holder busy in every step after it received, so groups come in step order.
    if (step != step_[from] + 1 + static_cast<int>(g.size()))
      throw std::logic_error("EDN torus: a holder idles before its last send");
    g.push_back(to);
    for (NodeId t : to) {
      if (step_[t] != -1) throw std::logic_error("EDN torus: a node is reached twice");
      step_[t] = step;
    }
  };
  const Distribution dist = distribute(z);
  step_[0] = 0;
  // Between planes: group the distribution's sends by sender and step.
  for (std::size_t i = 0; i < dist.sends.size();) {
    const PlaneSend& s = dist.sends[i];
    // The sender's (x, y): the holder of its plane at the time; find it among the receivers.
    int sx = 0, sy = 0;
    for (const Zone& zn : dist.planes)
      if (zn.plane == s.from) sx = zn.x, sy = zn.y;
    std::vector<NodeId> to;
    std::size_t j = i;
    for (; j < dist.sends.size() && dist.sends[j].from == s.from && dist.sends[j].step == s.step;
         ++j)
      to.push_back(id(sx + dist.sends[j].dx, sy + dist.sends[j].dy, dist.sends[j].to));
    add(id(sx, sy, s.from), s.step, to);
    i = j;
  }
  // Within every plane, from its holder.
  const std::vector<std::pair<char, int>> phases = plane_steps(side);
  int last = 0;
  for (const Zone& pl : dist.planes) {
    const int start = step_[id(pl.x, pl.y, pl.plane)] +
                      static_cast<int>(groups_[id(pl.x, pl.y, pl.plane)].size());
    struct Holder {
      int x, y, role;  // in a T step: 0 = Y_s (the phase's holder), 1..3 = Y_a..Y_c
    };
    std::vector<Holder> holders{{pl.x, pl.y, 0}};
    int step = start;
    for (const auto& [kind, delta] : phases) {
      ++step;
      std::vector<Holder> next;
      for (const Holder& h : holders) {
        std::vector<NodeId> to;
        if (kind == 'Y') {
          for (std::size_t r = 0; r < 3; ++r) {
            const Off o = kYPattern[r];
            to.push_back(id(h.x + o.dx * delta, h.y + o.dy * delta, pl.plane));
            next.push_back({h.x + o.dx * delta, h.y + o.dy * delta, static_cast<int>(r) + 1});
          }
          next.push_back({h.x, h.y, 0});
        } else {
          const std::array<Off, 3>& pat =
              kind == 'T' ? kTPattern[static_cast<std::size_t>(h.role)] : kFPattern;
          for (const Off& o : pat) {
            to.push_back(id(h.x + o.dx * delta, h.y + o.dy * delta, pl.plane));
            next.push_back({h.x + o.dx * delta, h.y + o.dy * delta, 0});
          }
          next.push_back({h.x, h.y, 0});
        }
        add(id(h.x, h.y, pl.plane), step, to);
      }
      holders = std::move(next);
    }
    last = std::max(last, step);
  }
  steps_ = last;
  for (std::size_t v = 0; v < n; ++v)
    if (step_[v] < 0)
      throw std::logic_error("EDN torus: node " + std::to_string(v) + " is never reached");
}

NodeId EdnTorusPattern::translate(NodeId n, NodeId by, int sign) const {
  const int side = dims_[0], z = dims_[2];
  const int a = static_cast<int>(n), b = static_cast<int>(by);
  const int x = wrap(a % side + sign * (b % side), side);
  const int y = wrap(a / side % side + sign * (b / side % side), side);
  const int p = wrap(a / (side * side) + sign * (b / (side * side)), z);
  return static_cast<NodeId>(x + side * (y + side * p));
}

int EdnTorusPattern::receive_step(NodeId root, NodeId n) const {
  return step_[translate(n, root, -1)];
}

std::vector<std::vector<NodeId>> EdnTorusPattern::children(NodeId root, NodeId self) const {
  std::vector<std::vector<NodeId>> out = groups_[translate(self, root, -1)];
  for (auto& g : out)
    for (NodeId& c : g) c = translate(c, root, +1);
  return out;
}

std::vector<TorusSend> EdnTorusPattern::sends(NodeId root) const {
  std::vector<TorusSend> out;
  for (std::size_t v = 0; v < groups_.size(); ++v)
    for (std::size_t g = 0; g < groups_[v].size(); ++g)
      for (NodeId c : groups_[v][g])
        out.push_back({translate(static_cast<NodeId>(v), root, +1), translate(c, root, +1),
                       step_[v] + 1 + static_cast<int>(g)});
  std::stable_sort(out.begin(), out.end(),
                   [](const TorusSend& a, const TorusSend& b) { return a.step < b.step; });
  return out;
}

}  // namespace wormsim::fw
