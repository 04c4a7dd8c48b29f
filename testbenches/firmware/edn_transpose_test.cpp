// EDN matrix transposition as a pure function (firmware/edn_transpose.h, seed 000 section 3.6,
// Fig. 3.28), on 2^k x 2^k meshes, k = 2 .. 6:
//   - every block reaches its transposed node exactly once: replaying the sends step by step,
//     each sender sends blocks it holds (and then no longer holds them), and each node ends
//     with exactly the block of the node at its transposed coordinates; diagonal nodes' blocks
//     never travel ("processors located in the major diagonal already hold the correct data");
//   - k message-passing steps, none empty ("transpose for a network of size 2^k x 2^k
//     requires k message-passing steps");
//   - all-port: in every step a node sends at most one message per output port (its first
//     hop, walked here);
//   - the links of every step's XY routes, walked here independently of the code under test:
//     for even k the seed claims no contention, so every step must be link-disjoint. For odd
//     k the seed counts 3n/4 messages "involved in channel contention"; the test counts the
//     messages of a step that share a directed link with another message of that step. The
//     reconstruction swaps the two off-diagonal quadrants in the middle step among holders on
//     the quadrants' local diagonals, one per row and per column (edn_transpose.h), so it
//     expects none: the count must be 0, below the seed's 3n/4 (docs/edn-reduction-transpose.md
//     reports the difference);
//   - "the third and fourth steps are similar to the second and first, respectively, except
//     that the direction of the messages is reversed": step k + 1 - s has the (sender,
//     receiver) pairs of step s, reversed;
//   - the most blocks in one message is what config validation assumes
//     (edn_transpose_max_blocks).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "topology_test_util.h"
#include "config.h"
#include "edn_transpose.h"

