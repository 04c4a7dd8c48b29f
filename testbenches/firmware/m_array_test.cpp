// Seed 004's multicast virtual topologies as pure functions (firmware/m_array.h): the
// M-array's channels against Definition 1's recursion, Example 1 (broadcast from 1010 in a
// 16-node M-array in log N steps) exactly, the REM-array's channel count, the "normal"
// property of section 4 (every step uses channels of one level), and the broadcast, N/N
// reduction and M-mesh (Definition 4) schedules: every node reached exactly once, in
// ceil(log2 N) steps, over channels that exist.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "m_array.h"

namespace wormsim::fw::m_array_test {
namespace {

using Channels = std::set<std::pair<std::uint32_t, std::vector<std::uint32_t>>>;  // (from, to)
using Levels = std::map<std::pair<std::uint32_t, std::vector<std::uint32_t>>, int>;

// Definition 1 literally: an M-array of length 2^n is one node (n = 0) or two of length
// 2^(n-1), the upper one's positions shifted by 2^(n-1), joined by a level-(n-1) channel from
// every node of each half to the whole other half (the reconstructed clause, m_array.h).
Levels m_array_by_recursion(int n) {
  if (n == 0) return {};
  const Levels half = m_array_by_recursion(n - 1);
  const std::uint32_t h = 1u << (n - 1);
  Levels out = half;
  for (const auto& [ch, level] : half) {
    std::vector<std::uint32_t> to;
    for (std::uint32_t p : ch.second) to.push_back(p + h);
    out[{ch.first + h, to}] = level;
  }
  std::vector<std::uint32_t> lower, upper;
  for (std::uint32_t p = 0; p < h; ++p) {
    lower.push_back(p);
    upper.push_back(p + h);
  }
  for (std::uint32_t p = 0; p < h; ++p) {
    out[{p, upper}] = n - 1;
    out[{p + h, lower}] = n - 1;
  }
  return out;
}

Levels channels_of(ArrayTopology t, std::size_t length) {
  Levels out;
  for (std::uint32_t x = 0; x < length; ++x)
    for (int level = 0; level < array_levels(length); ++level)
      if (has_channel(t, length, x, level)) out[{x, sibling_block(length, x, level)}] = level;
  return out;
}

TEST(MArray, ChannelsAreDefinitionOnesRecursion) {
  for (int n = 0; n <= 7; ++n)
    EXPECT_EQ(channels_of(ArrayTopology::kMArray, std::size_t{1} << n), m_array_by_recursion(n))
        << "n = " << n;
}

// Density: the M-array has n channels per node (N n), reaching N - 1 nodes in all from each;
// the REM-array one channel per block and level: sum over levels of N / 2^i = 2(N - 1).
TEST(MArray, ChannelCountsOfTheMArrayAndTheRemArray) {
  for (int n = 1; n <= 8; ++n) {
    const std::size_t N = std::size_t{1} << n;
    std::size_t m_members = 0, rem_members = 0;
    for (const auto& [ch, level] : channels_of(ArrayTopology::kMArray, N))
      m_members += ch.second.size();
    const Levels rem = channels_of(ArrayTopology::kRemArray, N);
    for (const auto& [ch, level] : rem) rem_members += ch.second.size();
    EXPECT_EQ(channels_of(ArrayTopology::kMArray, N).size(), N * static_cast<std::size_t>(n));
    EXPECT_EQ(m_members, N * (N - 1));
    EXPECT_EQ(rem.size(), 2 * (N - 1));
    EXPECT_EQ(rem_members, N * static_cast<std::size_t>(n));
  }
}

std::vector<std::uint32_t> range(std::uint32_t a, std::uint32_t b) {
  std::vector<std::uint32_t> out;
  for (std::uint32_t p = a; p < b; ++p) out.push_back(p);
  return out;
}

void expect_sends(const std::vector<ArraySend>& got, const std::vector<ArraySend>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].step, want[i].step) << i;
    EXPECT_EQ(got[i].level, want[i].level) << i;
    EXPECT_EQ(got[i].from, want[i].from) << i;
    EXPECT_EQ(got[i].to, want[i].to) << i;
  }
}

// Example 1: broadcast from node 1010 in a 16-node M-array, log2 16 = 4 steps. The groups
// are our reconstruction (the example's body is cut from the seed text): the root sends on
// its level-3, 2, 1 and 0 channels.
TEST(MArray, ExampleOneBroadcastFrom1010InFourSteps) {
  expect_sends(array_broadcast(ArrayTopology::kMArray, 16, 0b1010),
               {{1, 3, 0b1010, range(0b0000, 0b1000)},
                {2, 2, 0b1010, range(0b1100, 0b10000)},
                {3, 1, 0b1010, {0b1000, 0b1001}},
                {4, 0, 0b1010, {0b1011}}});
  // The REM-array relays through the boundary nodes, bottom-up: also 4 steps.
  expect_sends(array_broadcast(ArrayTopology::kRemArray, 16, 0b1010),
               {{1, 0, 0b1010, {0b1011}},
                {2, 1, 0b1010, {0b1000, 0b1001}},
                {3, 2, 0b1011, range(0b1100, 0b10000)},
                {4, 3, 0b1000, range(0b0000, 0b1000)}});
}

