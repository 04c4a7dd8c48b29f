// The constructions of seed 002 section 5 (contracts and reconstructions: alltoall_plan.h).
#include "alltoall_plan.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace wormsim::fw::a2a {

namespace {

using Blocks = std::vector<BlockRef>;

int log2_exact(int v, const char* what) {
  int n = 0;
  while ((1 << n) < v) ++n;
  if ((1 << n) != v)
    throw std::logic_error(std::string(what) + ": " + std::to_string(v) + " is not a power of two");
  return n;
}

Blocks sorted(Blocks b) {
  std::sort(b.begin(), b.end(), [](const BlockRef& x, const BlockRef& y) {
    return x.from != y.from ? x.from < y.from : x.to < y.to;
  });
  return b;
}

void send(Program& p, NodeId peer, std::uint32_t tag, Blocks blocks) {
  p.push_back({Action::Kind::kSend, peer, tag, sorted(std::move(blocks))});
}
void receive(Program& p, NodeId peer, std::uint32_t tag, Blocks blocks) {
  p.push_back({Action::Kind::kReceive, peer, tag, sorted(std::move(blocks))});
}

// The partner of player `i` in round `t` of the circle-method tournament of `players` (even)
// players: the last player meets t, the others (t + s) meets (t - s) mod (players - 1).
int tournament_partner(int players, int t, int i) {
  const int m = players - 1;
  if (i == m) return t;
  if (i == t) return m;
  return ((2 * t - i) % m + m) % m;
}

Program permutations(Family f, const MeshShape& s, NodeId self) {
  Program prog;
  const int count = permutation_count(f, s);
  for (int i = 1; i <= count; ++i) {
    const auto tag = static_cast<std::uint32_t>(i);
    const NodeId d = destination(f, s, i, self);
    if (d != self) send(prog, d, tag, {{self, d}});
    const NodeId src = source(f, s, i, self);
    if (src != self) receive(prog, src, tag, {{src, self}});
  }
  return prog;
}

// 2-lev-c,r step 1, permutation i: node n's blocks for row (row(n) XOR i).
Blocks column_step_blocks(const MeshShape& s, NodeId n, int i) {
  Blocks b;
  for (int x = 0; x < s.cols; ++x) b.push_back({n, s.at(s.row(n) ^ i, x)});
  return b;
}
// 2-lev-c,r step 2, permutation i: the blocks node n holds from its column for (row(n),
// col(n) XOR i).
Blocks row_step_blocks(const MeshShape& s, NodeId n, int i) {
  Blocks b;
  const NodeId to = s.at(s.row(n), s.col(n) ^ i);
  for (int y = 0; y < s.rows; ++y) b.push_back({s.at(y, s.col(n)), to});
  return b;
}

Program column_row(const MeshShape& s, NodeId self) {
  log2_exact(s.rows, "2-lev-c,r rows");
  log2_exact(s.cols, "2-lev-c,r columns");
  Program prog;
  const int y = s.row(self);
  const int x = s.col(self);
  for (int i = 1; i < s.rows; ++i) {
    const NodeId peer = s.at(y ^ i, x);
    const auto tag = static_cast<std::uint32_t>(i);
    send(prog, peer, tag, column_step_blocks(s, self, i));
    receive(prog, peer, tag, column_step_blocks(s, peer, i));
  }
  for (int i = 1; i < s.cols; ++i) {
    const NodeId peer = s.at(y, x ^ i);
    const auto tag = static_cast<std::uint32_t>(s.rows - 1 + i);
    send(prog, peer, tag, row_step_blocks(s, self, i));
    receive(prog, peer, tag, row_step_blocks(s, peer, i));
  }
  return prog;
}

Program column_row_interleaved(const MeshShape& s, NodeId self) {
  log2_exact(s.rows, "2-lev-c,r-int rows");
  log2_exact(s.cols, "2-lev-c,r-int columns");
  Program prog;
  const int y = s.row(self);
  const int x = s.col(self);
  const int c = s.cols;
  // The forwards of the row data that came from row y^i (i = 0: the node's own).
  const auto forward = [&](int i) {
    for (int k = 1; k < c; ++k) {
      const NodeId to = s.at(y, x ^ k);
      send(prog, to, static_cast<std::uint32_t>(i * c + k), {{s.at(y ^ i, x), to}});
    }
  };
  forward(0);
  for (int i = 1; i < s.rows; ++i) {
    const NodeId peer = s.at(y ^ i, x);
    const auto tag = static_cast<std::uint32_t>(i * c);
    send(prog, peer, tag, column_step_blocks(s, self, i));
    receive(prog, peer, tag, column_step_blocks(s, peer, i));
    forward(i);
  }
  // (y, x^k) forwards to this node, as its send i*c + k, the block of (y^i, x^k).
  for (int i = 0; i < s.rows; ++i)
    for (int k = 1; k < c; ++k)
      receive(prog, s.at(y, x ^ k), static_cast<std::uint32_t>(i * c + k),
              {{s.at(y ^ i, x ^ k), self}});
  return prog;
}

// 2-lev-sq step 1, permutation i: node n's blocks for every submesh t that local node
// local(n) XOR i relays (t mod q == local(n) XOR i).
Blocks square_step1_blocks(const MeshShape& s, const SquareBlocks& sb, NodeId n, int i) {
  Blocks b;
  const int relay = sb.local(s, n) ^ i;
  for (int t = relay; t < sb.m; t += sb.q)
    for (int l = 0; l < sb.q; ++l) b.push_back({n, sb.node(s, t, l)});
  return b;
}
// 2-lev-sq step 2: relay n's sends, in order: to local node (j mod q) of every submesh t it
// relays (t mod q == local(n)) other than its own j, with S_j's q^2 blocks for S_t.
struct SquareSend {
  int submesh = 0;
  NodeId to = 0;
  Blocks blocks;
};
std::vector<SquareSend> square_step2_sends(const MeshShape& s, const SquareBlocks& sb, NodeId n) {
  std::vector<SquareSend> out;
  const int j = sb.submesh(s, n);
  for (int t = sb.local(s, n); t < sb.m; t += sb.q) {
    if (t == j) continue;
    SquareSend ss{t, sb.node(s, t, j % sb.q), {}};
    for (int a = 0; a < sb.q; ++a)
      for (int l = 0; l < sb.q; ++l) ss.blocks.push_back({sb.node(s, j, a), sb.node(s, t, l)});
    out.push_back(std::move(ss));
  }
  return out;
}
// 2-lev-sq step 3, permutation i: node n holds, for its own submesh, the blocks of every
// submesh jj with jj mod q == local(n); it sends those for local node local(n) XOR i.
Blocks square_step3_blocks(const MeshShape& s, const SquareBlocks& sb, NodeId n, int i) {
  Blocks b;
  const NodeId to = sb.node(s, sb.submesh(s, n), sb.local(s, n) ^ i);
  for (int jj = sb.local(s, n); jj < sb.m; jj += sb.q)
    for (int l = 0; l < sb.q; ++l) b.push_back({sb.node(s, jj, l), to});
  return b;
}

Program square(const MeshShape& s, NodeId self) {
  const SquareBlocks sb = square_blocks(s);
  Program prog;
  const int j = sb.submesh(s, self);
  const int k = sb.local(s, self);
  for (int i = 1; i < sb.q; ++i) {
    const NodeId peer = sb.node(s, j, k ^ i);
    const auto tag = static_cast<std::uint32_t>(i);
    send(prog, peer, tag, square_step1_blocks(s, sb, self, i));
    receive(prog, peer, tag, square_step1_blocks(s, sb, peer, i));
  }
  const std::vector<SquareSend> mine = square_step2_sends(s, sb, self);
  for (std::size_t g = 0; g < mine.size(); ++g)
    send(prog, mine[g].to, static_cast<std::uint32_t>(sb.q - 1) + static_cast<std::uint32_t>(g) + 1,
         mine[g].blocks);
  for (int jj = k; jj < sb.m; jj += sb.q) {
    if (jj == j) continue;
    const NodeId relay = sb.node(s, jj, j % sb.q);
    const std::vector<SquareSend> theirs = square_step2_sends(s, sb, relay);
    for (std::size_t g = 0; g < theirs.size(); ++g)
      if (theirs[g].submesh == j)
        receive(prog, relay,
                static_cast<std::uint32_t>(sb.q - 1) + static_cast<std::uint32_t>(g) + 1,
                theirs[g].blocks);
  }
  const auto base = static_cast<std::uint32_t>(sb.q - 1 + sb.m / sb.q);
  for (int i = 1; i < sb.q; ++i) {
    const NodeId peer = sb.node(s, j, k ^ i);
    const std::uint32_t tag = base + static_cast<std::uint32_t>(i);
    send(prog, peer, tag, square_step3_blocks(s, sb, self, i));
    receive(prog, peer, tag, square_step3_blocks(s, sb, peer, i));
  }
  return prog;
}

// logp-lev-bfly superstep t (bit b = n-1-t): before it node j holds (src, dst) with src equal
// to j in bits 0..b and dst equal to j in bits b+1..n-1; it sends those whose dst differs
// from j in bit b.
Blocks butterfly_blocks(int n, NodeId j, int t) {
  const int b = n - 1 - t;
  const std::uint32_t low = (std::uint32_t{2} << b) - 1;                        // bits 0..b
  const std::uint32_t high = ((std::uint32_t{1} << n) - 1) & ~low;              // bits b+1..
  const std::uint32_t dst_fixed = (j & high) | (~j & (std::uint32_t{1} << b));  // and bit b
  Blocks out;
  for (std::uint32_t h = 0; h < (std::uint32_t{1} << t); ++h)
    for (std::uint32_t l = 0; l < (std::uint32_t{1} << b); ++l)
      out.push_back({(j & low) | (h << (b + 1)), dst_fixed | l});
  return out;
}

Program butterfly(const MeshShape& s, NodeId self) {
  const int n = log2_exact(s.nodes(), "logp-lev-bfly nodes");
  Program prog;
  for (int t = 0; t < n; ++t) {
    const NodeId peer = self ^ (NodeId{1} << (n - 1 - t));
    const auto tag = static_cast<std::uint32_t>(t + 1);
    send(prog, peer, tag, butterfly_blocks(n, self, t));
    receive(prog, peer, tag, butterfly_blocks(n, peer, t));
  }
  return prog;
}

}  // namespace

