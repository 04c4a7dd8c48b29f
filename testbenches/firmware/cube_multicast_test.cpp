// Seed 001's hypercube multicast algorithms as pure functions (firmware/cube_multicast.h):
//   - the examples of Figs. 3, 5, 6 and 8 with the seed's step counts and orders (high-to-low
//     E-cube resolution, as the seed assumes in every example);
//   - Theorem 5 (weighted_sort keeps a cube-ordered chain, permutes it, keeps the source
//     first), checked against Definition 5 by enumerating every subcube;
//   - Theorems 1 and 2 (arc-disjoint E-cube paths) on random node pairs, walking the paths;
//   - Definition 4 (contention-free multicast) for every algorithm's tree over random
//     destination sets in 6- and 10-cubes, from the E-cube paths and the reachable sets
//     computed here, not by the code under test; the one-port U-cube bound
//     ceil(log2(m + 1)) (section 2, [9]) and the all-port trees reaching every destination
//     exactly once.
#include "cube_multicast.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <utility>

namespace wormsim::fw::cube_multicast_test {
namespace {

std::vector<int> high_to_low(int n) {
  std::vector<int> order;
  for (int d = n - 1; d >= 0; --d) order.push_back(d);
  return order;
}

// The arcs (node, dimension) of the E-cube path from u to v, dimensions in `order`.
std::vector<std::pair<NodeId, int>> ecube_arcs(NodeId u, NodeId v, const std::vector<int>& order) {
  std::vector<std::pair<NodeId, int>> arcs;
  NodeId at = u;
  for (int d : order)
    if (((at ^ v) >> d) & 1u) {
      arcs.emplace_back(at, d);
      at ^= NodeId{1} << d;
    }
  return arcs;
}

bool arc_disjoint(NodeId u, NodeId v, NodeId x, NodeId y, const std::vector<int>& order) {
  const auto a = ecube_arcs(u, v, order);
  const auto b = ecube_arcs(x, y, order);
  for (const auto& arc : a)
    if (std::find(b.begin(), b.end(), arc) != b.end()) return false;
  return true;
}

// Definition 4 over every pair of the multicast's unicasts; returns the first violation.
std::string def4_violation(const CubeMulticast& m, const std::vector<int>& order) {
  // Reachable sets (Definition 3): the subtree of each node.
  std::map<NodeId, NodeId> parent;
  for (const auto& s : m.sends()) parent[s.to] = s.from;
  const auto in_reach = [&](NodeId x, NodeId u) {  // x in R_u
    for (NodeId n = x;; n = parent.at(n)) {
      if (n == u) return true;
      if (parent.find(n) == parent.end()) return false;
    }
  };
  const auto& sends = m.sends();
  std::vector<std::vector<std::pair<NodeId, int>>> arcs;
  for (const auto& s : sends) arcs.push_back(ecube_arcs(s.from, s.to, order));
  const auto disjoint = [&](std::size_t i, std::size_t j) {
    for (const auto& a : arcs[i])
      if (std::find(arcs[j].begin(), arcs[j].end(), a) != arcs[j].end()) return false;
    return true;
  };
  for (std::size_t i = 0; i < sends.size(); ++i)
    for (std::size_t j = 0; j < sends.size(); ++j) {
      if (i == j) continue;
      const auto& e = sends[i];  // (u, v, t)
      const auto& f = sends[j];  // (x, y, tau), t <= tau
      if (e.step > f.step || (e.step == f.step && i > j)) continue;
      if (disjoint(i, j)) continue;
      if (e.step < f.step && in_reach(f.from, e.from)) continue;
      return "(" + std::to_string(e.from) + "->" + std::to_string(e.to) + ", step " +
             std::to_string(e.step) + ") and (" + std::to_string(f.from) + "->" +
             std::to_string(f.to) + ", step " + std::to_string(f.step) + ")";
    }
  return {};
}

TEST(CubeDelta, IsTheHighestDifferingBit) {
  EXPECT_EQ(cube_delta(0b0101, 0b1110), 3);
  EXPECT_EQ(cube_delta(0b0100, 0b0101), 0);
  EXPECT_THROW(cube_delta(7, 7), std::logic_error);
}

TEST(CubeKey, ResolutionOrderPermutesTheBits) {
  // Low-to-high resolution: the key is the bit-reversed address (section 4.1: "10100, 10010,
  // 00110" is the dimension-ordered chain when addresses are resolved from lowest to highest).
  const std::vector<int> low_to_high{0, 1, 2, 3, 4};
  std::vector<NodeId> nodes{0b10100, 0b00110, 0b10010};
  std::sort(nodes.begin(), nodes.end(), [&](NodeId a, NodeId b) {
    return cube_key(a, low_to_high) < cube_key(b, low_to_high);
  });
  EXPECT_EQ(nodes, (std::vector<NodeId>{0b10100, 0b10010, 0b00110}));
  for (NodeId n = 0; n < 32; ++n) EXPECT_EQ(cube_node(cube_key(n, low_to_high), low_to_high), n);
  EXPECT_EQ(cube_key(0b10110, high_to_low(5)), 0b10110u);
}

// Figs. 3 and 8: source 0000, destinations {0001, 0011, 0101, 0111, 1011, 1100, 1110, 1111}
// (Fig. 8's D = {0, 1, 3, 5, 7, 11, 12, 14, 15} with the source).
const std::vector<NodeId> kFig3{1, 3, 5, 7, 11, 12, 14, 15};

TEST(SeedExamples, Fig3OnePortUCubeTakesFourSteps) {
  // Fig. 3(c): U-cube on a one-port 4-cube, optimal ceil(log2(8 + 1)) = 4 steps.
  const CubeMulticast m(CubeAlgorithm::kUCube, high_to_low(4), 0, kFig3, PortModel::kOnePort);
  EXPECT_EQ(m.steps(), 4);
  EXPECT_EQ(def4_violation(m, high_to_low(4)), "");
}

TEST(SeedExamples, Fig3dAllPortUCubeStillTakesFourAndReaches1011InStepThree) {
  // Fig. 3(d): "it would still require four steps ... three steps are required to reach
  // destination node 1011, since that unicast message must traverse a channel in the path
  // required to reach node 1100"; Fig. 8(a): "node 7 cannot send to nodes 11 and 12 during
  // the same time step".
  const CubeMulticast m(CubeAlgorithm::kUCube, high_to_low(4), 0, kFig3, PortModel::kAllPort);
  EXPECT_EQ(m.steps(), 4);
  EXPECT_EQ(m.receive_step(0b1011), 3);
  EXPECT_EQ(m.receive_step(0b0111), 1);  // "step 1 ... mistakenly selects node 0111"
  EXPECT_EQ(m.receive_step(0b1100), 2);
  std::vector<std::pair<NodeId, int>> from7;
  for (const auto& s : m.sends())
    if (s.from == 7) from7.emplace_back(s.to, s.step);
  EXPECT_EQ(from7, (std::vector<std::pair<NodeId, int>>{{12, 2}, {11, 3}}));
}

TEST(SeedExamples, Fig8bMaxportTakesFourSteps) {
  const CubeMulticast m(CubeAlgorithm::kMaxport, high_to_low(4), 0, kFig3, PortModel::kAllPort);
  EXPECT_EQ(m.steps(), 4);
  // Every unicast of one source in one step leaves on its own channel.
  std::set<std::tuple<NodeId, int, int>> used;
  for (const auto& s : m.sends()) EXPECT_TRUE(used.insert({s.from, s.step, s.dimension}).second);
  EXPECT_EQ(def4_violation(m, high_to_low(4)), "");
}

TEST(SeedExamples, Fig8cWeightedSortOrderAndTwoStepWSort) {
  // Section 4.2: weighted_sort turns D into {0, 1, 3, 5, 7, 14, 15, 12, 11}; W-sort then
  // needs 2 steps (Fig. 8(c)), the optimal tree of Fig. 3(e).
  std::vector<std::uint32_t> d{0, 1, 3, 5, 7, 11, 12, 14, 15};
  weighted_sort(d, 0, d.size() - 1, 4);
  EXPECT_EQ(d, (std::vector<std::uint32_t>{0, 1, 3, 5, 7, 14, 15, 12, 11}));
  const CubeMulticast m(CubeAlgorithm::kWSort, high_to_low(4), 0, kFig3, PortModel::kAllPort);
  EXPECT_EQ(m.chain(), (std::vector<NodeId>{0, 1, 3, 5, 7, 14, 15, 12, 11}));
  EXPECT_EQ(m.steps(), 2);
  EXPECT_EQ(def4_violation(m, high_to_low(4)), "");
}

TEST(SeedExamples, Fig5SourceRelativeChainAndFourOnePortSteps) {
  // Fig. 5: source 0100, destinations {0001, 0011, 0101, 0111, 1000, 1010, 1011, 1111}; the
  // XOR with 0100, sorted, is the chain of Fig. 3 (the seed prints it without 1110, which
  // 1010 XOR 0100 gives: docs/hypercube-multicast.md); 4 one-port steps.
  const std::vector<NodeId> dests{0b0001, 0b0011, 0b0101, 0b0111, 0b1000, 0b1010, 0b1011, 0b1111};
  const CubeMulticast m(CubeAlgorithm::kUCube, high_to_low(4), 0b0100, dests, PortModel::kOnePort);
  std::vector<NodeId> relative;
  for (NodeId n : m.chain()) relative.push_back(n ^ 0b0100);
  EXPECT_EQ(relative, (std::vector<NodeId>{0, 1, 3, 5, 7, 11, 12, 14, 15}));
  EXPECT_EQ(m.steps(), 4);
}

TEST(SeedExamples, Fig6MaxportThreeStepsUCubeTwo) {
  // Fig. 6: source 0000 to {1001, 1010, 1011}: the Maxport "tree" takes three steps (a), the
  // U-cube solution two (b); Combine picks the better one here.
  const std::vector<NodeId> dests{0b1001, 0b1010, 0b1011};
  const auto order = high_to_low(4);
  EXPECT_EQ(CubeMulticast(CubeAlgorithm::kMaxport, order, 0, dests, PortModel::kAllPort).steps(),
            3);
  EXPECT_EQ(CubeMulticast(CubeAlgorithm::kUCube, order, 0, dests, PortModel::kAllPort).steps(), 2);
  EXPECT_EQ(CubeMulticast(CubeAlgorithm::kCombine, order, 0, dests, PortModel::kAllPort).steps(),
            2);
}

TEST(UCubeOnAllPorts, IsNotContentionFree) {
  // U-cube's contention-freedom is a one-port result ([9]; section 2: "on a one-port
  // architecture, all messages are guaranteed to be contention-free"). On all ports a holder's
  // sends on different channels share a step, and two of them can meet: in this 5-cube set
  // (found by search) 0 -> 01011 and 00100 -> 01010 both go in step 2 and share the arc
  // 01000 -> 01010. Rare: 2 of 2000 random 6-cube sets (docs/hypercube-multicast.md).
  const std::vector<NodeId> dests{4, 10, 11, 12, 13, 15, 18, 19, 25, 26, 31};
  const auto order = high_to_low(5);
  EXPECT_EQ(def4_violation(
                CubeMulticast(CubeAlgorithm::kUCube, order, 0, dests, PortModel::kAllPort), order),
            "(0->11, step 2) and (4->10, step 2)");
  EXPECT_EQ(def4_violation(
                CubeMulticast(CubeAlgorithm::kUCube, order, 0, dests, PortModel::kOnePort), order),
            "");
  for (CubeAlgorithm alg :
       {CubeAlgorithm::kMaxport, CubeAlgorithm::kCombine, CubeAlgorithm::kWSort})
    EXPECT_EQ(def4_violation(CubeMulticast(alg, order, 0, dests, PortModel::kAllPort), order), "");
}

// Definition 5, by enumeration: for every subcube, its members in the chain are contiguous.
bool cube_ordered(const std::vector<std::uint32_t>& chain, int n) {
  for (int ns = 0; ns <= n; ++ns)
    for (std::uint32_t mask = 0; mask < (1u << (n - ns)); ++mask) {
      int first = -1, last = -1, count = 0;
      for (std::size_t i = 0; i < chain.size(); ++i)
        if ((chain[i] >> ns) == mask) {
          if (first < 0) first = static_cast<int>(i);
          last = static_cast<int>(i);
          ++count;
        }
      if (count > 0 && last - first + 1 != count) return false;
    }
  return true;
}

std::vector<NodeId> random_set(std::mt19937_64& rng, int n, NodeId root, int m) {
  std::vector<NodeId> others;
  for (NodeId v = 0; v < (NodeId{1} << n); ++v)
    if (v != root) others.push_back(v);
  std::shuffle(others.begin(), others.end(), rng);
  others.resize(static_cast<std::size_t>(m));
  std::sort(others.begin(), others.end());
  return others;
}

TEST(Theorem5, WeightedSortKeepsACubeOrderedPermutationWithTheSourceFirst) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 2 + trial % 6;
    const int m = 1 + static_cast<int>(rng() % ((1u << n) - 1));
    std::vector<std::uint32_t> chain{0};
    for (NodeId v : random_set(rng, n, 0, m)) chain.push_back(v);
    ASSERT_TRUE(cube_ordered(chain, n));  // Theorem 4: dimension order is cube order
    std::vector<std::uint32_t> sorted = chain;
    weighted_sort(sorted, 0, sorted.size() - 1, n);
    EXPECT_TRUE(cube_ordered(sorted, n)) << "trial " << trial;
    EXPECT_EQ(sorted[0], 0u);
    EXPECT_TRUE(std::is_permutation(sorted.begin(), sorted.end(), chain.begin()));
  }
}

