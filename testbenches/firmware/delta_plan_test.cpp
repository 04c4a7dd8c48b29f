// Seed 002's one-to-all and all-to-one plans (firmware/delta_plan.h) against the seed's own
// numbers and closed formulas derived by hand, never against values the code produced:
//   - message set-ups at the source on 16x16 (seed 002 section 3.2, Fig. 5): 1-lev-dir 255,
//     2-lev-rec 30, 3-lev-sq 21, logp-lev-sq 8; logp-lev-rec(0.75): the seed says 15, the
//     spec's split rule (docs/drafts/issue19-spec.md 2.1.7) gives 16, and 7, 9, 12, 14 for
//     p = 16..128 (worked out by hand: 256 -> 192 -> 144 -> 108 -> 81 -> 60 -> 45 -> 33 -> 24 ->
//     18 -> 13 -> 9 -> 6 -> 4 -> 3 -> 2 -> 1 is 16 sends); the closed forms (r-1)+(c-1),
//     (m-1)+(b_r-1)+(b_c-1), log2 p on every size and from every root;
//   - "The amount of data sent out by the source processor is the same for all algorithms"
//     (section 3): (p-1) blocks, except the broadcasts ((r-1+c-1)(p-1), log2 p (p-1));
//   - every block reaches its destination exactly once, each node forwards only what it holds,
//     sends go out farthest first within a superstep (R1), on 4x4, 4x8, 8x8, 8x16, 16x16 and
//     5x7 (where the algorithm is defined) from several roots;
//   - gather: the root receives (r-1)+(c-1) messages in 2-lev-rec, r-1 of c blocks and c-1 of
//     one (spec 2.2), 21 in 3-lev-sq and 8 in logp-lev-sq on 16x16; a hand-traced gamma < 0.5
//     split around the destination (section 4).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "delta_plan.h"

