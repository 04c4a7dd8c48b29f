// U-torus (fw::u_torus_chain + fw::umesh_children; seed 000 section 4.4, after its reference
// [124]) as a pure function:
//   - broadcast: every node exactly once in ceil(log2 N) steps (section 4.4.1: "the number of
//     steps is still ceil(log2(N))"), on power-of-two and other tori, 2D and 3D, every root of
//     the small ones;
//   - on 2^a x 2^b (x 2^c) tori, section 4.4.2's hop counts: step i of the first resolved
//     dimension X spans X / 2^i hops, then Y / 2^j, then Z / 2^l, each along one dimension
//     only, so one broadcast's hops sum to (X - 1) + (Y - 1) (+ (Z - 1)) per chain of sends
//     (Eq. 4.2's beta(X + Y - 2) on the critical path);
//   - on those tori, no two sends of a step use the same directed link on the simulator's routes
//     (RouteCompute, walked here);
//   - multicast: the chain holds the root first and the destinations in relative order.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "collective.h"
#include "port_layout.h"
#include "route_compute.h"
#include "topology.h"

namespace wormsim::fw::u_torus_test {
namespace {

TopologyConfig torus(const std::vector<int>& dims) {
  TopologyConfig t;
  t.kind = TopologyKind::kTorus;
  t.dims = dims;
  return t;
}

int ceil_log2(int n) {
  int s = 0;
  while ((1 << s) < n) ++s;
  return s;
}

struct Send {
  NodeId from, to;
  int step;
};

// The broadcast from `root`: every send with its step; fails if a node is reached twice or
// never.
std::vector<Send> broadcast(const Topology& topo, NodeId root) {
  std::vector<NodeId> all;
  for (int n = 0; n < topo.nodes(); ++n) all.push_back(static_cast<NodeId>(n));
  std::vector<int> order;
  for (int d = 0; d < topo.dimensions(); ++d) order.push_back(d);
  const std::vector<NodeId> chain = u_torus_chain(topo, order, root, all);
  EXPECT_EQ(chain.front(), root);
  std::vector<int> step(static_cast<std::size_t>(topo.nodes()), -1);
  step[root] = 0;
  std::vector<Send> out;
  std::vector<NodeId> frontier{root};
  while (!frontier.empty()) {
    std::vector<NodeId> next;
    for (NodeId u : frontier) {
      const std::vector<NodeId> ch = umesh_children(chain, 0, u);
      for (std::size_t g = 0; g < ch.size(); ++g) {
        EXPECT_EQ(step[ch[g]], -1) << "node " << ch[g] << " reached twice";
        step[ch[g]] = step[u] + 1 + static_cast<int>(g);
        out.push_back({u, ch[g], step[ch[g]]});
        next.push_back(ch[g]);
      }
    }
    frontier = std::move(next);
  }
  for (int n = 0; n < topo.nodes(); ++n) EXPECT_GE(step[static_cast<std::size_t>(n)], 0) << n;
  return out;
}

int steps_of(const std::vector<Send>& sends) {
  int s = 0;
  for (const Send& x : sends) s = std::max(s, x.step);
  return s;
}

class UTorusSteps : public ::testing::TestWithParam<std::vector<int>> {};

TEST_P(UTorusSteps, EveryNodeOnceInCeilLog2NSteps) {
  const Topology topo(torus(GetParam()));
  const int roots = topo.nodes() <= 64 ? topo.nodes() : 3;
  for (int r = 0; r < roots; ++r) {
    const NodeId root = static_cast<NodeId>(r * (roots == 3 ? topo.nodes() / 3 : 1));
    EXPECT_EQ(steps_of(broadcast(topo, root)), ceil_log2(topo.nodes())) << "root " << root;
  }
}

INSTANTIATE_TEST_SUITE_P(Tori, UTorusSteps,
                         ::testing::Values(std::vector<int>{4, 4}, std::vector<int>{8, 8},
                                           std::vector<int>{32, 32}, std::vector<int>{5, 7},
                                           std::vector<int>{4, 4, 4}, std::vector<int>{3, 5, 2},
                                           std::vector<int>{16, 4}),
                         [](const ::testing::TestParamInfo<std::vector<int>>& i) {
                           std::string s = "t";
                           for (int d : i.param) s += "_" + std::to_string(d);
                           return s;
                         });

class UTorusPowerOfTwo : public ::testing::TestWithParam<std::vector<int>> {};

TEST_P(UTorusPowerOfTwo, Section442HopsAndStepwiseContentionFree) {
  const std::vector<int> dims = GetParam();
  const Topology topo(torus(dims));
  const PortLayout layout = PortLayout::make(PortModel::kAllPort, topo.network_ports(), 0);
  const RouteCompute rc(topo, RoutingConfig{}, layout, 2);
  // Step s belongs to dimension d and spans side(d) / 2^i hops there.
  std::vector<std::pair<int, int>> per_step;  // (dimension, hops)
  for (std::size_t d = 0; d < dims.size(); ++d)
    for (int h = dims[d] / 2; h >= 1; h /= 2) per_step.emplace_back(static_cast<int>(d), h);
  for (NodeId root :
       {NodeId{0}, static_cast<NodeId>(topo.nodes() - 1), static_cast<NodeId>(topo.nodes() / 3)}) {
    const std::vector<Send> sends = broadcast(topo, root);
    EXPECT_EQ(steps_of(sends), static_cast<int>(per_step.size()));
    std::map<int, std::set<std::pair<NodeId, int>>> used;  // step -> (node, port)
    for (const Send& s : sends) {
      const auto [dim, hops] = per_step[static_cast<std::size_t>(s.step - 1)];
      int n = 0;
      for (NodeId at = s.from; at != s.to; at = rc.next_node(at, s.to), ++n) {
        const int port = rc.first_hop_port(at, s.to);
        EXPECT_EQ(port, 2 * dim) << "step " << s.step << ": one dimension, the + way";
        EXPECT_TRUE(used[s.step].insert({at, port}).second)
            << "step " << s.step << ": link " << at << "/" << port << " used twice";
      }
      EXPECT_EQ(n, hops) << s.from << " -> " << s.to << " in step " << s.step;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Tori, UTorusPowerOfTwo,
                         ::testing::Values(std::vector<int>{4, 4}, std::vector<int>{8, 8},
                                           std::vector<int>{32, 32}, std::vector<int>{16, 4},
                                           std::vector<int>{4, 8, 2}),
                         [](const ::testing::TestParamInfo<std::vector<int>>& i) {
                           std::string s = "t";
                           for (int d : i.param) s += "_" + std::to_string(d);
                           return s;
                         });

TEST(UTorus, MulticastChainIsRelativeToTheRoot) {
  const Topology topo(torus({4, 4}));
  // Root (2, 1); destinations (1, 1), (3, 0), (2, 3), (0, 2): relative (3, 0), (1, 3), (0, 2),
  // (2, 1), sorted x first: (0, 2), (1, 3), (2, 1), (3, 0).
  const auto id = [](int x, int y) { return static_cast<NodeId>(x + 4 * y); };
  const std::vector<NodeId> chain =
      u_torus_chain(topo, {0, 1}, id(2, 1), {id(1, 1), id(3, 0), id(2, 1), id(2, 3), id(0, 2)});
  EXPECT_EQ(chain, (std::vector<NodeId>{id(2, 1), id(2, 3), id(3, 0), id(0, 2), id(1, 1)}));
}

}  // namespace
}  // namespace wormsim::fw::u_torus_test