// Normal (section 4): all channels of a step are at one level; and each is a channel of the
// topology.
template <typename Send>
void expect_normal(const std::vector<Send>& sends) {
  std::map<int, std::set<int>> levels;
  for (const Send& s : sends) levels[s.step].insert(s.level);
  for (const auto& [step, l] : levels) EXPECT_EQ(l.size(), 1u) << "step " << step;
}

TEST(MArray, BroadcastReachesEveryPositionOnceInCeilLog2Steps) {
  for (ArrayTopology t : {ArrayTopology::kMArray, ArrayTopology::kRemArray})
    for (std::size_t length = 1; length <= 70; ++length)
      for (std::uint32_t root = 0; root < length; ++root) {
        const auto sends = array_broadcast(t, length, root);
        std::map<std::uint32_t, int> got{{root, 0}};
        int steps = 0;
        for (const ArraySend& s : sends) {
          ASSERT_TRUE(got.count(s.from) && got[s.from] < s.step) << length << " " << root;
          EXPECT_TRUE(has_channel(t, length, s.from, s.level));
          EXPECT_EQ(s.to, sibling_block(length, s.from, s.level));
          for (std::uint32_t p : s.to) EXPECT_TRUE(got.emplace(p, s.step).second) << p;
          steps = std::max(steps, s.step);
        }
        EXPECT_EQ(got.size(), length);
        EXPECT_EQ(static_cast<std::size_t>(steps), sends.size());  // one multicast a step
        if ((length & (length - 1)) == 0)
          EXPECT_EQ(steps, array_levels(length));
        else
          EXPECT_LE(steps, array_levels(length));
        expect_normal(sends);
      }
}

// N/N reduction: every position ends with every contribution exactly once (a received
// partial never overlaps what the receiver holds), receives at most once per step, in
// ceil(log2 N) steps, over REM-array channels.
TEST(MArray, ReductionCombinesEveryContributionOnceEverywhere) {
  for (std::size_t length = 1; length <= 70; ++length) {
    std::vector<std::set<std::uint32_t>> holds(length);
    for (std::uint32_t p = 0; p < length; ++p) holds[p] = {p};
    const auto sends = array_reduction(length);
    int steps = 0;
    for (int step = 1; step <= array_levels(length); ++step) {
      std::vector<std::set<std::uint32_t>> next = holds;
      std::set<std::uint32_t> received;
      for (const ArraySend& s : sends) {
        if (s.step != step) continue;
        steps = step;
        EXPECT_TRUE(has_channel(ArrayTopology::kRemArray, length, s.from, s.level));
        for (std::uint32_t p : s.to) {
          EXPECT_TRUE(received.insert(p).second) << "position " << p << " step " << step;
          for (std::uint32_t c : holds[s.from]) EXPECT_TRUE(next[p].insert(c).second) << c;
        }
      }
      holds = next;
    }
    for (std::uint32_t p = 0; p < length; ++p) EXPECT_EQ(holds[p].size(), length) << p;
    EXPECT_EQ(steps, array_levels(length));
    expect_normal(sends);
  }
}