TEST(Theorems1And2, ArcDisjointPaths) {
  std::mt19937_64 rng(12);
  const int n = 8;
  const auto order = high_to_low(n);
  const auto node = [&] { return static_cast<NodeId>(rng() % (1u << n)); };
  for (int trial = 0; trial < 20000; ++trial) {
    // Theorem 1: paths leaving a common source on different channels.
    const NodeId x = node(), y = node(), v = node();
    if (y != x && v != x && cube_delta(x, y) != cube_delta(x, v)) {
      EXPECT_TRUE(arc_disjoint(x, y, x, v, order));
    }
    // Theorem 2: a path inside subcube S and one with both ends outside it.
    const int ns = static_cast<int>(rng() % static_cast<unsigned>(n));
    const NodeId mask = node() >> ns;
    const NodeId u = (mask << ns) | (node() & ((1u << ns) - 1));
    const NodeId w = (mask << ns) | (node() & ((1u << ns) - 1));
    const NodeId a = node(), b = node();
    if ((a >> ns) != mask && (b >> ns) != mask) {
      EXPECT_TRUE(arc_disjoint(u, w, a, b, order));
    }
  }
}

struct Sweep {
  CubeAlgorithm alg;
  PortModel ports;
};

class RandomSets : public ::testing::TestWithParam<Sweep> {};

