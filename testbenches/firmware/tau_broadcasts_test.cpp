// Seed 000 chapter 5's broadcasts end to end in the collective harness: scatter_collect (SC,
// section 5.3, Table 5.2) and fibonacci_tree (FT, Fig. 5.7) on 2D meshes, one-port and
// all-port, from every root (4x4) or sampled roots:
//   - every node delivers the root's bytes, checked by the harness;
//   - SC's messages fall into its four phases by tag with Table 5.2's step counts
//     (ceil(log2 c), ceil(log2 r), c - 1, r - 1; 2n, 2n, 2^n - 1, 2^n - 1 on 2^n x 2^n) and
//     the phases' message counts c - 1, c(r - 1), rc(c - 1), cr(r - 1), each phase-3 message
//     one piece (about L / rc bytes) and each phase-4 message one row's pieces (about L / r);
//   - FT takes t(P, k) steps by the recursion N(t, k) = N(t - k, k) + N(t - 1, k), with
//     k(P - 1) messages of about L / k bytes;
//   - SC has no stepwise contention (the text: "this algorithm avoids channel contention"):
//     the scatters halve disjoint ranges of a line and the folded rings use each directed
//     link once per step.
#include <gtest/gtest.h>

#include <map>

#include "collective_harness.h"
#include "collective_test_util.h"
#include "network_test_util.h"

namespace wormsim::tau_broadcasts_test {
namespace {

int ceil_log2(int m) {
  int s = 0;
  while ((1 << s) < m) ++s;
  return s;
}

// t(P, k) from the seed's recursion, independently of fw::fibonacci_steps.
int seed_t(int p, int k) {
  std::vector<long long> n;
  for (int t = 0;; ++t) {
    n.push_back(t < k ? 1
                      : n[static_cast<std::size_t>(t - k)] + n[static_cast<std::size_t>(t - 1)]);
    if (n.back() >= p) return t;
  }
}

struct Case {
  std::string name;
  CollectiveAlgorithm alg;
  int cols, rows;
  PortModel ports;
  int segments;
  RootSelection roots;
  std::vector<std::uint32_t> bytes;
};

class TauBroadcasts : public ::testing::TestWithParam<Case> {};

TEST_P(TauBroadcasts, VerifiedWithTheSeedsStepsAndMessages) {
  const Case& e = GetParam();
  Config c = testing::mesh_config({e.cols, e.rows});
  c.workload = Workload::kCollective;
  c.network.router.port_model = e.ports;
  c.collective.algorithms = {e.alg};
  c.collective.roots = e.roots;
  c.collective.sample = 3;
  c.collective.segments = e.segments;
  c.collective.message_bytes = e.bytes;
  c.node.alpha_cycles = 20;
  c.node.gamma_cycles = 10;
  c.validate();
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(testing::run_collective_clean(h));
  const int cols = e.cols, rows = e.rows, p = cols * rows;
  const std::size_t up = static_cast<std::size_t>(p), uc = static_cast<std::size_t>(cols),
                    ur = static_cast<std::size_t>(rows);
  for (const OperationResult& r : h.results()) {
    const std::string what = describe_operation(r.op);
    std::map<int, std::size_t> per_phase;
    std::map<int, std::uint64_t> largest;  // bytes of the largest message per phase
    const int n1 = ceil_log2(cols), n2 = ceil_log2(rows);
    for (const MessageRecord& m : h.log().records()) {
      if (m.operation != r.op.index) continue;
      const int tag = static_cast<int>(m.tag);
      const int phase = e.alg == CollectiveAlgorithm::kFibonacciTree ? 0
                        : tag <= n1                                  ? 1
                        : tag <= n1 + n2                             ? 2
                        : tag <= n1 + n2 + cols - 1                  ? 3
                                                                     : 4;
      ++per_phase[phase];
      largest[phase] = std::max<std::uint64_t>(largest[phase], m.bytes);
    }
    const std::uint64_t L = r.op.bytes;
    if (e.alg == CollectiveAlgorithm::kScatterCollect) {
      EXPECT_EQ(r.steps, n1 + n2 + (cols - 1) + (rows - 1)) << what;
      EXPECT_EQ(per_phase[1], uc - 1) << what;
      EXPECT_EQ(per_phase[2], uc * (ur - 1)) << what;
      EXPECT_EQ(per_phase[3], ur * uc * (uc - 1)) << what;
      EXPECT_EQ(per_phase[4], uc * ur * (ur - 1)) << what;
      EXPECT_EQ(r.messages, (uc - 1) + uc * (ur - 1) + up * (uc - 1) + up * (ur - 1)) << what;
      // A piece is floor or ceil of L / p, give or take one byte of each split.
      EXPECT_LE(largest[3], L / up + 2) << what;
      EXPECT_LE(largest[4], L / ur + 2 * uc) << what;
      EXPECT_EQ(r.contention_stepwise, 0u) << what;
    } else {
      const int k = e.segments;
      EXPECT_EQ(r.steps, seed_t(p, k)) << what;
      EXPECT_EQ(r.messages, static_cast<std::size_t>(k) * (up - 1)) << what;
      EXPECT_LE(largest[0], L / static_cast<std::uint64_t>(k) + 1) << what;
    }
    RecordProperty(what + " contention", std::to_string(r.contention_stepwise) + "/" +
                                             std::to_string(r.contention_depth));
  }
}

INSTANTIATE_TEST_SUITE_P(Meshes, TauBroadcasts,
                         ::testing::Values(Case{"sc_4x4_every_root",
                                                CollectiveAlgorithm::kScatterCollect,
                                                4,
                                                4,
                                                PortModel::kOnePort,
                                                4,
                                                RootSelection::kAll,
                                                {16, 100}},
                                           Case{"sc_8x8_all_port",
                                                CollectiveAlgorithm::kScatterCollect,
                                                8,
                                                8,
                                                PortModel::kAllPort,
                                                4,
                                                RootSelection::kSample,
                                                {257}},
                                           Case{"sc_5x3",
                                                CollectiveAlgorithm::kScatterCollect,
                                                5,
                                                3,
                                                PortModel::kOnePort,
                                                4,
                                                RootSelection::kSample,
                                                {15, 64}},
                                           Case{"ft_4x4_k1_every_root",
                                                CollectiveAlgorithm::kFibonacciTree,
                                                4,
                                                4,
                                                PortModel::kOnePort,
                                                1,
                                                RootSelection::kAll,
                                                {40}},
                                           Case{"ft_4x4_k3_every_root",
                                                CollectiveAlgorithm::kFibonacciTree,
                                                4,
                                                4,
                                                PortModel::kOnePort,
                                                3,
                                                RootSelection::kAll,
                                                {3, 100}},
                                           Case{"ft_8x8_k4_all_port",
                                                CollectiveAlgorithm::kFibonacciTree,
                                                8,
                                                8,
                                                PortModel::kAllPort,
                                                4,
                                                RootSelection::kSample,
                                                {200}},
                                           Case{"ft_7x5_k5",
                                                CollectiveAlgorithm::kFibonacciTree,
                                                7,
                                                5,
                                                PortModel::kOnePort,
                                                5,
                                                RootSelection::kSample,
                                                {64}}),
                         [](const auto& param_info) { return param_info.param.name; });

}  // namespace
}  // namespace wormsim::tau_broadcasts_test
