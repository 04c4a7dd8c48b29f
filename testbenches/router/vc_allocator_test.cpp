// Tests of the virtual-channel allocator, for both separable variants: grants only free
// candidate output VCs, never two grants for one output VC or one input VC, and arbitrates
// fairly among input VCs competing for the same output VC.
#include "vc_allocator.h"

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <vector>

#include <gtest/gtest.h>

namespace wormsim::vc_allocator_test {
namespace {

class VcAllocatorTest : public ::testing::TestWithParam<AllocatorKind> {};

std::string kind_name(const ::testing::TestParamInfo<AllocatorKind>& info) {
  return info.param == AllocatorKind::kSeparableInputFirst ? "InputFirst" : "OutputFirst";
}

RouteResult make_route(int port_lo, int port_hi, int vc_lo, int vc_hi) {
  RouteResult r;
  r.port_lo = port_lo;
  r.port_hi = port_hi;
  r.vc_lo = vc_lo;
  r.vc_hi = vc_hi;
  return r;
}

// Checks every contract of one allocation round.
void check_grants(const std::vector<VcRequest>& requests, const std::vector<int>& owner,
                  const std::vector<VcGrant>& grants, int outputs, int vcs) {
  std::map<int, const VcRequest*> by_input;
  for (const VcRequest& r : requests) by_input[r.input_vc] = &r;
  std::set<int> inputs_granted;
  std::set<int> outputs_granted;
  for (const VcGrant& g : grants) {
    auto it = by_input.find(g.input_vc);
    ASSERT_NE(it, by_input.end()) << "grant to input VC " << g.input_vc << " that did not request";
    const RouteResult& r = it->second->route;
    EXPECT_GE(g.out_port, r.port_lo) << g.input_vc;
    EXPECT_LT(g.out_port, r.port_hi) << g.input_vc;
    EXPECT_GE(g.out_vc, r.vc_lo) << g.input_vc;
    EXPECT_LT(g.out_vc, r.vc_hi) << g.input_vc;
    ASSERT_GE(g.out_port, 0);
    ASSERT_LT(g.out_port, outputs);
    ASSERT_GE(g.out_vc, 0);
    ASSERT_LT(g.out_vc, vcs);
    const int o = g.out_port * vcs + g.out_vc;
    EXPECT_LT(owner[static_cast<std::size_t>(o)], 0) << "granted owned output VC " << o;
    EXPECT_TRUE(inputs_granted.insert(g.input_vc).second)
        << "two grants for input VC " << g.input_vc;
    EXPECT_TRUE(outputs_granted.insert(o).second) << "two grants for output VC " << o;
  }
}

TEST_P(VcAllocatorTest, NoRequestsNoGrants) {
  VcAllocator va(GetParam(), 3, 3, 2);
  std::vector<int> owner(6, -1);
  std::vector<VcGrant> grants;
  va.allocate({}, owner, grants);
  EXPECT_TRUE(grants.empty());
}

TEST_P(VcAllocatorTest, SingleRequestGetsAFreeCandidate) {
  const int vcs = 4;
  VcAllocator va(GetParam(), 5, 5, vcs);
  std::vector<int> owner(5 * vcs, -1);
  // Port 3: VCs 0 and 1 owned, 2 free, 3 owned. Request [vc 0, 4) on port 3.
  owner[3 * vcs + 0] = 7;
  owner[3 * vcs + 1] = 2;
  owner[3 * vcs + 3] = 11;
  std::vector<VcRequest> req{{6, make_route(3, 4, 0, 4)}};
  std::vector<VcGrant> grants;
  va.allocate(req, owner, grants);
  ASSERT_EQ(grants.size(), 1u);
  EXPECT_EQ(grants[0].input_vc, 6);
  EXPECT_EQ(grants[0].out_port, 3);
  EXPECT_EQ(grants[0].out_vc, 2);
}

TEST_P(VcAllocatorTest, AllCandidatesOwnedGivesNoGrant) {
  const int vcs = 2;
  VcAllocator va(GetParam(), 3, 3, vcs);
  std::vector<int> owner(3 * vcs, -1);
  owner[1 * vcs + 0] = 0;
  owner[1 * vcs + 1] = 1;
  std::vector<VcRequest> req{{2, make_route(1, 2, 0, 2)}, {4, make_route(1, 2, 1, 2)}};
  std::vector<VcGrant> grants;
  va.allocate(req, owner, grants);
  EXPECT_TRUE(grants.empty());
}

TEST_P(VcAllocatorTest, RespectsVcRange) {
  // A dateline-class-1 style request [V/2, V) must never get a class-0 VC even when all free.
  const int vcs = 4;
  VcAllocator va(GetParam(), 5, 5, vcs);
  std::vector<int> owner(5 * vcs, -1);
  for (int round = 0; round < 10; ++round) {
    std::vector<VcRequest> req{{0, make_route(2, 3, 2, 4)}, {5, make_route(2, 3, 0, 2)}};
    std::vector<VcGrant> grants;
    va.allocate(req, owner, grants);
    check_grants(req, owner, grants, 5, vcs);
    EXPECT_EQ(grants.size(), 2u);
  }
}

TEST_P(VcAllocatorTest, ConcatenatesToExistingGrants) {
  VcAllocator va(GetParam(), 2, 2, 1);
  std::vector<int> owner(2, -1);
  std::vector<VcGrant> grants{{99, 9, 9}};
  va.allocate({{0, make_route(1, 2, 0, 1)}}, owner, grants);
  ASSERT_EQ(grants.size(), 2u);
  EXPECT_EQ(grants[0].input_vc, 99);
  EXPECT_EQ(grants[1].input_vc, 0);
}

// Randomised contract check: random router sizes, request sets, candidate ranges and owners.
TEST_P(VcAllocatorTest, RandomRequestsRespectContracts) {
  std::mt19937_64 rng(2024);
  for (int trial = 0; trial < 300; ++trial) {
    const int inputs = std::uniform_int_distribution<int>(1, 7)(rng);
    const int outputs = std::uniform_int_distribution<int>(1, 7)(rng);
    const int vcs = std::uniform_int_distribution<int>(1, 4)(rng);
    VcAllocator va(GetParam(), inputs, outputs, vcs);
    for (int round = 0; round < 20; ++round) {
      std::vector<int> owner(static_cast<std::size_t>(outputs * vcs), -1);
      for (int& o : owner)
        if (std::uniform_int_distribution<int>(0, 2)(rng) == 0)
          o = std::uniform_int_distribution<int>(0, inputs * vcs - 1)(rng);
      std::vector<VcRequest> req;
      for (int ivc = 0; ivc < inputs * vcs; ++ivc) {
        if (std::uniform_int_distribution<int>(0, 1)(rng) == 0) continue;
        const int plo = std::uniform_int_distribution<int>(0, outputs - 1)(rng);
        const int phi =
            std::uniform_int_distribution<int>(plo + 1, std::min(outputs, plo + 2))(rng);
        const int vlo = std::uniform_int_distribution<int>(0, vcs - 1)(rng);
        const int vhi = std::uniform_int_distribution<int>(vlo + 1, vcs)(rng);
        req.push_back({ivc, make_route(plo, phi, vlo, vhi)});
      }
      std::shuffle(req.begin(), req.end(), rng);  // order of requests is not a contract
      std::vector<VcGrant> grants;
      va.allocate(req, owner, grants);
      check_grants(req, owner, grants, outputs, vcs);
      // Work conservation: if any request has a free candidate, something is granted.
      bool any_free_candidate = false;
      for (const VcRequest& r : req)
        for (int p = r.route.port_lo; p < r.route.port_hi; ++p)
          for (int v = r.route.vc_lo; v < r.route.vc_hi; ++v)
            if (owner[static_cast<std::size_t>(p * vcs + v)] < 0) any_free_candidate = true;
      EXPECT_EQ(!grants.empty(), any_free_candidate) << "trial " << trial << " round " << round;
    }
  }
}

// Several input VCs want the same single output VC; each round the winner takes it and
// releases it before the next round. Winners must rotate round-robin: over n*k rounds each
// gets exactly k and nobody waits more than n rounds.
TEST_P(VcAllocatorTest, FairnessOneOutputVc) {
  const int inputs = 5;
  const int outputs = 5;
  const int vcs = 2;
  VcAllocator va(GetParam(), inputs, outputs, vcs);
  std::vector<int> owner(static_cast<std::size_t>(outputs * vcs), -1);
  // Competitors on different ports and VCs; all want output port 4, VC 1.
  const std::vector<int> competitors{0 * vcs + 1, 1 * vcs + 0, 2 * vcs + 1, 3 * vcs + 1,
                                     4 * vcs + 0};
  const int n = static_cast<int>(competitors.size());
  std::map<int, int> wins;
  std::map<int, int> last_win;
  const int k = 20;
  std::mt19937_64 rng(7);
  for (int round = 0; round < n * k; ++round) {
    std::vector<VcRequest> req;
    for (int ivc : competitors) req.push_back({ivc, make_route(4, 5, 1, 2)});
    std::shuffle(req.begin(), req.end(), rng);
    std::vector<VcGrant> grants;
    va.allocate(req, owner, grants);
    check_grants(req, owner, grants, outputs, vcs);
    ASSERT_EQ(grants.size(), 1u) << "round " << round;
    const int w = grants[0].input_vc;
    ++wins[w];
    if (last_win.count(w)) {
      EXPECT_EQ(round - last_win[w], n) << "input VC " << w;
    }
    last_win[w] = round;
    // owner stays -1: the winner's packet has left and released the VC.
  }
  for (int ivc : competitors) EXPECT_EQ(wins[ivc], k) << "input VC " << ivc;
}

// A persistent requester among others that request intermittently is served within
// (number of input VCs) rounds: the others' coming and going cannot starve it.
TEST_P(VcAllocatorTest, FairnessWithIntermittentRequesters) {
  const int inputs = 3;
  const int outputs = 3;
  const int vcs = 4;
  VcAllocator va(GetParam(), inputs, outputs, vcs);
  std::vector<int> owner(static_cast<std::size_t>(outputs * vcs), -1);
  std::vector<int> wait(static_cast<std::size_t>(inputs * vcs), 0);
  std::mt19937_64 rng(99);
  const int persistent = 1 * vcs + 2;
  for (int round = 0; round < 400; ++round) {
    std::vector<VcRequest> req{{persistent, make_route(0, 1, 3, 4)}};
    for (int ivc = 0; ivc < inputs * vcs; ++ivc)
      if (ivc != persistent && std::uniform_int_distribution<int>(0, 1)(rng) == 1)
        req.push_back({ivc, make_route(0, 1, 3, 4)});
    std::vector<VcGrant> grants;
    va.allocate(req, owner, grants);
    check_grants(req, owner, grants, outputs, vcs);
    ASSERT_EQ(grants.size(), 1u);
    if (grants[0].input_vc == persistent)
      wait[static_cast<std::size_t>(persistent)] = 0;
    else
      ++wait[static_cast<std::size_t>(persistent)];
    ASSERT_LT(wait[static_cast<std::size_t>(persistent)], inputs * vcs)
        << "persistent requester starved at round " << round;
  }
}

// Competitors for a pool of output VCs (one port, all VCs free each round): over many
// rounds every competitor gets the same number of grants within a small tolerance and the
// pool is never left entirely unused.
TEST_P(VcAllocatorTest, FairnessOverAPoolOfOutputVcs) {
  const int inputs = 4;
  const int outputs = 2;
  const int vcs = 2;
  VcAllocator va(GetParam(), inputs, outputs, vcs);
  std::vector<int> owner(static_cast<std::size_t>(outputs * vcs), -1);
  std::vector<int> wins(static_cast<std::size_t>(inputs * vcs), 0);
  const std::vector<int> competitors{0, 3, 4, 6};
  const int rounds = 400;
  for (int round = 0; round < rounds; ++round) {
    std::vector<VcRequest> req;
    for (int ivc : competitors) req.push_back({ivc, make_route(1, 2, 0, 2)});
    std::vector<VcGrant> grants;
    va.allocate(req, owner, grants);
    check_grants(req, owner, grants, outputs, vcs);
    ASSERT_GE(grants.size(), 1u);
    for (const VcGrant& g : grants) ++wins[static_cast<std::size_t>(g.input_vc)];
  }
  int lo = rounds * 2;
  int hi = 0;
  for (int ivc : competitors) {
    lo = std::min(lo, wins[static_cast<std::size_t>(ivc)]);
    hi = std::max(hi, wins[static_cast<std::size_t>(ivc)]);
  }
  EXPECT_LE(hi - lo, 2) << "min " << lo << " max " << hi;
  EXPECT_GT(lo, rounds / 4);  // each of 4 gets more than a quarter of the rounds (2 VCs/round)
}

INSTANTIATE_TEST_SUITE_P(BothKinds, VcAllocatorTest,
                         ::testing::Values(AllocatorKind::kSeparableInputFirst,
                                           AllocatorKind::kSeparableOutputFirst),
                         kind_name);

}  // namespace
}  // namespace wormsim::vc_allocator_test