TEST_P(RandomSets, EveryDestinationOnceContentionFreeByDefinition4) {
  const Sweep& p = GetParam();
  std::mt19937_64 rng(2024);
  for (int n : {6, 10})
    for (int trial = 0; trial < (n == 6 ? 200 : 4); ++trial) {
      const auto order = high_to_low(n);
      const NodeId root = static_cast<NodeId>(rng() % (1u << n));
      const int m = 1 + static_cast<int>(rng() % ((1u << n) - 1));
      const auto dests = random_set(rng, n, root, m);
      const CubeMulticast tree(p.alg, order, root, dests, p.ports);
      ASSERT_EQ(tree.sends().size(), dests.size());
      std::set<NodeId> reached;
      for (const auto& s : tree.sends()) {
        EXPECT_TRUE(reached.insert(s.to).second) << s.to << " reached twice";
        EXPECT_GT(s.step, tree.receive_step(s.from));      // a node forwards only what it holds
        EXPECT_EQ(s.dimension, cube_delta(s.from, s.to));  // high-to-low: the first hop
      }
      EXPECT_EQ(reached, std::set<NodeId>(dests.begin(), dests.end()));
      // The seed proves contention-freedom for U-cube on one port ([9]) and for the
      // all-port algorithms of section 4; U-cube on all ports is not (UCubeOnAllPorts).
      if (p.alg != CubeAlgorithm::kUCube || p.ports == PortModel::kOnePort) {
        EXPECT_EQ(def4_violation(tree, order), "") << "n " << n << " trial " << trial;
      }
      if (p.ports == PortModel::kOnePort) {
        EXPECT_EQ(tree.steps(), static_cast<int>(std::ceil(std::log2(m + 1))));
      }
      // After t steps at most (n + 1)^t nodes of an all-port n-cube hold the message.
      EXPECT_GE(tree.steps(),
                static_cast<int>(std::ceil(std::log(m + 1) / std::log(n + 1) - 1e-9)));
    }
}

