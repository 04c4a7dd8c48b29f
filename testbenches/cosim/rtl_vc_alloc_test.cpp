// Block-level test of rtl/wormsim_vc_alloc.sv (Verilated with NumIn = NumOut = 8) against the
// C++ VcAllocator (systemc/router/vc_allocator.cpp) for 4 ports x 2 VCs on each side, both allocator
// kinds: thousands of cycles of random requests, cross-checked grant for grant every cycle
// (both models' round-robin pointers evolve with their own grants, so one differing grant
// shows up as a mismatch and later ones follow). Requests are candidate ranges (ports x VCs)
// as route compute gives them; an output VC is free when its owner is < 0. Two workloads:
// heads that wait until granted on output VCs that stay owned for a while (the router's
// pattern), and independent random requests, candidates and free masks every cycle.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "Vwormsim_vc_alloc.h"
#include "rtl_block_harness.h"
#include "vc_allocator.h"

namespace wormsim {
namespace {

constexpr int kPorts = 4;
constexpr int kVcs = 2;
constexpr int kIn = kPorts * kVcs;  // rtl/CMakeLists.txt: wormsim_vc_alloc NumIn=8 NumOut=8
constexpr int kOut = kPorts * kVcs;
constexpr unsigned kOutW = 3;
using Alloc = rtl_test::ClockedBlock<Vwormsim_vc_alloc>;

RouteResult random_route(std::mt19937_64& rng) {
  RouteResult r;
  // Mostly one port (a network hop), sometimes a range (ejection channels); VC ranges as
  // from dateline classes: all, lower or upper part.
  r.port_lo = static_cast<int>(rng() % kPorts);
  const int span = rng() % 4 == 0 ? 1 + static_cast<int>(rng() % kPorts) : 1;
  r.port_hi = std::min(kPorts, r.port_lo + span);
  r.vc_lo = static_cast<int>(rng() % kVcs);
  r.vc_hi = r.vc_lo + 1 + static_cast<int>(rng() % static_cast<unsigned>(kVcs - r.vc_lo));
  return r;
}

bool candidate(const RouteResult& r, int o) {
  const int port = o / kVcs;
  const int vc = o % kVcs;
  return port >= r.port_lo && port < r.port_hi && vc >= r.vc_lo && vc < r.vc_hi;
}

struct Stats {
  long cycles = 0;
  long grants = 0;
  long contended = 0;  // cycles with more requesters than grants
};

// One run of `cycles` cycles; `persistent` selects the workload. Returns false on a mismatch
// (the failure is reported).
bool run(AllocatorKind kind, bool persistent, int cycles, std::mt19937_64& rng, Stats& stats) {
  Alloc rtl;
  rtl->kind_i = kind == AllocatorKind::kSeparableOutputFirst;
  VcAllocator cpp(kind, kPorts, kPorts, kVcs);
  std::vector<int> owner(kOut, -1);
  std::vector<bool> waiting(kIn, false);
  std::vector<RouteResult> route(kIn);
  std::uniform_real_distribution<double> u(0, 1);
  const double p_new = u(rng) * 0.6 + 0.1;
  const double p_release = u(rng) * 0.5 + 0.05;
  const double p_bit = u(rng) * 0.8 + 0.1;
  std::vector<VcRequest> requests;
  std::vector<VcGrant> grants;
  for (int t = 0; t < cycles; ++t) {
    if (persistent) {
      for (int o = 0; o < kOut; ++o)
        if (owner[static_cast<std::size_t>(o)] >= 0 && u(rng) < p_release)
          owner[static_cast<std::size_t>(o)] = -1;
      for (int i = 0; i < kIn; ++i)
        if (!waiting[static_cast<std::size_t>(i)] && u(rng) < p_new) {
          waiting[static_cast<std::size_t>(i)] = true;
          route[static_cast<std::size_t>(i)] = random_route(rng);
        }
    } else {
      for (int o = 0; o < kOut; ++o) owner[static_cast<std::size_t>(o)] = u(rng) < p_bit ? -1 : 0;
      for (int i = 0; i < kIn; ++i) {
        waiting[static_cast<std::size_t>(i)] = u(rng) < p_bit;
        route[static_cast<std::size_t>(i)] = random_route(rng);
      }
    }
    requests.clear();
    std::uint32_t req = 0;
    std::uint64_t cand = 0;
    std::uint32_t free = 0;
    for (int i = 0; i < kIn; ++i) {
      const RouteResult& r = route[static_cast<std::size_t>(i)];
      if (waiting[static_cast<std::size_t>(i)]) {
        req |= 1u << i;
        requests.push_back({i, r});
      }
      // Candidates of idle input VCs are driven too (stale route results): they must not
      // matter.
      for (int o = 0; o < kOut; ++o)
        if (candidate(r, o)) cand |= std::uint64_t{1} << (i * kOut + o);
    }
    for (int o = 0; o < kOut; ++o)
      if (owner[static_cast<std::size_t>(o)] < 0) free |= 1u << o;
    std::shuffle(requests.begin(), requests.end(), rng);  // the C++ result is order-free

    grants.clear();
    cpp.allocate(requests, owner, grants);
    rtl->req_i = static_cast<std::uint8_t>(req);
    rtl->cand_i = cand;
    rtl->free_i = static_cast<std::uint8_t>(free);
    rtl.eval();

    std::vector<int> want(kIn, -1);  // per input VC: granted output VC
    for (const VcGrant& g : grants)
      want[static_cast<std::size_t>(g.input_vc)] = g.out_port * kVcs + g.out_vc;
    const auto trace = [&] {
      std::string s;
      for (const VcRequest& r : requests)
        s += " ivc" + std::to_string(r.input_vc) + "[p" + std::to_string(r.route.port_lo) + "-" +
             std::to_string(r.route.port_hi) + ",v" + std::to_string(r.route.vc_lo) + "-" +
             std::to_string(r.route.vc_hi) + ")";
      return s;
    };
    for (int i = 0; i < kIn; ++i) {
      const bool rtl_gnt = ((rtl->gnt_o >> i) & 1u) != 0;
      const int rtl_out =
          static_cast<int>((rtl->gnt_out_o >> (kOutW * static_cast<unsigned>(i))) & 7u);
      const int exp = want[static_cast<std::size_t>(i)];
      if (rtl_gnt != (exp >= 0) || (rtl_gnt && rtl_out != exp)) {
        ADD_FAILURE() << "cycle " << t << (persistent ? " (persistent)" : " (random)")
                      << ": input VC " << i << ": C++ grants "
                      << (exp >= 0 ? "output VC " + std::to_string(exp) : std::string("nothing"))
                      << ", RTL grants "
                      << (rtl_gnt ? "output VC " + std::to_string(rtl_out) : std::string("nothing"))
                      << "; free mask " << free << ", requests" << trace();
        return false;
      }
    }
    for (const VcGrant& g : grants) {
      owner[static_cast<std::size_t>(g.out_port * kVcs + g.out_vc)] = g.input_vc;
      waiting[static_cast<std::size_t>(g.input_vc)] = false;
    }
    rtl.tick();
    if (rtl.error()) {
      ADD_FAILURE() << "RTL assertion failed at cycle " << t;
      return false;
    }
    ++stats.cycles;
    stats.grants += static_cast<long>(grants.size());
    if (requests.size() > grants.size()) ++stats.contended;
  }
  return true;
}

void check_kind(AllocatorKind kind, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Stats stats;
  for (int r = 0; r < 30; ++r) {
    if (!run(kind, true, 1000, rng, stats)) return;
    if (!run(kind, false, 300, rng, stats)) return;
  }
  EXPECT_EQ(stats.cycles, 30 * 1300);
  EXPECT_GT(stats.grants, stats.cycles);         // plenty of grants ...
  EXPECT_GT(stats.contended, stats.cycles / 4);  // ... and of requesters that lose
}

TEST(RtlVcAlloc, InputFirstMatchesCppGrantForGrant) {
  check_kind(AllocatorKind::kSeparableInputFirst, 101);
}

TEST(RtlVcAlloc, OutputFirstMatchesCppGrantForGrant) {
  check_kind(AllocatorKind::kSeparableOutputFirst, 202);
}

}  // namespace
}  // namespace wormsim
