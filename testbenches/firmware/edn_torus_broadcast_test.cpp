// edn_broadcast on all-port tori (seed 000 chapter 4, fw::EdnTorusPattern) and u_torus, end to
// end through processors, NIs and routers (docs/edn-torus.md):
//   - every destination delivers the root's bytes exactly once (the harness verifies them), in
//     the pure function's steps: d on 2^d x 2^d (Theorem 1, Corollaries 1-2), d + 1 on
//     2^d x 2^d x z for 2 <= z <= 7 and d + 2 for 8 <= z <= 42 (Theorem 3); u_torus in
//     ceil(log2 N) (section 4.4.1); N - 1 messages;
//   - stepwise contention 0 in the routers' contention counters (Theorem 2, Corollaries 3-4),
//     from several roots, also with messages long enough that messages sharing a link in one
//     step would overlap; u_torus too on these power-of-two tori;
//   - with short messages and alpha above any message's time in the network, every receiver's
//     latency is exactly the node-stack formula (docs/timing-model.md) composed along the
//     pattern's tree with the sender's alphas serialised: receive(v) = receive(parent) +
//     j alpha + H + L + 3 + gamma for v the parent's j-th send (H hops, L flits). The seed's
//     Eqs. 4.1 and 4.2 with beta = 1 cycle and 3 cycles of NI overhead per step then bound
//     edn_broadcast's maximum from above and equal u_torus's exactly (section 4.4.2; the
//     critical path of U-torus is the chain of first sends, which the equation sums).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>

#include <fmt/format.h>

#include "collective_data.h"
#include "collective_harness.h"
#include "collective_test_util.h"
#include "edn_torus_pattern.h"
#include "network_test_util.h"