MeshShape shape_of(const Topology& topology) {
  if ((topology.kind() == TopologyKind::kMesh || topology.kind() == TopologyKind::kTorus) &&
      topology.dimensions() == 2)
    return {topology.side(1), topology.side(0)};
  return {1, topology.nodes()};
}

int permutation_count(Family f, const MeshShape& s) {
  return f == Family::kBalanced ? s.nodes() : s.nodes() - 1;
}

int balanced_linear(int k, int f, int x) {
  if (k % 4 != 0 || f < 0 || f >= k || x < 0 || x >= k)
    throw std::logic_error("balanced_linear: k " + std::to_string(k) + ", permutation " +
                           std::to_string(f) + ", processor " + std::to_string(x));
  const int half = k / 2;
  const int player = x < half ? x : k - 1 - x;
  if (f >= k - 2) {  // the swaps P_i <-> P_{k-1-i}: k-2 for i < k/4, k-1 for the others
    const bool swaps = (f == k - 2) == (player < k / 4);
    return swaps ? k - 1 - x : x;
  }
  const int other = tournament_partner(half, f / 2, player);
  const int a = std::min(player, other);
  const int b = std::max(player, other);
  // The cycle a -> b -> k-1-a -> k-1-b -> a, or its reverse.
  const int cycle[4] = {a, b, k - 1 - a, k - 1 - b};
  int pos = 0;
  while (cycle[pos] != x) ++pos;
  return f % 2 == 0 ? cycle[(pos + 1) % 4] : cycle[(pos + 3) % 4];
}

