// Seed 002's all-to-all personalized algorithms (firmware/alltoall_plan.h, all_to_all.cpp;
// docs/seed002-all-to-all.md):
//   - the permutation families, checked against the seed's facts by walking XY routes here,
//     independently of the code under test: every family covers every (source, destination)
//     pair exactly once (self included for bal, excluded for lin and xor); Scott's balanced
//     permutations of a k-array have load k/4 each (sum k^2/4, not the seed's k^3/4); on
//     meshes bal has max load max(r, c)/4 and, square, sum p^(3/2)/4 = 16, 128, 1024 (the
//     seed's optimum); xor has max load sqrt(p)/2 and sum (3/7)(p^(3/2) - 1) = 27, 219, 1755
//     (seed 002 section 5.1; spec 5.1 item 6), lin max sqrt(p)/2;
//   - the 2-lev-sq submeshes of the spec's table (section 0);
//   - every program, run as a dataflow here (sends never block, a receive waits for its
//     matching send): no node waits forever, every message is taken exactly once with the
//     blocks its sender put in it, a node only sends blocks it holds, and each node ends with
//     exactly its p blocks; on 16x16 the sends and message sizes of spec 2.4 (2-lev-sq
//     15 + 1 + 15, c,r 15 + 15 of 16L, c,r-int 15 of 16L + 240 of L, bfly 8 of 128L);
//   - every algorithm end to end on 4x4 and 4x8 (8x8, torus, hypercube for some), one- and
//     all-port: every node delivers its bytes once, with the steps and messages of its
//     definition (closed formulas below).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "alltoall_plan.h"
#include "collective_harness.h"
#include "collective_test_util.h"
#include "network_test_util.h"

