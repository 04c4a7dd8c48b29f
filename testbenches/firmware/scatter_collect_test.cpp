// Scatter-Collect (seed 000 section 5.3, Fig. 5.6, Table 5.2) as a pure function
// (fw::ScatterCollect):
//   - the line scatter is a binomial tree: m - 1 messages, ceil(log2 m) steps, every position
//     receives once, from a holder, a range that contains it, after the holder got it;
//   - the folded ring has neighbours at most 2 hops apart and one ring step uses every
//     directed link of the line at most once (the "avoids channel contention" of the text);
//   - playing the four phases on pieces leaves every node with every piece, with the phase
//     step counts of Table 5.2 (n, n, 2^n - 1, 2^n - 1 on 2^n x 2^n; Table 5.3's start-up
//     count 2(2^n - 1 + n)) and the messages per phase c - 1, c(r - 1), rc(c - 1), cr(r - 1);
//   - the bytes the root sends one after another over the four phases add up to Table 5.3's
//     T_n[SC] / beta = 2(1 - 1/2^(2n)) L.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <string>

#include "scatter_collect.h"

namespace wormsim::fw::scatter_collect_test {
namespace {

int ceil_log2(int m) {
  int s = 0;
  while ((1 << s) < m) ++s;
  return s;
}

TEST(LineScatter, IsABinomialTreeFromEveryHolder) {
  for (int m = 1; m <= 40; ++m)
    for (int h = 0; h < m; ++h) {
      const std::vector<LineScatterSend> sends = line_scatter(m, h);
      EXPECT_EQ(sends.size(), static_cast<std::size_t>(m - 1));
      std::vector<int> got(static_cast<std::size_t>(m), -1);  // step of receipt
      std::vector<std::pair<int, int>> range(static_cast<std::size_t>(m), {0, 0});
      got[static_cast<std::size_t>(h)] = 0;
      range[static_cast<std::size_t>(h)] = {0, m};
      int max_step = 0;
      for (const LineScatterSend& s : sends) {
        const auto from = static_cast<std::size_t>(s.from), to = static_cast<std::size_t>(s.to);
        ASSERT_GE(got[from], 0) << "m " << m << " holder " << h << ": " << s.from
                                << " sends before it holds anything";
        EXPECT_GT(s.step, got[from]);
        EXPECT_EQ(got[to], -1) << "position " << s.to << " receives twice";
        EXPECT_TRUE(s.lo <= s.to && s.to < s.hi);
        EXPECT_TRUE(range[from].first <= s.lo && s.hi <= range[from].second);
        EXPECT_FALSE(s.lo <= s.from && s.from < s.hi);
        got[to] = s.step;
        range[to] = {s.lo, s.hi};
        max_step = std::max(max_step, s.step);
      }
      for (int p = 0; p < m; ++p) EXPECT_GE(got[static_cast<std::size_t>(p)], 0);
      EXPECT_EQ(max_step, ceil_log2(m)) << "m " << m << " holder " << h;
    }
}

TEST(FoldedRing, NeighboursWithinTwoHopsAndEachLinkOncePerStep) {
  for (int m = 2; m <= 33; ++m) {
    const std::vector<int> ring = folded_ring(m);
    ASSERT_EQ(ring.size(), static_cast<std::size_t>(m));
    EXPECT_EQ(std::set<int>(ring.begin(), ring.end()).size(), static_cast<std::size_t>(m));
    std::set<std::pair<int, int>> links;  // (from, to) of unit hops
    for (int q = 0; q < m; ++q) {
      const int a = ring[static_cast<std::size_t>(q)];
      const int b = ring[static_cast<std::size_t>((q + 1) % m)];
      EXPECT_LE(std::abs(a - b), 2) << "m " << m;
      const int dir = b > a ? 1 : -1;
      for (int p = a; p != b; p += dir)
        EXPECT_TRUE(links.insert({p, p + dir}).second)
            << "m " << m << ": link " << p << "->" << p + dir << " used twice in one step";
    }
  }
}

struct Shape {
  int cols, rows;
};

class ScatterCollectPhases : public ::testing::TestWithParam<Shape> {};

// Plays the four phases on sets of pieces (x, y) from every root.
TEST_P(ScatterCollectPhases, EveryNodeGetsEveryPieceInTable52Steps) {
  const auto [c, r] = GetParam();
  const auto id = [&](int x, int y) { return static_cast<std::size_t>(x + y * c); };
  for (int rx = 0; rx < c; ++rx)
    for (int ry = 0; ry < r; ++ry) {
      const ScatterCollect sc(c, r, rx, ry, 1000);
      std::vector<std::set<int>> held(static_cast<std::size_t>(c * r));  // piece x + y c
      for (int x = 0; x < c; ++x)
        for (int y = 0; y < r; ++y) held[id(rx, ry)].insert(static_cast<int>(id(x, y)));
      std::uint64_t messages[5] = {0, 0, 0, 0, 0};
      const auto move = [&](std::size_t from, std::size_t to, const std::set<int>& pieces,
                            int phase) {
        for (int p : pieces) ASSERT_TRUE(held[from].count(p)) << "phase " << phase;
        held[to].insert(pieces.begin(), pieces.end());
        ++messages[phase];
      };
      for (const LineScatterSend& s : sc.row_scatter()) {
        std::set<int> pieces;
        for (int x = s.lo; x < s.hi; ++x)
          for (int y = 0; y < r; ++y) pieces.insert(static_cast<int>(id(x, y)));
        move(id(s.from, ry), id(s.to, ry), pieces, 1);
      }
      for (int x = 0; x < c; ++x)
        for (const LineScatterSend& s : sc.column_scatter()) {
          std::set<int> pieces;
          for (int y = s.lo; y < s.hi; ++y) pieces.insert(static_cast<int>(id(x, y)));
          move(id(x, s.from), id(x, s.to), pieces, 2);
        }
      // Collects: in step j ring position q passes on what it got in step j - 1.
      const std::vector<int>& rr = sc.row_ring();
      for (int j = 1; j < c; ++j)
        for (int y = 0; y < r; ++y)
          for (int q = 0; q < c; ++q) {
            const int piece = rr[static_cast<std::size_t>(((q - j + 1) % c + c) % c)];
            move(id(rr[static_cast<std::size_t>(q)], y),
                 id(rr[static_cast<std::size_t>((q + 1) % c)], y), {static_cast<int>(id(piece, y))},
                 3);
          }
      const std::vector<int>& cr = sc.column_ring();
      for (int j = 1; j < r; ++j)
        for (int x = 0; x < c; ++x)
          for (int q = 0; q < r; ++q) {
            const int row = cr[static_cast<std::size_t>(((q - j + 1) % r + r) % r)];
            std::set<int> bundle;
            for (int px = 0; px < c; ++px) bundle.insert(static_cast<int>(id(px, row)));
            move(id(x, cr[static_cast<std::size_t>(q)]),
                 id(x, cr[static_cast<std::size_t>((q + 1) % r)]), bundle, 4);
          }
      for (const std::set<int>& h : held) EXPECT_EQ(h.size(), static_cast<std::size_t>(c * r));
      const std::uint64_t uc = static_cast<std::uint64_t>(c), ur = static_cast<std::uint64_t>(r);
      EXPECT_EQ(messages[1], uc - 1);
      EXPECT_EQ(messages[2], uc * (ur - 1));
      EXPECT_EQ(messages[3], ur * uc * (uc - 1));
      EXPECT_EQ(messages[4], uc * ur * (ur - 1));
      for (int p = 1; p <= 4; ++p) EXPECT_EQ(sc.phase_messages(p), messages[p]);
      EXPECT_EQ(sc.phase_steps(1), ceil_log2(c));
      EXPECT_EQ(sc.phase_steps(2), ceil_log2(r));
      EXPECT_EQ(sc.phase_steps(3), c - 1);
      EXPECT_EQ(sc.phase_steps(4), r - 1);
    }
}

INSTANTIATE_TEST_SUITE_P(Meshes, ScatterCollectPhases,
                         ::testing::Values(Shape{2, 2}, Shape{4, 4}, Shape{8, 8}, Shape{3, 5},
                                           Shape{5, 3}, Shape{6, 7}, Shape{16, 2}),
                         [](const auto& param_info) {
                           return std::to_string(param_info.param.cols) + "x" +
                                  std::to_string(param_info.param.rows);
                         });

// Table 5.3: 2(2^n - 1 + n) start-ups for SC on 2^n x 2^n.
TEST(ScatterCollect, StepsOnSquareMeshesAreTable53sStartUps) {
  for (int n = 1; n <= 10; ++n) {
    const int side = 1 << n;
    const ScatterCollect sc(side, side, 0, 0, 1);
    EXPECT_EQ(sc.total_steps(), 2 * (side - 1 + n)) << "n " << n;
    EXPECT_EQ(sc.tag(1, 1), 1u);
    EXPECT_EQ(sc.tag(2, 1), static_cast<std::uint32_t>(n + 1));
    EXPECT_EQ(sc.tag(3, 1), static_cast<std::uint32_t>(2 * n + 1));
    EXPECT_EQ(sc.tag(4, 1), static_cast<std::uint32_t>(2 * n + side));
  }
}

// Pieces tile the message in order, whatever the rounding.
TEST(ScatterCollect, PiecesTileTheMessage) {
  for (std::uint64_t bytes : {16ull, 17ull, 100ull, 1023ull, 4096ull}) {
    const ScatterCollect sc(4, 4, 1, 2, bytes);
    std::uint64_t at = 0;
    for (int x = 0; x < 4; ++x) {
      EXPECT_EQ(sc.segment_begin(x), at);
      for (int y = 0; y < 4; ++y) {
        EXPECT_EQ(sc.piece_begin(x, y), at);
        EXPECT_GE(sc.piece_bytes(x, y), bytes / 16);
        at += sc.piece_bytes(x, y);
      }
    }
    EXPECT_EQ(at, bytes);
    EXPECT_EQ(sc.segment_begin(4), bytes);
  }
}

// The root's sends across the four phases on 2^n x 2^n with L a multiple of 4^n: phase 1
// L - L/2^n, phase 2 L/2^n - L/4^n, phase 3 (2^n - 1) L/4^n, phase 4 (2^n - 1) L/2^n; in all
// 2(1 - 1/4^n) L, T_n[SC] / beta of Table 5.3 (Table 5.2's n x (2^n - 1)/2^n beta L for the
// scatters does not give it: a binomial scatter sends (2^n - 1)/2^n of the data in all).
TEST(ScatterCollect, RootSendsTable53sTnBytes) {
  for (int n = 1; n <= 5; ++n) {
    const int side = 1 << n;
    const std::uint64_t L = std::uint64_t{3} << (2 * n);
    const ScatterCollect sc(side, side, 0, 0, L);
    std::uint64_t sent[5] = {0, 0, 0, 0, 0};
    for (const LineScatterSend& s : sc.row_scatter())
      if (s.from == 0) sent[1] += sc.segment_begin(s.hi) - sc.segment_begin(s.lo);
    for (const LineScatterSend& s : sc.column_scatter())
      if (s.from == 0) sent[2] += sc.piece_begin(0, s.hi) - sc.piece_begin(0, s.lo);
    sent[3] = static_cast<std::uint64_t>(side - 1) * sc.piece_bytes(0, 0);
    sent[4] = static_cast<std::uint64_t>(side - 1) * static_cast<std::uint64_t>(side) *
              sc.piece_bytes(0, 0);
    const std::uint64_t s = static_cast<std::uint64_t>(side);
    EXPECT_EQ(sent[1], L - L / s);
    EXPECT_EQ(sent[2], L / s - L / (s * s));
    EXPECT_EQ(sent[3], (s - 1) * L / (s * s));
    EXPECT_EQ(sent[4], (s - 1) * L / s);
    EXPECT_EQ(sent[1] + sent[2] + sent[3] + sent[4], 2 * (L - L / (s * s)));
  }
}

}  // namespace
}  // namespace wormsim::fw::scatter_collect_test