NodeId destination(Family f, const MeshShape& s, int i, NodeId j) {
  const int p = s.nodes();
  switch (f) {
    case Family::kLinear: return static_cast<NodeId>((static_cast<int>(j) + i) % p);
    case Family::kXor: return j ^ static_cast<NodeId>(i);
    case Family::kBalanced: {
      const int a = (i - 1) / s.cols;
      const int b = (i - 1) % s.cols;
      return s.at(balanced_linear(s.rows, a, s.row(j)), balanced_linear(s.cols, b, s.col(j)));
    }
  }
  throw std::logic_error("destination: unknown family");
}

NodeId source(Family f, const MeshShape& s, int i, NodeId j) {
  const int p = s.nodes();
  switch (f) {
    case Family::kLinear: return static_cast<NodeId>(((static_cast<int>(j) - i) % p + p) % p);
    case Family::kXor: return j ^ static_cast<NodeId>(i);
    case Family::kBalanced: {
      const int a = (i - 1) / s.cols;
      const int b = (i - 1) % s.cols;
      int y = 0;
      while (balanced_linear(s.rows, a, y) != s.row(j)) ++y;
      int x = 0;
      while (balanced_linear(s.cols, b, x) != s.col(j)) ++x;
      return s.at(y, x);
    }
  }
  throw std::logic_error("source: unknown family");
}