namespace wormsim::fw::edn_transpose_test {
namespace {

using wormsim::testing::xy_links;

NodeId transpose_of(int side, NodeId n) {
  return static_cast<NodeId>(static_cast<int>(n) / side + static_cast<int>(n) % side * side);
}

class EdnTransposePattern : public ::testing::TestWithParam<int> {};

TEST_P(EdnTransposePattern, EveryBlockReachesItsTransposedNodeOnce) {
  const int k = GetParam();
  const EdnTranspose p(k);
  const int side = 1 << k, nodes = side * side;
  ASSERT_EQ(p.side(), side);
  std::vector<std::set<NodeId>> holds(static_cast<std::size_t>(nodes));
  for (int n = 0; n < nodes; ++n) holds[static_cast<std::size_t>(n)].insert(static_cast<NodeId>(n));
  const auto& sends = p.sends();
  std::size_t i = 0;
  std::set<int> steps;
  for (int step = 1; i < sends.size(); ++step) {
    ASSERT_EQ(sends[i].step, step) << "steps out of order or one empty";
    steps.insert(step);
    std::vector<std::pair<NodeId, NodeId>> landing;  // (receiver, block)
    for (; i < sends.size() && sends[i].step == step; ++i) {
      const TransposeSend& s = sends[i];
      ASSERT_FALSE(s.carries.empty());
      EXPECT_TRUE(std::is_sorted(s.carries.begin(), s.carries.end()));
      for (NodeId b : s.carries) {
        EXPECT_EQ(holds[s.from].erase(b), 1u) << "node " << s.from << " lacks block " << b;
        EXPECT_NE(transpose_of(side, b), b) << "a diagonal block travels";
        landing.emplace_back(s.to, b);
      }
    }
    for (const auto& [to, b] : landing)
      EXPECT_TRUE(holds[to].insert(b).second) << "block " << b << " twice at " << to;
  }
  EXPECT_EQ(static_cast<int>(steps.size()), k);
  EXPECT_EQ(p.steps(), k);
  for (int n = 0; n < nodes; ++n)
    EXPECT_EQ(holds[static_cast<std::size_t>(n)],
              std::set<NodeId>{transpose_of(side, static_cast<NodeId>(n))})
        << "node " << n;
}

TEST_P(EdnTransposePattern, AllPortAndLinkDisjointInEveryStep) {
  const int k = GetParam();
  const EdnTranspose p(k);
  const int side = 1 << k;
  std::map<int, std::vector<const TransposeSend*>> by_step;
  for (const TransposeSend& s : p.sends()) by_step[s.step].push_back(&s);
  ASSERT_EQ(static_cast<int>(by_step.size()), k);
  for (const auto& [step, msgs] : by_step) {
    std::set<std::pair<int, int>> ports;  // (sender, first-hop direction)
    std::map<std::pair<int, int>, int> users;
    std::vector<std::vector<std::pair<int, int>>> routes;
    for (const TransposeSend* s : msgs) {
      ASSERT_NE(s->from, s->to);
      routes.push_back(xy_links(side, s->from, s->to));
      EXPECT_TRUE(ports.insert(routes.back().front()).second)
          << "step " << step << ": node " << s->from << " sends twice on one port";
      for (const auto& l : routes.back()) ++users[l];
    }
    std::size_t contended = 0;  // messages sharing a link with another of this step
    for (const auto& r : routes)
      if (std::any_of(r.begin(), r.end(), [&](const auto& l) { return users[l] > 1; })) ++contended;
    RecordProperty("step" + std::to_string(step) + "_contended", static_cast<int>(contended));
    EXPECT_EQ(contended, 0u) << "k " << k << " step " << step;
    if (k % 2 == 1) {
      EXPECT_LE(contended, static_cast<std::size_t>(3 * side / 4));
    }
  }
}

TEST_P(EdnTransposePattern, LastStepsReverseTheFirst) {
  const int k = GetParam();
  const EdnTranspose p(k);
  std::map<int, std::set<std::pair<NodeId, NodeId>>> pairs;
  for (const TransposeSend& s : p.sends()) pairs[s.step].insert({s.from, s.to});
  for (int s = 1; s <= k / 2; ++s) {
    std::set<std::pair<NodeId, NodeId>> reversed;
    for (const auto& [a, b] : pairs[s]) reversed.insert({b, a});
    EXPECT_EQ(pairs[k + 1 - s], reversed) << "steps " << s << " and " << k + 1 - s;
  }
}

TEST_P(EdnTransposePattern, LargestMessageIsWhatValidationAssumes) {
  const int k = GetParam();
  const EdnTranspose p(k);
  std::size_t most = 0;
  for (const TransposeSend& s : p.sends()) most = std::max(most, s.carries.size());
  EXPECT_EQ(most, edn_transpose_max_blocks(1 << k));
}

INSTANTIATE_TEST_SUITE_P(K, EdnTransposePattern, ::testing::Values(2, 3, 4, 5, 6),
                         [](const auto& param_info) {
                           return "k" + std::to_string(param_info.param);
                         });

// The basic 4x4 pattern: diagonal collectors, every off-diagonal node sends to one of them,
// the 12 routes use every link into the diagonal (corner collectors 2, inner ones 4).
TEST(EdnTransposeBasicPattern, GathersToTheDiagonalOverEveryLinkIntoIt) {
  const EdnTranspose p(2);
  std::map<int, int> arrivals;  // collector -> messages
  std::set<std::pair<int, int>> last_links;
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      const int c = p.collector(x, y);
      ASSERT_GE(c, 0);
      ASSERT_LT(c, 4);
      if (x == y) {
        EXPECT_EQ(c, x);
        continue;
      }
      ++arrivals[c];
      last_links.insert(
          xy_links(4, static_cast<NodeId>(x + 4 * y), static_cast<NodeId>(c * 5)).back());
    }
  EXPECT_EQ(arrivals, (std::map<int, int>{{0, 2}, {1, 4}, {2, 4}, {3, 2}}));
  EXPECT_EQ(last_links.size(), 12u);
}

TEST(EdnTransposeBasicPattern, RejectsOtherSizes) {
  EXPECT_THROW(EdnTranspose(1), std::invalid_argument);
  EXPECT_THROW(EdnTranspose(11), std::invalid_argument);
}

}  // namespace
}  // namespace wormsim::fw::edn_transpose_test