// Definition 4: row channels join nodes of one row, column channels nodes of one column;
// broadcast and reduction take ceil(log2 cols) + ceil(log2 rows) steps (log2 N on 2^a x 2^b
// grids), each step one dimension and one level.
TEST(MMesh, BroadcastAndReductionAlongRowsThenColumns) {
  for (int cols = 1; cols <= 9; ++cols)
    for (int rows = 1; rows <= 9; ++rows) {
      const std::uint32_t nodes = static_cast<std::uint32_t>(cols * rows);
      const int want_steps = array_levels(static_cast<std::size_t>(cols)) +
                             array_levels(static_cast<std::size_t>(rows));
      const auto on_line = [&](const MeshSend& s) {
        for (std::uint32_t p : s.to)
          if (s.dim == 0 ? p / cols != s.from / cols : p % cols != s.from % cols) return false;
        return true;
      };
      for (std::uint32_t root = 0; root < nodes; root += 3) {
        const auto sends = m_mesh_broadcast(cols, rows, root);
        std::map<std::uint32_t, int> got{{root, 0}};
        int steps = 0;
        std::map<int, std::set<std::pair<int, int>>> kinds;
        for (const MeshSend& s : sends) {
          ASSERT_TRUE(got.count(s.from) && got[s.from] < s.step);
          EXPECT_TRUE(on_line(s));
          for (std::uint32_t p : s.to) EXPECT_TRUE(got.emplace(p, s.step).second);
          steps = std::max(steps, s.step);
          kinds[s.step].insert({s.dim, s.level});
        }
        EXPECT_EQ(got.size(), nodes);
        if ((cols & (cols - 1)) == 0 && (rows & (rows - 1)) == 0)
          EXPECT_EQ(steps, want_steps);
        else
          EXPECT_LE(steps, want_steps);
        for (const auto& [step, k] : kinds) EXPECT_EQ(k.size(), 1u) << "step " << step;
      }
      std::vector<std::set<std::uint32_t>> holds(nodes);
      for (std::uint32_t p = 0; p < nodes; ++p) holds[p] = {p};
      const auto sends = m_mesh_reduction(cols, rows);
      int steps = 0;
      for (int step = 1; step <= want_steps; ++step) {
        std::vector<std::set<std::uint32_t>> next = holds;
        std::set<std::pair<int, int>> kinds;
        for (const MeshSend& s : sends) {
          if (s.step != step) continue;
          steps = step;
          kinds.insert({s.dim, s.level});
          EXPECT_TRUE(on_line(s));
          for (std::uint32_t p : s.to)
            for (std::uint32_t c : holds[s.from]) EXPECT_TRUE(next[p].insert(c).second);
        }
        EXPECT_LE(kinds.size(), 1u);
        holds = next;
      }
      for (std::uint32_t p = 0; p < nodes; ++p) EXPECT_EQ(holds[p].size(), nodes);
      EXPECT_EQ(steps, want_steps);
    }
}

// The positions of x's level-`level` block (those agreeing with x above bit level - 1) that
// exist.
std::set<std::uint32_t> own_block(std::size_t length, std::uint32_t x, int level) {
  std::set<std::uint32_t> out;
  const std::uint32_t first = (x >> level) << level;
  for (std::uint32_t p = first; p < first + (1u << level) && p < length; ++p) out.insert(p);
  return out;
}

// rem_array_reduce (our reconstruction of the REM-array's reduction, m_array.h): every send on
// a REM-array channel to the whole sibling block, one level a step (normal), sent by a
// position that holds exactly its block's contributions and has not sent before; a position
// that has passed its result on only takes later messages; the root ends with every
// contribution exactly once after ceil(log2 N) steps; N - 1 sends in all, each position
// receives at most once a step, and on N = 2^n the root n times, every position N/2 in all.
TEST(RemArray, ReduceToTheRootPrunesTheNNReductionToNMinusOneSends) {
  for (std::size_t length = 1; length <= 70; ++length)
    for (std::uint32_t root = 0; root < length; ++root) {
      SCOPED_TRACE(::testing::Message() << "length " << length << " root " << root);
      const auto sends = rem_array_reduce(length, root);
      std::vector<std::set<std::uint32_t>> holds(length);
      for (std::uint32_t p = 0; p < length; ++p) holds[p] = {p};
      std::vector<bool> passed_on(length, false);
      std::vector<int> receives(length, 0);
      std::size_t deliveries = 0;
      int steps = 0;
      for (int step = 1; step <= array_levels(length); ++step) {
        std::vector<std::set<std::uint32_t>> next = holds;
        std::set<std::uint32_t> received;
        for (const ArraySend& s : sends) {
          if (s.step != step) continue;
          steps = step;
          EXPECT_EQ(s.level, step - 1);
          EXPECT_TRUE(has_channel(ArrayTopology::kRemArray, length, s.from, s.level));
          EXPECT_EQ(s.to, sibling_block(length, s.from, s.level));
          EXPECT_FALSE(passed_on[s.from]) << "position " << s.from << " sends twice";
          EXPECT_NE(s.from, root);
          EXPECT_EQ(holds[s.from], own_block(length, s.from, s.level)) << s.from;
          passed_on[s.from] = true;
          for (std::uint32_t p : s.to) {
            EXPECT_TRUE(received.insert(p).second) << "position " << p << " step " << step;
            ++receives[p];
            ++deliveries;
            if (passed_on[p]) continue;
            for (std::uint32_t c : holds[s.from]) EXPECT_TRUE(next[p].insert(c).second) << c;
          }
        }
        holds = next;
      }
      EXPECT_EQ(holds[root], own_block(length, root, array_levels(length)));
      EXPECT_EQ(holds[root].size(), length);
      EXPECT_EQ(sends.size(), length - 1);
      EXPECT_EQ(steps, array_levels(length));
      expect_normal(sends);
      if ((length & (length - 1)) == 0) {
        EXPECT_EQ(receives[root], array_levels(length));
        EXPECT_EQ(deliveries, length / 2 * static_cast<std::size_t>(array_levels(length)));
      }
    }
}