SquareBlocks square_blocks(const MeshShape& s) {
  const int n = log2_exact(s.nodes(), "2-lev-sq nodes");
  log2_exact(s.rows, "2-lev-sq rows");
  SquareBlocks b;
  b.q = 1 << (n / 2);
  b.m = s.nodes() / b.q;
  b.block_rows = 1 << (n / 2 / 2);
  b.block_cols = b.q / b.block_rows;
  if (b.block_rows > s.rows || b.block_cols > s.cols)
    throw std::logic_error("2-lev-sq: submeshes do not fit the mesh");
  return b;
}

int SquareBlocks::submesh(const MeshShape& s, NodeId n) const {
  return (s.row(n) / block_rows) * (s.cols / block_cols) + s.col(n) / block_cols;
}
int SquareBlocks::local(const MeshShape& s, NodeId n) const {
  return (s.row(n) % block_rows) * block_cols + s.col(n) % block_cols;
}
NodeId SquareBlocks::node(const MeshShape& s, int sub, int loc) const {
  const int per_row = s.cols / block_cols;
  return s.at((sub / per_row) * block_rows + loc / block_cols,
              (sub % per_row) * block_cols + loc % block_cols);
}

Program program(CollectiveAlgorithm alg, const MeshShape& s, NodeId self) {
  switch (alg) {
    case CollectiveAlgorithm::kAlltoallLinear: return permutations(Family::kLinear, s, self);
    case CollectiveAlgorithm::kAlltoallXor:
      log2_exact(s.nodes(), "1-lev-xor nodes");
      return permutations(Family::kXor, s, self);
    case CollectiveAlgorithm::kAlltoallBalanced: return permutations(Family::kBalanced, s, self);
    case CollectiveAlgorithm::kAlltoallSquare: return square(s, self);
    case CollectiveAlgorithm::kAlltoallColumnRow: return column_row(s, self);
    case CollectiveAlgorithm::kAlltoallColumnRowInt: return column_row_interleaved(s, self);
    case CollectiveAlgorithm::kAlltoallButterfly: return butterfly(s, self);
    default: break;
  }
  throw std::logic_error("a2a::program: " + to_string(alg) + " is not a programmed all-to-all");
}

}  // namespace wormsim::fw::a2a