std::string sweep_name(const ::testing::TestParamInfo<Sweep>& info) {
  static const char* const kNames[] = {"UCube", "Maxport", "Combine", "WSort", "WSortDistributed"};
  return std::string(kNames[static_cast<int>(info.param.alg)]) +
         (info.param.ports == PortModel::kOnePort ? "OnePort" : "AllPort");
}

INSTANTIATE_TEST_SUITE_P(Seed001, RandomSets,
                         ::testing::Values(Sweep{CubeAlgorithm::kUCube, PortModel::kOnePort},
                                           Sweep{CubeAlgorithm::kUCube, PortModel::kAllPort},
                                           Sweep{CubeAlgorithm::kMaxport, PortModel::kAllPort},
                                           Sweep{CubeAlgorithm::kCombine, PortModel::kAllPort},
                                           Sweep{CubeAlgorithm::kWSort, PortModel::kAllPort},
                                           Sweep{CubeAlgorithm::kWSortDistributed,
                                                 PortModel::kAllPort}),
                         sweep_name);

TEST(LowToHigh, TheSameTreesOnBitReversedAddresses) {
  // Section 2: the nCUBE-2 resolves from low to high, "but this difference does not affect
  // any of the results": with low-to-high resolution the trees are the high-to-low trees of
  // the bit-reversed addresses.
  const int n = 6;
  std::vector<int> low_to_high;
  for (int d = 0; d < n; ++d) low_to_high.push_back(d);
  const auto reverse = [&](NodeId v) { return cube_node(v, low_to_high); };
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 50; ++trial) {
    const NodeId root = static_cast<NodeId>(rng() % 64);
    const auto dests = random_set(rng, n, root, 1 + static_cast<int>(rng() % 63));
    std::vector<NodeId> reversed;
    for (NodeId d : dests) reversed.push_back(reverse(d));
    std::sort(reversed.begin(), reversed.end());
    for (CubeAlgorithm alg : {CubeAlgorithm::kUCube, CubeAlgorithm::kWSort}) {
      const CubeMulticast a(alg, low_to_high, root, dests, PortModel::kAllPort);
      const CubeMulticast b(alg, high_to_low(n), reverse(root), reversed, PortModel::kAllPort);
      EXPECT_EQ(a.steps(), b.steps());
      for (NodeId d : dests) EXPECT_EQ(a.receive_step(d), b.receive_step(reverse(d)));
      EXPECT_EQ(def4_violation(a, low_to_high), "");
    }
  }
}

}  // namespace
}  // namespace wormsim::fw::cube_multicast_test