namespace wormsim::edn_torus_broadcast_test {
namespace {

struct TorusCase {
  std::string name;
  std::vector<int> dims;
  RootSelection roots;
  int sample;
  std::vector<std::uint32_t> bytes;
};

Config torus_collective(const TorusCase& t) {
  Config c = testing::torus_config(t.dims);
  c.network.router.port_model = PortModel::kAllPort;
  c.network.router.vcs = 2;
  c.network.router.buffer_depth = 4;
  c.network.flit_bytes = 4;
  c.workload = Workload::kCollective;
  c.collective.algorithms = {CollectiveAlgorithm::kEdnBroadcast, CollectiveAlgorithm::kUTorus};
  c.collective.roots = t.roots;
  c.collective.sample = t.sample;
  c.collective.message_bytes = t.bytes;
  c.node.alpha_cycles = 40;
  c.node.gamma_cycles = 10;
  c.validate();
  return c;
}

int ceil_log2(int n) {
  int s = 0;
  while ((1 << s) < n) ++s;
  return s;
}

// Theorem 3 (and Corollary 2 for z = 1).
int theorem_steps(const std::vector<int>& dims) {
  const int d = ceil_log2(dims[0]);
  const int z = dims.size() == 3 ? dims[2] : 1;
  return d + (z == 1 ? 0 : z <= 7 ? 1 : z <= 42 ? 2 : -1000);
}

class EdnTorusRun : public ::testing::TestWithParam<TorusCase> {};

TEST_P(EdnTorusRun, VerifiedInTheTheoremsStepsWithoutStepwiseContention) {
  const TorusCase& t = GetParam();
  const Config c = torus_collective(t);
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(testing::run_collective_clean(h));
  const Topology& topo = h.network().topology();
  const int nodes = topo.nodes();
  const std::size_t roots = t.roots == RootSelection::kAll ? static_cast<std::size_t>(nodes)
                                                           : static_cast<std::size_t>(t.sample);
  ASSERT_EQ(h.results().size(), roots * t.bytes.size() * 2);
  const fw::EdnTorusPattern pattern(t.dims);
  for (const OperationResult& r : h.results()) {
    const bool edn = r.op.algorithm == CollectiveAlgorithm::kEdnBroadcast;
    const std::string what =
        fmt::format("{} root {} {} bytes", to_string(r.op.algorithm), r.op.root, r.op.bytes);
    EXPECT_EQ(r.steps, edn ? theorem_steps(t.dims) : ceil_log2(nodes)) << what;
    EXPECT_EQ(r.messages, static_cast<std::size_t>(nodes - 1)) << what;
    // U-torus's sends are contention-free on power-of-two tori (u_torus_test); on others the
    // seed claims nothing.
    const bool pow2 =
        std::all_of(t.dims.begin(), t.dims.end(), [](int k) { return (k & (k - 1)) == 0; });
    if (!edn && !pow2) continue;
    EXPECT_EQ(r.contention_stepwise, 0u) << what;
    if (r.op.bytes > 8) continue;
    // Short messages: the node-stack formula composed along the tree, exactly.
    const Cycle alpha = c.node.alpha_cycles, gamma = c.node.gamma_cycles;
    const Cycle flits = (r.op.bytes + 3) / 4;
    std::vector<Cycle> at(static_cast<std::size_t>(nodes), 0);
    std::vector<NodeId> frontier{r.op.root};
    std::vector<NodeId> chain;
    if (!edn) {
      std::vector<NodeId> all;
      for (int v = 0; v < nodes; ++v) all.push_back(static_cast<NodeId>(v));
      std::vector<int> order{0, 1, 2};
      order.resize(t.dims.size());
      chain = fw::u_torus_chain(topo, order, r.op.root, all);
    }
    while (!frontier.empty()) {
      std::vector<NodeId> next;
      for (NodeId u : frontier) {
        std::vector<NodeId> sends;
        if (edn) {
          for (const auto& g : pattern.children(r.op.root, u))
            sends.insert(sends.end(), g.begin(), g.end());
        } else {
          sends = fw::umesh_children(chain, 0, u);
        }
        for (std::size_t j = 0; j < sends.size(); ++j) {
          at[sends[j]] = at[u] + (j + 1) * alpha + static_cast<Cycle>(topo.distance(u, sends[j])) +
                         flits + 3 + gamma;
          next.push_back(sends[j]);
        }
      }
      frontier = std::move(next);
    }
    const std::vector<NodeId> rx = fw::receivers(r.op, topo);
    ASSERT_EQ(r.latency.size(), rx.size());
    for (std::size_t i = 0; i < rx.size(); ++i)
      EXPECT_EQ(r.latency[i], at[rx[i]]) << what << ": node " << rx[i];
    // Eqs. 4.1 and 4.2 (cycles: beta = 1 per hop and per flit) plus 3 cycles per step.
    if (t.dims.size() == 2) {
      const int d = ceil_log2(t.dims[0]);
      const double cd = d, L = static_cast<double>(flits), a = static_cast<double>(alpha),
                   g = static_cast<double>(gamma);
      const double eq41 =
          3 * cd * a + cd * g + cd * L + 2.0 * (std::pow(2.0, d + 1) - 2 + d % 2) / 3.0 + 3 * cd;
      const double eq42 =
          2 * cd * a + 2 * cd * g + 2 * cd * L + 2 * (std::pow(2.0, d) - 1) + 3 * 2 * cd;
      if (edn) {
        EXPECT_LE(r.max_latency, eq41) << what;
      } else {
        EXPECT_EQ(r.max_latency, eq42) << what;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Tori, EdnTorusRun,
    ::testing::Values(TorusCase{"t4x4_all_roots", {4, 4}, RootSelection::kAll, 1, {8, 256}},
                      TorusCase{"t8x8_sample", {8, 8}, RootSelection::kSample, 4, {8, 512}},
                      TorusCase{"t16x16_sample", {16, 16}, RootSelection::kSample, 2, {8, 256}},
                      TorusCase{"t4x4x3_sample", {4, 4, 3}, RootSelection::kSample, 3, {8, 256}},
                      TorusCase{"t4x4x9_sample", {4, 4, 9}, RootSelection::kSample, 2, {8, 256}}),
    [](const auto& param_info) { return param_info.param.name; });

// Section 4.2: "it can be shown that the EDN broadcast algorithm also avoids contention among
// messages sent in neighboring steps. Although depth contention is possible under certain
// conditions, ... the effect of such contention is likely to be small". With no start-up
// costs (alpha = gamma = 0) and messages of 256 flits, steps overlap in time; the contention
// log says which steps meet. Measured, not asserted (docs/edn-torus.md reports the pairs):
// the test asserts only that every event pairs messages of different steps, and prints the
// pairs of steps and how often they meet.
class EdnTorusDepth : public ::testing::TestWithParam<int> {};

TEST_P(EdnTorusDepth, WhichStepsMeet) {
  const int side = GetParam();
  TorusCase t{"", {side, side}, RootSelection::kOne, 1, {256}};
  Config c = torus_collective(t);
  c.collective.algorithms = {CollectiveAlgorithm::kEdnBroadcast};
  c.network.flit_bytes = 1;
  c.node.alpha_cycles = 0;
  c.node.gamma_cycles = 0;
  c.validate();
  CollectiveHarness h("h", c);
  ASSERT_NO_FATAL_FAILURE(testing::run_collective_clean(h));
  ASSERT_EQ(h.results().size(), 1u);
  EXPECT_EQ(h.results()[0].contention_stepwise, 0u);
  const auto& recs = h.log().records();
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> pairs;  // (waiting step, holder step)
  for (const ContentionEvent& e : h.log().contention()) {
    EXPECT_NE(recs[e.waiting].tag, recs[e.holder].tag);
    ++pairs[{recs[e.waiting].tag, recs[e.holder].tag}];
  }
  std::string text;
  for (const auto& [p, n] : pairs) text += fmt::format("{}<-{}:{} ", p.first, p.second, n);
  RecordProperty("step_pairs", text);
  std::cout << side << "x" << side << " (waiting step <- holding step: events) " << text << "\n";
}

INSTANTIATE_TEST_SUITE_P(Tori, EdnTorusDepth, ::testing::Values(8, 16), [](const auto& param_info) {
  return "side" + std::to_string(param_info.param);
});

}  // namespace
}  // namespace wormsim::edn_torus_broadcast_test