namespace wormsim::alltoall_test {
namespace {

using fw::a2a::Family;
using fw::a2a::MeshShape;

// ---- link loads under XY routing (dimension 0, the column index, first) -------------------

// Directed link loads of one permutation given as dst[j]; returns the largest.
int xy_load(const MeshShape& s, const std::vector<NodeId>& dst) {
  std::map<std::tuple<int, int, int, int>, int> load;  // (row, col, drow, dcol)
  for (NodeId j = 0; j < dst.size(); ++j) {
    int y = static_cast<int>(j) / s.cols, x = static_cast<int>(j) % s.cols;
    const int ty = static_cast<int>(dst[j]) / s.cols, tx = static_cast<int>(dst[j]) % s.cols;
    while (x != tx) {
      const int d = tx > x ? 1 : -1;
      ++load[{y, x, 0, d}];
      x += d;
    }
    while (y != ty) {
      const int d = ty > y ? 1 : -1;
      ++load[{y, x, d, 0}];
      y += d;
    }
  }
  int max = 0;
  for (const auto& [link, n] : load) max = std::max(max, n);
  return max;
}

std::vector<NodeId> permutation(Family f, const MeshShape& s, int i) {
  std::vector<NodeId> dst;
  for (int j = 0; j < s.nodes(); ++j)
    dst.push_back(fw::a2a::destination(f, s, i, static_cast<NodeId>(j)));
  return dst;
}

struct Loads {
  int max = 0;
  int sum = 0;
};
Loads loads(Family f, const MeshShape& s) {
  Loads l;
  for (int i = 1; i <= fw::a2a::permutation_count(f, s); ++i) {
    const int load = xy_load(s, permutation(f, s, i));
    l.max = std::max(l.max, load);
    l.sum += load;
  }
  return l;
}

// ---- families --------------------------------------------------------------------------------

TEST(Families, EveryPairExactlyOnceAndEachPermutationIsABijection) {
  const std::vector<std::tuple<Family, MeshShape>> cases = {
      {Family::kLinear, {4, 4}},   {Family::kLinear, {3, 5}},    {Family::kLinear, {1, 7}},
      {Family::kXor, {4, 4}},      {Family::kXor, {4, 8}},       {Family::kXor, {1, 32}},
      {Family::kBalanced, {4, 4}}, {Family::kBalanced, {4, 8}},  {Family::kBalanced, {8, 4}},
      {Family::kBalanced, {8, 8}}, {Family::kBalanced, {12, 16}}};
  for (const auto& [f, s] : cases) {
    const int p = s.nodes();
    std::map<std::pair<NodeId, NodeId>, int> seen;
    const int count = fw::a2a::permutation_count(f, s);
    EXPECT_EQ(count, f == Family::kBalanced ? p : p - 1);
    for (int i = 1; i <= count; ++i) {
      std::set<NodeId> images;
      for (int j = 0; j < p; ++j) {
        const NodeId d = fw::a2a::destination(f, s, i, static_cast<NodeId>(j));
        ASSERT_LT(d, static_cast<NodeId>(p));
        images.insert(d);
        EXPECT_EQ(fw::a2a::source(f, s, i, d), static_cast<NodeId>(j));
        ++seen[{static_cast<NodeId>(j), d}];
      }
      EXPECT_EQ(images.size(), static_cast<std::size_t>(p)) << "not a permutation: " << i;
    }
    const std::size_t pairs = f == Family::kBalanced ? p * p : p * (p - 1);
    EXPECT_EQ(seen.size(), pairs) << s.rows << "x" << s.cols;
    for (const auto& [pair, n] : seen) {
      EXPECT_EQ(n, 1) << pair.first << "->" << pair.second;
      if (f != Family::kBalanced) {
        EXPECT_NE(pair.first, pair.second);
      }
    }
  }
}

// Seed 002 section 5.1: "each of the k permutations has a load of k/4"; their sum is
// therefore k^2/4 (4, 16, 64), not the seed's k^3/4 (spec 5.1 item 6). Every node is a
// fixed point of exactly one permutation (spec 2.3.4).
TEST(Families, BalancedLinearArrayPermutationsHaveLoadKOver4) {
  for (int k : {4, 8, 16, 32}) {
    const MeshShape line{1, k};
    int sum = 0;
    std::vector<int> fixed(static_cast<std::size_t>(k), 0);
    for (int f = 0; f < k; ++f) {
      std::vector<NodeId> dst;
      for (int x = 0; x < k; ++x) {
        const int d = fw::a2a::balanced_linear(k, f, x);
        dst.push_back(static_cast<NodeId>(d));
        if (d == x) ++fixed[static_cast<std::size_t>(x)];
      }
      EXPECT_EQ(xy_load(line, dst), k / 4) << "k " << k << " permutation " << f;
      sum += xy_load(line, dst);
    }
    EXPECT_EQ(sum, k * k / 4);
    for (int x = 0; x < k; ++x) EXPECT_EQ(fixed[static_cast<std::size_t>(x)], 1) << x;
  }
}

// Seed 002 section 5.1: balanced permutations reach the lower bounds max_load >= sqrt(p)/4
// and sum_load >= p^(3/2)/4 on sqrt(p) x sqrt(p) meshes; on r x c, max(r, c)/4.
TEST(Families, BalancedMeshLoadsAreTheSeedsOptimum) {
  for (int side : {4, 8, 16}) {
    const Loads l = loads(Family::kBalanced, {side, side});
    EXPECT_EQ(l.max, side / 4);
    EXPECT_EQ(l.sum, side * side * side / 4);  // p^(3/2)/4: 16, 128, 1024
  }
  EXPECT_EQ(loads(Family::kBalanced, {4, 8}).max, 2);
  EXPECT_EQ(loads(Family::kBalanced, {8, 4}).max, 2);
  EXPECT_EQ(loads(Family::kBalanced, {4, 16}).max, 4);
}

// Seed 002 section 5.1: "Linear and exclusive-or permutation have max_load = sqrt(p)/2";
// xor's sum_load is (3/7)(p^(3/2) - 1) exactly (the seed's 3/7 p^(3/2) asymptotically; spec
// 5.1 item 6): 27, 219, 1755. Linear's sums (24, 184, 1424) are the spec's script's.
TEST(Families, XorAndLinearMeshLoadsMatchTheSeed) {
  const std::map<int, int> xor_sum = {{4, 27}, {8, 219}, {16, 1755}};
  const std::map<int, int> lin_sum = {{4, 24}, {8, 184}, {16, 1424}};
  for (int side : {4, 8, 16}) {
    const int p = side * side;
    const Loads x = loads(Family::kXor, {side, side});
    EXPECT_EQ(x.max, side / 2);
    EXPECT_EQ(x.sum, xor_sum.at(side));
    EXPECT_EQ(7 * x.sum, 3 * (p * side - 1));
    const Loads l = loads(Family::kLinear, {side, side});
    EXPECT_EQ(l.max, side / 2);
    EXPECT_EQ(l.sum, lin_sum.at(side));
    EXPECT_GE(l.sum, p * side / 4);  // the bisection bound
  }
}

// Spec section 0: 4x4: 2x2 (m = 4); 4x8: 2x2 (m = 8); 8x8: 2x4 (m = 8); 8x16: 2x4 (m = 16);
// 16x16: 4x4 (m = 16), the paper's p^(1/4) x p^(1/4) for the square ones.
TEST(SquareBlocks, SubmeshesOfTheSpecsTable) {
  const std::vector<std::tuple<MeshShape, int, int, int>> table = {{{4, 4}, 2, 2, 4},
                                                                   {{4, 8}, 2, 2, 8},
                                                                   {{8, 8}, 2, 4, 8},
                                                                   {{8, 16}, 2, 4, 16},
                                                                   {{16, 16}, 4, 4, 16}};
  for (const auto& [s, br, bc, m] : table) {
    const fw::a2a::SquareBlocks b = fw::a2a::square_blocks(s);
    EXPECT_EQ(b.block_rows, br);
    EXPECT_EQ(b.block_cols, bc);
    EXPECT_EQ(b.m, m);
    EXPECT_EQ(b.q * b.m, s.nodes());
    // Submesh j, local l is the node at the j-th b_r x b_c rectangle, row-major inside.
    for (int n = 0; n < s.nodes(); ++n) {
      const int sub = b.submesh(s, static_cast<NodeId>(n));
      const int loc = b.local(s, static_cast<NodeId>(n));
      EXPECT_EQ(b.node(s, sub, loc), static_cast<NodeId>(n));
      EXPECT_EQ(sub, (n / s.cols / br) * (s.cols / bc) + (n % s.cols) / bc);
    }
  }
}

// ---- programs as dataflow ---------------------------------------------------------------------

struct Dataflow {
  std::vector<fw::a2a::Program> programs;
  bool completed = false;
};

// Runs every node's program: sends are posted at once, a receive waits for the send with the
// same (source, destination, tag); blocks move with the messages.
Dataflow run_dataflow(CollectiveAlgorithm alg, const MeshShape& s) {
  Dataflow run;
  const int p = s.nodes();
  for (int n = 0; n < p; ++n)
    run.programs.push_back(fw::a2a::program(alg, s, static_cast<NodeId>(n)));
  std::vector<std::set<std::pair<NodeId, NodeId>>> held(static_cast<std::size_t>(p));
  for (int n = 0; n < p; ++n)
    for (int d = 0; d < p; ++d) held[n].insert({static_cast<NodeId>(n), static_cast<NodeId>(d)});
  std::map<std::tuple<NodeId, NodeId, std::uint32_t>, std::vector<fw::a2a::BlockRef>> in_flight;
  std::vector<std::size_t> pc(static_cast<std::size_t>(p), 0);
  for (bool progress = true; progress;) {
    progress = false;
    for (int n = 0; n < p; ++n) {
      const auto& prog = run.programs[static_cast<std::size_t>(n)];
      while (pc[n] < prog.size()) {
        const fw::a2a::Action& a = prog[pc[n]];
        const NodeId self = static_cast<NodeId>(n);
        if (a.kind == fw::a2a::Action::Kind::kSend) {
          for (const auto& b : a.blocks) {
            EXPECT_EQ(held[n].erase({b.from, b.to}), 1u)
                << to_string(alg) << ": node " << n << " sends " << b.from << "->" << b.to
                << " without holding it";
          }
          EXPECT_NE(a.peer, self);
          EXPECT_TRUE(in_flight.emplace(std::make_tuple(self, a.peer, a.tag), a.blocks).second)
              << "two messages " << n << "->" << a.peer << " tag " << a.tag;
        } else {
          const auto it = in_flight.find({a.peer, self, a.tag});
          if (it == in_flight.end()) break;  // waits
          EXPECT_TRUE(it->second == a.blocks)
              << to_string(alg) << ": node " << n << " expects other blocks from " << a.peer;
          for (const auto& b : a.blocks) held[n].insert({b.from, b.to});
          in_flight.erase(it);
        }
        ++pc[n];
        progress = true;
      }
    }
  }
  run.completed = true;
  for (int n = 0; n < p; ++n) {
    if (pc[n] != run.programs[static_cast<std::size_t>(n)].size()) run.completed = false;
    std::set<std::pair<NodeId, NodeId>> want;
    for (int i = 0; i < p; ++i) want.insert({static_cast<NodeId>(i), static_cast<NodeId>(n)});
    EXPECT_EQ(held[n], want) << to_string(alg) << ": node " << n << " ends with other blocks";
  }
  EXPECT_TRUE(in_flight.empty()) << to_string(alg) << ": messages nobody takes";
  return run;
}

const CollectiveAlgorithm kAlgorithms[] = {
    CollectiveAlgorithm::kAlltoallLinear,    CollectiveAlgorithm::kAlltoallXor,
    CollectiveAlgorithm::kAlltoallBalanced,  CollectiveAlgorithm::kAlltoallSquare,
    CollectiveAlgorithm::kAlltoallColumnRow, CollectiveAlgorithm::kAlltoallColumnRowInt,
    CollectiveAlgorithm::kAlltoallButterfly};

TEST(Programs, EveryNodeEndsWithItsBlocksAndNoneWaitsForever) {
  for (const MeshShape s : {MeshShape{4, 4}, MeshShape{4, 8}, MeshShape{8, 4}, MeshShape{8, 8},
                            MeshShape{8, 16}, MeshShape{4, 16}})
    for (CollectiveAlgorithm alg : kAlgorithms)
      EXPECT_TRUE(run_dataflow(alg, s).completed)
          << to_string(alg) << " " << s.rows << "x" << s.cols;
  // The algorithms that need only p, on a line of nodes (a hypercube, a 3D mesh).
  for (CollectiveAlgorithm alg :
       {CollectiveAlgorithm::kAlltoallLinear, CollectiveAlgorithm::kAlltoallXor,
        CollectiveAlgorithm::kAlltoallButterfly})
    EXPECT_TRUE(run_dataflow(alg, {1, 16}).completed) << to_string(alg);
  EXPECT_TRUE(run_dataflow(CollectiveAlgorithm::kAlltoallLinear, {1, 12}).completed);
  EXPECT_TRUE(run_dataflow(CollectiveAlgorithm::kAlltoallLinear, {3, 5}).completed);
}

// Spec 2.4 on 16x16: sends by the busiest node and the blocks per message, step by step
// (steps told apart by the tag ranges of alltoall_plan.h).
struct SendCount {
  std::uint32_t first_tag;
  std::uint32_t last_tag;
  std::size_t sends;   // by the busiest node
  std::size_t blocks;  // in every such message
};
void expect_sends(CollectiveAlgorithm alg, const std::vector<SendCount>& steps) {
  const MeshShape s{16, 16};
  const Dataflow run = run_dataflow(alg, s);
  ASSERT_TRUE(run.completed);
  for (const SendCount& step : steps) {
    std::size_t busiest = 0;
    for (const auto& prog : run.programs) {
      std::size_t sends = 0;
      for (const auto& a : prog)
        if (a.kind == fw::a2a::Action::Kind::kSend && a.tag >= step.first_tag &&
            a.tag <= step.last_tag) {
          ++sends;
          EXPECT_EQ(a.blocks.size(), step.blocks) << to_string(alg) << " tag " << a.tag;
        }
      busiest = std::max(busiest, sends);
    }
    EXPECT_EQ(busiest, step.sends) << to_string(alg) << " tags " << step.first_tag << "..";
  }
}

TEST(Programs, SixteenBySixteenSendsAndMessageSizesOfTheSpec) {
  expect_sends(CollectiveAlgorithm::kAlltoallSquare,
               {{1, 15, 15, 16}, {16, 16, 1, 256}, {17, 31, 15, 16}});
  expect_sends(CollectiveAlgorithm::kAlltoallColumnRow, {{1, 15, 15, 16}, {16, 30, 15, 16}});
  // c,r-int: step 1 is every 16th send (tags 16, 32, ..., 240), the rest carry one block.
  {
    const Dataflow run = run_dataflow(CollectiveAlgorithm::kAlltoallColumnRowInt, {16, 16});
    ASSERT_TRUE(run.completed);
    for (const auto& prog : run.programs) {
      std::size_t big = 0, small = 0;
      for (const auto& a : prog)
        if (a.kind == fw::a2a::Action::Kind::kSend) (a.blocks.size() == 16 ? big : small)++;
      EXPECT_EQ(big, 15u);
      EXPECT_EQ(small, 240u);
    }
  }
  expect_sends(CollectiveAlgorithm::kAlltoallButterfly, {{1, 8, 8, 128}});
  expect_sends(CollectiveAlgorithm::kAlltoallXor, {{1, 255, 255, 1}});
  expect_sends(CollectiveAlgorithm::kAlltoallLinear, {{1, 255, 255, 1}});
  expect_sends(CollectiveAlgorithm::kAlltoallBalanced, {{1, 256, 255, 1}});
}

// ---- end to end -------------------------------------------------------------------------------

struct Case {
  std::string name;
  TopologyKind topology;
  std::vector<int> dims;  // network.dims: [columns, rows]; hypercube: {dimension}
  PortModel ports;
};

Config config_for(const Case& k, CollectiveAlgorithm alg) {
  Config c = k.topology == TopologyKind::kHypercube ? testing::hypercube_config(k.dims[0])
             : k.topology == TopologyKind::kTorus   ? testing::torus_config(k.dims)
                                                    : testing::mesh_config(k.dims);
  if (k.topology == TopologyKind::kTorus) c.network.router.vcs = 2;
  c.network.router.port_model = k.ports;
  c.workload = Workload::kCollective;
  c.collective.algorithms = {alg};
  c.collective.message_bytes = {8, 64};
  c.node.alpha_cycles = 20;
  c.node.gamma_cycles = 10;
  return c;
}

// Steps and messages by hand from the definitions (alltoall_plan.h): p nodes, r x c.
struct Expected {
  int steps;
  std::size_t messages;
};
Expected expected(CollectiveAlgorithm alg, std::size_t p, std::size_t r, std::size_t c) {
  std::size_t n = 0;
  while ((std::size_t{1} << n) < p) ++n;
  switch (alg) {
    case CollectiveAlgorithm::kAlltoallLinear:
    case CollectiveAlgorithm::kAlltoallXor: return {static_cast<int>(p - 1), p * (p - 1)};
    case CollectiveAlgorithm::kAlltoallBalanced: return {static_cast<int>(p), p * (p - 1)};
    case CollectiveAlgorithm::kAlltoallSquare: {
      const std::size_t q = std::size_t{1} << (n / 2), m = p / q;
      // steps 1 and 3: q - 1 permutations each; step 2: every submesh to every other one.
      return {static_cast<int>(2 * (q - 1) + m / q), p * 2 * (q - 1) + m * (m - 1)};
    }
    case CollectiveAlgorithm::kAlltoallColumnRow:
      return {static_cast<int>(r + c - 2), p * (r - 1 + c - 1)};
    case CollectiveAlgorithm::kAlltoallColumnRowInt:
      return {static_cast<int>(p - 1), p * (r - 1 + r * (c - 1))};
    case CollectiveAlgorithm::kAlltoallButterfly: return {static_cast<int>(n), p * n};
    default: return {0, 0};
  }
}

class Alltoall : public ::testing::TestWithParam<std::tuple<CollectiveAlgorithm, Case>> {};

TEST_P(Alltoall, EveryNodeGetsItsBlocksOnceInTheDefinedStepsAndMessages) {
  const auto& [alg, k] = GetParam();
  const Config c = config_for(k, alg);
  c.validate();
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(testing::run_collective_clean(h));
  const Topology& t = h.network().topology();
  const auto p = static_cast<std::size_t>(t.nodes());
  const bool grid = t.dimensions() == 2 && t.kind() != TopologyKind::kHypercube;
  const std::size_t r = grid ? static_cast<std::size_t>(t.side(1)) : 1;
  const std::size_t cols = grid ? static_cast<std::size_t>(t.side(0)) : p;
  const Expected e = expected(alg, p, r, cols);
  ASSERT_EQ(h.results().size(), 2u);  // rootless: once per size
  for (const OperationResult& res : h.results()) {
    EXPECT_EQ(res.steps, e.steps);
    EXPECT_EQ(res.messages, e.messages);
    EXPECT_EQ(res.latency.size(), p);
  }
}

const Case kGrids[] = {
    {"mesh4x4_one_port", TopologyKind::kMesh, {4, 4}, PortModel::kOnePort},
    {"mesh4x4_all_port", TopologyKind::kMesh, {4, 4}, PortModel::kAllPort},
    {"mesh4x8_one_port", TopologyKind::kMesh, {8, 4}, PortModel::kOnePort},  // 4 rows, 8 columns
    {"mesh8x4_all_port", TopologyKind::kMesh, {4, 8}, PortModel::kAllPort},  // 8 rows, 4 columns
};

std::string case_name(const ::testing::TestParamInfo<std::tuple<CollectiveAlgorithm, Case>>& i) {
  return to_string(std::get<0>(i.param)) + "_" + std::get<1>(i.param).name;
}

INSTANTIATE_TEST_SUITE_P(Grids, Alltoall,
                         ::testing::Combine(::testing::ValuesIn(kAlgorithms),
                                            ::testing::ValuesIn(kGrids)),
                         case_name);

INSTANTIATE_TEST_SUITE_P(
    Larger, Alltoall,
    ::testing::Values(
        std::make_tuple(CollectiveAlgorithm::kAlltoallColumnRow,
                        Case{"mesh8x8_all_port", TopologyKind::kMesh, {8, 8}, PortModel::kAllPort}),
        std::make_tuple(CollectiveAlgorithm::kAlltoallSquare,
                        Case{"mesh8x8_one_port", TopologyKind::kMesh, {8, 8}, PortModel::kOnePort}),
        std::make_tuple(
            CollectiveAlgorithm::kAlltoallBalanced,
            Case{"torus4x8_all_port", TopologyKind::kTorus, {8, 4}, PortModel::kAllPort}),
        std::make_tuple(
            CollectiveAlgorithm::kAlltoallColumnRowInt,
            Case{"torus4x4_one_port", TopologyKind::kTorus, {4, 4}, PortModel::kOnePort}),
        std::make_tuple(
            CollectiveAlgorithm::kAlltoallXor,
            Case{"hypercube4_all_port", TopologyKind::kHypercube, {4}, PortModel::kAllPort}),
        std::make_tuple(
            CollectiveAlgorithm::kAlltoallButterfly,
            Case{"hypercube4_one_port", TopologyKind::kHypercube, {4}, PortModel::kOnePort}),
        std::make_tuple(CollectiveAlgorithm::kAlltoallLinear,
                        Case{"mesh3x5_all_port", TopologyKind::kMesh, {5, 3}, PortModel::kAllPort}),
        std::make_tuple(
            CollectiveAlgorithm::kAlltoallLinear,
            Case{"mesh2x2x3_one_port", TopologyKind::kMesh, {2, 2, 3}, PortModel::kOnePort})),
    case_name);

}  // namespace
}  // namespace wormsim::alltoall_test