namespace wormsim::delta_plan_test {
namespace {

using A = CollectiveAlgorithm;

const A kScatters[] = {A::kO2a1LevDir, A::kO2a1LevSysBr, A::kO2a1LevOurBr, A::kO2a2LevRec,
                       A::kO2a3LevSq,  A::kO2aLogpLevSq, A::kO2aLogpLevRec};
const A kGathers[] = {A::kGatherDirect, A::kA2o2LevRec, A::kA2o3LevSq, A::kA2oLogpLevSq,
                      A::kA2oLogpLevRec};

struct Shape {
  int rows, cols;
};
const Shape kShapes[] = {{4, 4}, {4, 8}, {8, 8}, {8, 16}, {16, 16}, {5, 7}};

bool broadcast(A a) { return a == A::kO2a1LevSysBr || a == A::kO2a1LevOurBr; }

int log2i(int v) {
  int k = 0;
  while ((1 << k) < v) ++k;
  return k;
}

std::vector<NodeId> roots_of(const Shape& s) {
  const int p = s.rows * s.cols;
  return {0, static_cast<NodeId>(p - 1), static_cast<NodeId>(s.cols + 1),
          static_cast<NodeId>((s.rows / 2) * s.cols + s.cols / 2)};
}

int distance(int cols, NodeId a, NodeId b) {
  return std::abs(static_cast<int>(a) / cols - static_cast<int>(b) / cols) +
         std::abs(static_cast<int>(a) % cols - static_cast<int>(b) % cols);
}

std::size_t blocks_sent_by(const fw::ScatterPlan& plan, NodeId n) {
  std::size_t total = 0;
  for (const fw::PlanSend& s : plan.sends[n]) total += s.carries.size();
  return total;
}

TEST(DeltaPlan, SourceSetUpsOn16x16AreTheSeedsFigure5Counts) {
  const auto setups = [](A a, double gamma = 0.75) {
    return fw::o2a_plan(16, 16, 0, a, gamma).sends[0].size();
  };
  EXPECT_EQ(setups(A::kO2a1LevDir), 255u);   // seed 002 section 3.2
  EXPECT_EQ(setups(A::kO2a2LevRec), 30u);    // seed 002 section 3.2
  EXPECT_EQ(setups(A::kO2a3LevSq), 21u);     // seed 002 section 3.2
  EXPECT_EQ(setups(A::kO2aLogpLevSq), 8u);   // seed 002 section 3.2
  EXPECT_EQ(setups(A::kO2a1LevOurBr), 8u);   // spec 2.1.3: log p
  EXPECT_EQ(setups(A::kO2a1LevSysBr), 30u);  // reconstruction: 15 down the column + 15 along
  // The seed says 15; the spec's rule gives 16 (a documented deviation, spec 2.1.7 and 5.1).
  EXPECT_EQ(setups(A::kO2aLogpLevRec), 16u);
}

TEST(DeltaPlan, LogpLevRecSetUpsFollowTheSpecsSplitRule) {
  // Spec 2.1.7: "The rule above gives 7, 9, 12, 14, 16 for p = 16..256" (root P_0).
  const Shape shapes[] = {{4, 4}, {4, 8}, {8, 8}, {8, 16}, {16, 16}};
  const std::size_t expected[] = {7, 9, 12, 14, 16};
  for (std::size_t i = 0; i < 5; ++i)
    EXPECT_EQ(
        fw::o2a_plan(shapes[i].rows, shapes[i].cols, 0, A::kO2aLogpLevRec, 0.75).sends[0].size(),
        expected[i])
        << shapes[i].rows << "x" << shapes[i].cols;
  // gamma = 0.5 on a power of two halves every range: log2 p sends.
  EXPECT_EQ(fw::o2a_plan(8, 16, 0, A::kO2aLogpLevRec, 0.5).sends[0].size(), 7u);
}

TEST(DeltaPlan, SourceSetUpsAndSuperstepsMatchTheClosedFormsFromEveryRoot) {
  for (const Shape& s : kShapes)
    for (NodeId root : roots_of(s)) {
      const int r = s.rows, c = s.cols, p = r * c;
      const std::string where =
          std::to_string(r) + "x" + std::to_string(c) + " root " + std::to_string(root);
      const auto plan = [&](A a) { return fw::o2a_plan(r, c, root, a, 0.75); };
      const auto last_step = [&](const fw::ScatterPlan& pl) {
        int m = 0;
        for (const auto& sends : pl.sends)
          for (const fw::PlanSend& x : sends) m = std::max(m, x.step);
        return m;
      };
      EXPECT_EQ(plan(A::kO2a1LevDir).sends[root].size(), static_cast<std::size_t>(p - 1)) << where;
      EXPECT_EQ(last_step(plan(A::kO2a1LevDir)), 1) << where;
      EXPECT_EQ(plan(A::kO2a2LevRec).sends[root].size(), static_cast<std::size_t>(r - 1 + c - 1))
          << where;
      EXPECT_EQ(last_step(plan(A::kO2a2LevRec)), 2) << where;
      EXPECT_EQ(plan(A::kO2a1LevSysBr).sends[root].size(), static_cast<std::size_t>(r - 1 + c - 1))
          << where;
      EXPECT_EQ(last_step(plan(A::kO2a1LevSysBr)), 2) << where;
      if ((p & (p - 1)) == 0) {
        EXPECT_EQ(plan(A::kO2aLogpLevSq).sends[root].size(), static_cast<std::size_t>(log2i(p)))
            << where;
        EXPECT_EQ(last_step(plan(A::kO2aLogpLevSq)), log2i(p)) << where;
        EXPECT_EQ(plan(A::kO2a1LevOurBr).sends[root].size(), static_cast<std::size_t>(log2i(p)))
            << where;
        // 3-lev-sq: blocks of spec section 0, m = p / q of them.
        const int q = 1 << (log2i(p) / 2), br = 1 << (log2i(q) / 2), bc = q / br;
        EXPECT_EQ(fw::sq_block(r, c).rows, br);
        EXPECT_EQ(fw::sq_block(r, c).cols, bc);
        EXPECT_EQ(plan(A::kO2a3LevSq).sends[root].size(),
                  static_cast<std::size_t>(p / q - 1 + br - 1 + bc - 1))
            << where;
        EXPECT_EQ(last_step(plan(A::kO2a3LevSq)), 3) << where;
      }
    }
}

TEST(DeltaPlan, SqBlocksAreTheSpecsTable) {
  // Spec section 0: 4x4: 2x2; 4x8: 2x2; 8x8: 2x4; 8x16: 2x4; 16x16: 4x4.
  EXPECT_EQ(fw::sq_block(4, 4).rows * 10 + fw::sq_block(4, 4).cols, 22);
  EXPECT_EQ(fw::sq_block(4, 8).rows * 10 + fw::sq_block(4, 8).cols, 22);
  EXPECT_EQ(fw::sq_block(8, 8).rows * 10 + fw::sq_block(8, 8).cols, 24);
  EXPECT_EQ(fw::sq_block(8, 16).rows * 10 + fw::sq_block(8, 16).cols, 24);
  EXPECT_EQ(fw::sq_block(16, 16).rows * 10 + fw::sq_block(16, 16).cols, 44);
  EXPECT_FALSE(fw::delta_plan_unsupported(5, 7, A::kO2a3LevSq).empty());
  EXPECT_FALSE(fw::delta_plan_unsupported(6, 8, A::kA2o3LevSq).empty());
  EXPECT_TRUE(fw::delta_plan_unsupported(16, 32, A::kO2a3LevSq).empty());
  EXPECT_TRUE(fw::delta_plan_unsupported(5, 7, A::kO2aLogpLevSq).empty());
}

TEST(DeltaPlan, EveryScatterDeliversEveryBlockOnceAndTheSourceSendsPMinus1Blocks) {
  for (const Shape& s : kShapes)
    for (NodeId root : roots_of(s))
      for (A alg : kScatters)
        for (double gamma : {0.5, 0.75, 0.9}) {
          if (alg != A::kO2aLogpLevRec && gamma != 0.75) continue;
          if (!fw::delta_plan_unsupported(s.rows, s.cols, alg).empty()) continue;
          const int p = s.rows * s.cols;
          const std::string where = to_string(alg) + " " + std::to_string(s.rows) + "x" +
                                    std::to_string(s.cols) + " root " + std::to_string(root) +
                                    " gamma " + std::to_string(gamma);
          const fw::ScatterPlan plan = fw::o2a_plan(s.rows, s.cols, root, alg, gamma);
          // Walk the tree from the root: a node forwards only blocks it holds, each block
          // other than its own at most once (non-broadcast), and holds its own.
          std::vector<std::set<NodeId>> held(static_cast<std::size_t>(p));
          std::vector<int> got(static_cast<std::size_t>(p), 0);
          std::vector<int> received_in(static_cast<std::size_t>(p), 0);
          for (int n = 0; n < p; ++n)
            if (static_cast<NodeId>(n) != root) held[root].insert(static_cast<NodeId>(n));
          std::vector<NodeId> frontier{root};
          while (!frontier.empty()) {
            const NodeId x = frontier.back();
            frontier.pop_back();
            std::multiset<NodeId> forwarded;
            for (std::size_t k = 0; k < plan.sends[x].size(); ++k) {
              const fw::PlanSend& snd = plan.sends[x][k];
              EXPECT_GT(snd.step, received_in[x]) << where;
              if (k > 0) {
                const fw::PlanSend& prev = plan.sends[x][k - 1];
                ASSERT_LE(prev.step, snd.step) << where;
                if (prev.step == snd.step) {  // R1: farthest first, ties by id
                  const int dp = distance(s.cols, x, prev.to), dn = distance(s.cols, x, snd.to);
                  EXPECT_TRUE(dp > dn || (dp == dn && prev.to < snd.to)) << where;
                }
              }
              for (NodeId b : snd.carries) {
                EXPECT_TRUE(held[x].count(b)) << where << ": " << x << " forwards " << b;
                forwarded.insert(b);
              }
              EXPECT_TRUE(std::find(snd.carries.begin(), snd.carries.end(), snd.to) !=
                          snd.carries.end())
                  << where;
              EXPECT_EQ(plan.parent[snd.to], x) << where;
              EXPECT_EQ(plan.receives[snd.to], snd.carries) << where;
              ++got[snd.to];
              received_in[snd.to] = snd.step;
              held[snd.to].insert(snd.carries.begin(), snd.carries.end());
              frontier.push_back(snd.to);
            }
            if (!broadcast(alg)) {
              std::set<NodeId> expect = held[x];
              expect.erase(x);
              EXPECT_EQ(std::set<NodeId>(forwarded.begin(), forwarded.end()), expect) << where;
              EXPECT_EQ(forwarded.size(), expect.size()) << where << " node " << x;
            }
          }
          for (int n = 0; n < p; ++n)
            EXPECT_EQ(got[static_cast<std::size_t>(n)], static_cast<NodeId>(n) == root ? 0 : 1)
                << where << " node " << n;
          // Seed 002 section 3: the same (p-1)L from the source in every non-broadcast.
          const std::size_t sent = blocks_sent_by(plan, root);
          if (alg == A::kO2a1LevSysBr) {
            EXPECT_EQ(sent, static_cast<std::size_t>((s.rows - 1 + s.cols - 1) * (p - 1)));
          } else if (alg == A::kO2a1LevOurBr) {
            EXPECT_EQ(sent, plan.sends[root].size() * static_cast<std::size_t>(p - 1));
          } else {
            EXPECT_EQ(sent, static_cast<std::size_t>(p - 1)) << where;
          }
        }
}

TEST(DeltaPlan, TwoLevRecSendsRowsDownTheRootsColumnThenAlongEachRow) {
  // Spec 2.1.4 on 4x8 from (1, 5) = node 13: step 1 cL to (y, 5), step 2 L along each row.
  const fw::ScatterPlan plan = fw::o2a_plan(4, 8, 13, A::kO2a2LevRec, 0.75);
  ASSERT_EQ(plan.sends[13].size(), 3u + 7u);
  // Farthest first: (3,5) = 29 at distance 2, then (0,5) = 5 and (2,5) = 21 at distance 1.
  EXPECT_EQ(plan.sends[13][0].to, 29u);
  EXPECT_EQ(plan.sends[13][1].to, 5u);
  EXPECT_EQ(plan.sends[13][2].to, 21u);
  EXPECT_EQ(plan.sends[13][0].carries, (std::vector<NodeId>{24, 25, 26, 27, 28, 29, 30, 31}));
  EXPECT_EQ(plan.sends[13][0].step, 1);
  // Then its own row, farthest first: (1,0) = 8 at distance 5, ..., (1,6) = 14 / (1,4) = 12.
  EXPECT_EQ(plan.sends[13][3].to, 8u);
  EXPECT_EQ(plan.sends[13][3].step, 2);
  EXPECT_EQ(plan.sends[13].back().to, 14u);
  EXPECT_EQ(plan.parent[30], 29u);
  EXPECT_EQ(plan.receives[30], std::vector<NodeId>{30});
}

TEST(DeltaPlan, GatherTreesConserveBlocksAndTheRootReceivesTheSpecsCounts) {
  for (const Shape& s : kShapes)
    for (NodeId root : roots_of(s))
      for (A alg : kGathers)
        for (double gamma : {0.2, 0.45, 0.6, 0.75}) {
          if (alg != A::kA2oLogpLevRec && gamma != 0.75) continue;
          if (!fw::delta_plan_unsupported(s.rows, s.cols, alg).empty()) continue;
          const int p = s.rows * s.cols;
          const std::string where = to_string(alg) + " " + std::to_string(s.rows) + "x" +
                                    std::to_string(s.cols) + " root " + std::to_string(root) +
                                    " gamma " + std::to_string(gamma);
          const fw::GatherPlan g = fw::a2o_plan(s.rows, s.cols, root, alg, gamma);
          EXPECT_EQ(g.parent[root], kNoNode) << where;
          std::multiset<NodeId> at_root;
          for (int i = 0; i < p; ++i) {
            const auto n = static_cast<NodeId>(i);
            std::multiset<NodeId> expect{n};
            int child_step = 0;
            for (NodeId c : g.children[n]) {
              EXPECT_EQ(g.parent[c], n) << where;
              expect.insert(g.carries[c].begin(), g.carries[c].end());
              child_step = std::max(child_step, g.step[c]);
            }
            if (n == root) {
              at_root = expect;
              continue;
            }
            EXPECT_EQ(std::multiset<NodeId>(g.carries[n].begin(), g.carries[n].end()), expect)
                << where << " node " << n;
            EXPECT_EQ(g.step[n], child_step + 1) << where;
          }
          std::multiset<NodeId> all;
          for (int i = 0; i < p; ++i) all.insert(static_cast<NodeId>(i));
          EXPECT_EQ(at_root, all) << where;  // every block once
          const std::size_t kids = g.children[root].size();
          const int r = s.rows, c = s.cols;
          if (alg == A::kGatherDirect) {
            EXPECT_EQ(kids, static_cast<std::size_t>(p - 1));
          }
          if (alg == A::kA2o2LevRec) {
            EXPECT_EQ(kids, static_cast<std::size_t>(r - 1 + c - 1)) << where;
            std::size_t long_ones = 0, short_ones = 0;
            for (NodeId k : g.children[root]) {
              if (g.carries[k].size() == static_cast<std::size_t>(c)) ++long_ones;
              if (g.carries[k].size() == 1u) ++short_ones;
            }
            EXPECT_EQ(long_ones, static_cast<std::size_t>(r - 1)) << where;
            EXPECT_EQ(short_ones, static_cast<std::size_t>(c - 1)) << where;
            EXPECT_EQ(*std::max_element(g.step.begin(), g.step.end()), 2) << where;
          }
        }
  EXPECT_EQ(fw::a2o_plan(16, 16, 0, A::kA2o3LevSq, 0.6).children[0].size(), 21u);
  EXPECT_EQ(fw::a2o_plan(16, 16, 0, A::kA2oLogpLevSq, 0.6).children[0].size(), 8u);
  // Reversed o2a tree (spec 2.2): the root's receives are the o2a source's 16 sends.
  EXPECT_EQ(fw::a2o_plan(16, 16, 0, A::kA2oLogpLevRec, 0.75).children[0].size(), 16u);
}

TEST(DeltaPlan, GatherWithGammaBelowHalfSplitsAroundTheDestinationOnce) {
  // Traced by hand on 4x4, gamma 0.25, destination P_8 (snake index 8): n_A = 4, and index 8
  // is in neither the first 4 nor the last 4, so [0, 8) gathers to snake 7 (node 4), which
  // sends its 8 blocks to P_8. [8, 16) to 8: n_A = 2, B = [10, 16) to snake 10 (node 10),
  // 6 blocks; then [8, 10): B = [9] (node 9), 1 block.
  const fw::GatherPlan g = fw::a2o_plan(4, 4, 8, A::kA2oLogpLevRec, 0.25);
  EXPECT_EQ(g.children[8], (std::vector<NodeId>{4, 9, 10}));
  EXPECT_EQ(g.carries[4].size(), 8u);
  EXPECT_EQ(g.carries[9].size(), 1u);
  EXPECT_EQ(g.carries[10].size(), 6u);
  // Snake [0, 8) to index 7 (n 8, n_A 2): index 7 is among the last 2, so B = [0, 6) gathers
  // to index 5 (row 1 runs backwards: x = 2, node 6), which sends its 6 blocks to node 4.
  EXPECT_EQ(g.parent[6], 4u);
  EXPECT_EQ(g.carries[6].size(), 6u);
}

TEST(DeltaPlan, SnakeOrderNeighboursAreMeshNeighbours) {
  for (const Shape& s : kShapes)
    for (int i = 0; i + 1 < s.rows * s.cols; ++i) {
      EXPECT_EQ(fw::snake_index(s.cols, fw::snake_node(s.cols, i)), i);
      EXPECT_EQ(distance(s.cols, fw::snake_node(s.cols, i), fw::snake_node(s.cols, i + 1)), 1);
    }
}

}  // namespace
}  // namespace wormsim::delta_plan_test
