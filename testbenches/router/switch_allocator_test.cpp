// Tests of the switch allocator, for both separable variants: a matching (at most one grant
// per input port and per output port) that is a subset of the requests, full grants for a
// conflict-free request set, and round-robin fairness among input ports and among VCs.
#include "switch_allocator.h"

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

namespace wormsim::switch_allocator_test {
namespace {

class SwitchAllocatorTest : public ::testing::TestWithParam<AllocatorKind> {};

std::string kind_name(const ::testing::TestParamInfo<AllocatorKind>& info) {
  return info.param == AllocatorKind::kSeparableInputFirst ? "InputFirst" : "OutputFirst";
}

std::tuple<int, int, int> key(const SwitchRequest& r) { return {r.in_port, r.vc, r.out_port}; }

void check_matching(const std::vector<SwitchRequest>& requests,
                    const std::vector<SwitchRequest>& grants) {
  std::set<std::tuple<int, int, int>> requested;
  for (const SwitchRequest& r : requests) requested.insert(key(r));
  std::set<int> ins;
  std::set<int> outs;
  for (const SwitchRequest& g : grants) {
    EXPECT_TRUE(requested.count(key(g)))
        << "grant (" << g.in_port << "," << g.vc << "->" << g.out_port << ") not requested";
    EXPECT_TRUE(ins.insert(g.in_port).second) << "input port " << g.in_port << " granted twice";
    EXPECT_TRUE(outs.insert(g.out_port).second) << "output port " << g.out_port << " granted twice";
  }
}

TEST_P(SwitchAllocatorTest, NoRequestsNoGrants) {
  SwitchAllocator sa(GetParam(), 4, 4, 2);
  std::vector<SwitchRequest> grants;
  sa.allocate({}, grants);
  EXPECT_TRUE(grants.empty());
}

TEST_P(SwitchAllocatorTest, ConflictFreeRequestsAllGranted) {
  const int ports = 6;
  const int vcs = 3;
  SwitchAllocator sa(GetParam(), ports, ports, vcs);
  std::mt19937_64 rng(5);
  for (int round = 0; round < 200; ++round) {
    // A random partial permutation, one random VC per requesting input port.
    std::vector<int> perm(static_cast<std::size_t>(ports));
    for (int i = 0; i < ports; ++i) perm[static_cast<std::size_t>(i)] = i;
    std::shuffle(perm.begin(), perm.end(), rng);
    std::vector<SwitchRequest> req;
    for (int in = 0; in < ports; ++in) {
      if (std::uniform_int_distribution<int>(0, 3)(rng) == 0) continue;
      req.push_back({in, std::uniform_int_distribution<int>(0, vcs - 1)(rng),
                     perm[static_cast<std::size_t>(in)]});
    }
    std::vector<SwitchRequest> grants;
    sa.allocate(req, grants);
    check_matching(req, grants);
    EXPECT_EQ(grants.size(), req.size()) << "round " << round;
  }
}

TEST_P(SwitchAllocatorTest, RandomRequestsFormAMatching) {
  std::mt19937_64 rng(77);
  for (int trial = 0; trial < 200; ++trial) {
    const int inputs = std::uniform_int_distribution<int>(1, 8)(rng);
    const int outputs = std::uniform_int_distribution<int>(1, 8)(rng);
    const int vcs = std::uniform_int_distribution<int>(1, 4)(rng);
    SwitchAllocator sa(GetParam(), inputs, outputs, vcs);
    for (int round = 0; round < 30; ++round) {
      std::vector<SwitchRequest> req;
      for (int in = 0; in < inputs; ++in)
        for (int vc = 0; vc < vcs; ++vc)
          if (std::uniform_int_distribution<int>(0, 2)(rng) == 0)
            req.push_back({in, vc, std::uniform_int_distribution<int>(0, outputs - 1)(rng)});
      std::shuffle(req.begin(), req.end(), rng);
      std::vector<SwitchRequest> grants;
      sa.allocate(req, grants);
      check_matching(req, grants);
      EXPECT_EQ(req.empty(), grants.empty()) << "trial " << trial << " round " << round;
    }
  }
}

// grant_all (the router's shortcut for conflict-free requests in ascending input-port order)
// must leave the pointers where allocate() leaves them: two allocators, one taking the
// conflict-free rounds through allocate() and one through grant_all(), then grant the same
// on every contended round that follows.
TEST_P(SwitchAllocatorTest, GrantAllMovesThePointersAsAllocateDoes) {
  std::mt19937_64 rng(91);
  const int inputs = 5, outputs = 5, vcs = 3;
  SwitchAllocator full(GetParam(), inputs, outputs, vcs);
  SwitchAllocator shortcut(GetParam(), inputs, outputs, vcs);
  for (int round = 0; round < 2000; ++round) {
    std::vector<SwitchRequest> req;
    if (round % 2 == 0) {  // conflict-free: distinct inputs (ascending) and distinct outputs
      std::vector<int> outs(static_cast<std::size_t>(outputs));
      for (int o = 0; o < outputs; ++o) outs[static_cast<std::size_t>(o)] = o;
      std::shuffle(outs.begin(), outs.end(), rng);
      for (int in = 0; in < inputs; ++in)
        if (std::uniform_int_distribution<int>(0, 1)(rng) == 0)
          req.push_back({in, std::uniform_int_distribution<int>(0, vcs - 1)(rng),
                         outs[static_cast<std::size_t>(in)]});
      std::vector<SwitchRequest> grants;
      full.allocate(req, grants);
      ASSERT_EQ(grants.size(), req.size()) << "round " << round;
      shortcut.grant_all(req);
      continue;
    }
    for (int in = 0; in < inputs; ++in)  // contended: any VC may want any output
      for (int vc = 0; vc < vcs; ++vc)
        if (std::uniform_int_distribution<int>(0, 1)(rng) == 0)
          req.push_back({in, vc, std::uniform_int_distribution<int>(0, 1)(rng)});
    std::vector<SwitchRequest> a;
    std::vector<SwitchRequest> b;
    full.allocate(req, a);
    shortcut.allocate(req, b);
    ASSERT_EQ(a.size(), b.size()) << "round " << round;
    for (std::size_t i = 0; i < a.size(); ++i)
      EXPECT_EQ(key(a[i]), key(b[i])) << "round " << round << " grant " << i;
  }
}

// n input ports each with one VC continuously requesting output 0: round robin.
TEST_P(SwitchAllocatorTest, FairnessAmongInputPortsForOneOutput) {
  const int ports = 5;
  const int vcs = 2;
  SwitchAllocator sa(GetParam(), ports, ports, vcs);
  std::vector<int> wins(static_cast<std::size_t>(ports), 0);
  std::vector<int> last(static_cast<std::size_t>(ports), -1);
  const int k = 20;
  for (int round = 0; round < ports * k; ++round) {
    std::vector<SwitchRequest> req;
    for (int in = 0; in < ports; ++in) req.push_back({in, in % vcs, 0});
    std::vector<SwitchRequest> grants;
    sa.allocate(req, grants);
    check_matching(req, grants);
    ASSERT_EQ(grants.size(), 1u);
    const int w = grants[0].in_port;
    ++wins[static_cast<std::size_t>(w)];
    if (last[static_cast<std::size_t>(w)] >= 0) {
      EXPECT_EQ(round - last[static_cast<std::size_t>(w)], ports) << "input " << w;
    }
    last[static_cast<std::size_t>(w)] = round;
  }
  for (int in = 0; in < ports; ++in) EXPECT_EQ(wins[static_cast<std::size_t>(in)], k) << in;
}

// One input port, all its VCs requesting continuously (same output, or each a different
// output): the VCs are served round-robin, one flit per cycle from the port.
TEST_P(SwitchAllocatorTest, FairnessAmongVcsOfOneInputPort) {
  const int ports = 5;
  const int vcs = 4;
  for (bool same_output : {true, false}) {
    SwitchAllocator sa(GetParam(), ports, ports, vcs);
    std::vector<int> wins(static_cast<std::size_t>(vcs), 0);
    std::vector<int> last(static_cast<std::size_t>(vcs), -1);
    const int k = 15;
    for (int round = 0; round < vcs * k; ++round) {
      std::vector<SwitchRequest> req;
      for (int vc = 0; vc < vcs; ++vc) req.push_back({2, vc, same_output ? 3 : vc});
      std::vector<SwitchRequest> grants;
      sa.allocate(req, grants);
      check_matching(req, grants);
      ASSERT_EQ(grants.size(), 1u);
      const int w = grants[0].vc;
      ++wins[static_cast<std::size_t>(w)];
      if (last[static_cast<std::size_t>(w)] >= 0) {
        EXPECT_EQ(round - last[static_cast<std::size_t>(w)], vcs) << "vc " << w;
      }
      last[static_cast<std::size_t>(w)] = round;
    }
    for (int vc = 0; vc < vcs; ++vc)
      EXPECT_EQ(wins[static_cast<std::size_t>(vc)], k) << "vc " << vc << " same " << same_output;
  }
}

// Two-dimensional contention: every VC of every input port requests the same output. Each
// (port, vc) pair must be served equally often, and no pair waits more than ports*vcs rounds.
TEST_P(SwitchAllocatorTest, FairnessAcrossPortsAndVcs) {
  const int ports = 3;
  const int vcs = 3;
  SwitchAllocator sa(GetParam(), ports, ports, vcs);
  std::map<std::pair<int, int>, int> wins;
  std::map<std::pair<int, int>, int> last;
  const int k = 10;
  for (int round = 0; round < ports * vcs * k; ++round) {
    std::vector<SwitchRequest> req;
    for (int in = 0; in < ports; ++in)
      for (int vc = 0; vc < vcs; ++vc) req.push_back({in, vc, 1});
    std::vector<SwitchRequest> grants;
    sa.allocate(req, grants);
    check_matching(req, grants);
    ASSERT_EQ(grants.size(), 1u);
    const std::pair<int, int> w{grants[0].in_port, grants[0].vc};
    ++wins[w];
    if (last.count(w)) {
      EXPECT_LE(round - last[w], ports * vcs);
    }
    last[w] = round;
  }
  for (int in = 0; in < ports; ++in)
    for (int vc = 0; vc < vcs; ++vc) EXPECT_EQ((wins[{in, vc}]), k) << in << "," << vc;
}

// A persistent requester (port 0, VC 1 -> output 4) whose own port also has another VC busy
// with an uncontended output, while every other port contends for output 4: it is served
// within ports * vcs rounds every time (the input arbiter turns to it within vcs grants of
// port 0, and output 4's arbiter within `ports` grants).
TEST_P(SwitchAllocatorTest, PersistentRequesterNotStarved) {
  const int ports = 5;
  const int vcs = 2;
  SwitchAllocator sa(GetParam(), ports, ports, vcs);
  int wait = 0;
  int served_count = 0;
  for (int round = 0; round < 200; ++round) {
    std::vector<SwitchRequest> req{{0, 0, 2}, {0, 1, 4}};
    for (int in = 1; in < ports; ++in) req.push_back({in, round % vcs, 4});
    std::vector<SwitchRequest> grants;
    sa.allocate(req, grants);
    check_matching(req, grants);
    bool served = false;
    for (const SwitchRequest& g : grants) served = served || (g.in_port == 0 && g.vc == 1);
    served_count += served ? 1 : 0;
    wait = served ? 0 : wait + 1;
    ASSERT_LT(wait, ports * vcs) << "round " << round;
  }
  EXPECT_GE(served_count, 200 / (ports * vcs));
}

INSTANTIATE_TEST_SUITE_P(BothKinds, SwitchAllocatorTest,
                         ::testing::Values(AllocatorKind::kSeparableInputFirst,
                                           AllocatorKind::kSeparableOutputFirst),
                         kind_name);

}  // namespace
}  // namespace wormsim::switch_allocator_test