// A small case by hand: 8 positions, root 0. The root's chain: 1, then [2, 3]'s holder 2,
// then [4, 7]'s holder 4; 2 gets 3's, 4 gets 5's and then [6, 7]'s holder 6's (which got 7's).
TEST(RemArray, ReduceOnEightPositionsToZero) {
  expect_sends(rem_array_reduce(8, 0), {{1, 0, 1, {0}},
                                        {1, 0, 3, {2}},
                                        {1, 0, 5, {4}},
                                        {1, 0, 7, {6}},
                                        {2, 1, 2, {0, 1}},
                                        {2, 1, 6, {4, 5}},
                                        {3, 2, 4, {0, 1, 2, 3}}});
}

// rem_array_allreduce runs array_reduction: on N = 2^n positions 2(N - 1) multicasts (N / 2^i
// at level i), all on REM-array channels, one level a step, each position receiving once a
// step (n times), against the M-array's N n channels of which it uses these 2(N - 1).
TEST(RemArray, AllreduceIsTheNormalNNScheduleOverRemChannels) {
  for (int n = 0; n <= 8; ++n) {
    const std::size_t N = std::size_t{1} << n;
    const auto sends = array_reduction(N);
    std::vector<int> receives(N, 0);
    for (const ArraySend& s : sends) {
      EXPECT_TRUE(has_channel(ArrayTopology::kRemArray, N, s.from, s.level));
      EXPECT_EQ(s.level, s.step - 1);
      for (std::uint32_t p : s.to) ++receives[p];
    }
    EXPECT_EQ(sends.size(), 2 * (N - 1));
    for (std::size_t p = 0; p < N; ++p) EXPECT_EQ(receives[p], n) << p;
    expect_normal(sends);
  }
}

// All-to-all broadcast on the M-mesh (section 4's reduction with concatenation along
// Definition 4's rows, then columns): in every step each node receives one message, the
// blocks its sender held (m_mesh_gathered, contiguous in position order), none of which it
// had; after step s it holds m_mesh_gathered(s); after ceil(log2 cols) + ceil(log2 rows) steps
// every node holds all N blocks in position order. On 2^a x 2^b grids a row message of level i
// carries 2^i blocks and a column message cols 2^j (at most N / 2), every node receives
// a + b = log2 N messages, N log2 N deliveries in all.
TEST(MMesh, AllgatherConcatenatesEveryBlockInNodeOrder) {
  for (int cols = 1; cols <= 9; ++cols)
    for (int rows = 1; rows <= 9; ++rows) {
      SCOPED_TRACE(::testing::Message() << cols << " x " << rows);
      const auto nodes = static_cast<std::uint32_t>(cols * rows);
      const int lc = array_levels(static_cast<std::size_t>(cols));
      const int lr = array_levels(static_cast<std::size_t>(rows));
      const bool powers = (cols & (cols - 1)) == 0 && (rows & (rows - 1)) == 0;
      std::vector<std::vector<std::uint32_t>> holds(nodes);
      for (std::uint32_t p = 0; p < nodes; ++p) holds[p] = {p};
      const auto sends = m_mesh_reduction(cols, rows);
      for (int step = 1; step <= lc + lr; ++step) {
        std::vector<std::vector<std::uint32_t>> next = holds;
        std::vector<int> got(nodes, 0);
        for (const MeshSend& s : sends) {
          if (s.step != step) continue;
          const std::vector<std::uint32_t> carried = m_mesh_gathered(cols, rows, s.from, step - 1);
          EXPECT_EQ(carried, holds[s.from]);
          EXPECT_EQ(carried.back() - carried.front() + 1, carried.size());  // contiguous
          if (powers) {
            EXPECT_EQ(carried.size(),
                      s.dim == 0 ? (1u << s.level) : static_cast<std::uint32_t>(cols) << s.level);
          }
          for (std::uint32_t p : s.to) {
            ++got[p];
            for (std::uint32_t c : carried)
              EXPECT_FALSE(std::binary_search(holds[p].begin(), holds[p].end(), c)) << p;
            next[p].insert(next[p].end(), carried.begin(), carried.end());
          }
        }
        for (std::uint32_t p = 0; p < nodes; ++p) {
          std::sort(next[p].begin(), next[p].end());
          EXPECT_EQ(next[p], m_mesh_gathered(cols, rows, p, step)) << p << " step " << step;
          if (powers) {
            EXPECT_EQ(got[p], 1) << p << " step " << step;
          }
        }
        holds = next;
      }
      for (std::uint32_t p = 0; p < nodes; ++p) EXPECT_EQ(holds[p], range(0, nodes)) << p;
    }
}

}  // namespace
}  // namespace wormsim::fw::m_array_test
