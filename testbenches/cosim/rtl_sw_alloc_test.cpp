// Block-level test of rtl/wormsim_sw_alloc.sv (Verilated with NumIn = NumOut = 5, NumVcs = 2)
// against the C++ SwitchAllocator (systemc/router/switch_allocator.cpp) with the same sizes, both
// allocator kinds: thousands of cycles of random requests, cross-checked grant for grant
// every cycle (the round-robin pointers of both models evolve with their own grants). Two
// workloads: VCs whose packets keep wanting one output port until their tail leaves (the
// router's pattern), and independent random requests every cycle. The wanted port of a VC
// without a request is driven with junk: it must not matter.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "Vwormsim_sw_alloc.h"
#include "rtl_block_harness.h"
#include "switch_allocator.h"

namespace wormsim {
namespace {

constexpr int kIn = 5;  // rtl/CMakeLists.txt: wormsim_sw_alloc NumIn=5 NumOut=5 NumVcs=2
constexpr int kOut = 5;
constexpr int kVcs = 2;
constexpr unsigned kOutW = 3;
constexpr unsigned kInW = 3;
using Alloc = rtl_test::ClockedBlock<Vwormsim_sw_alloc>;

struct Stats {
  long cycles = 0;
  long grants = 0;
  long contended = 0;  // cycles with more requests than grants
};

bool run(AllocatorKind kind, bool persistent, int cycles, std::mt19937_64& rng, Stats& stats) {
  Alloc rtl;
  rtl->kind_i = kind == AllocatorKind::kSeparableOutputFirst;
  SwitchAllocator cpp(kind, kIn, kOut, kVcs);
  std::uniform_real_distribution<double> u(0, 1);
  const double p_ready = u(rng) * 0.8 + 0.15;  // a VC has a sendable flit this cycle
  const double p_tail = u(rng) * 0.5 + 0.1;    // a sent flit ends its packet
  std::vector<int> out(kIn * kVcs);            // per [in][vc]: the packet's output port
  for (int& o : out) o = static_cast<int>(rng() % kOut);
  std::vector<SwitchRequest> requests;
  std::vector<SwitchRequest> grants;
  for (int t = 0; t < cycles; ++t) {
    requests.clear();
    std::uint32_t req = 0;
    std::uint32_t want = 0;
    for (int i = 0; i < kIn; ++i) {
      for (int v = 0; v < kVcs; ++v) {
        const int iv = i * kVcs + v;
        if (!persistent) out[static_cast<std::size_t>(iv)] = static_cast<int>(rng() % kOut);
        const bool r = u(rng) < p_ready;
        // Junk for idle VCs: any output port.
        const int w = r ? out[static_cast<std::size_t>(iv)] : static_cast<int>(rng() % kOut);
        if (r) {
          req |= 1u << iv;
          requests.push_back({i, v, w});
        }
        want |= static_cast<std::uint32_t>(w) << (kOutW * static_cast<unsigned>(iv));
      }
    }
    std::shuffle(requests.begin(), requests.end(), rng);  // the C++ result is order-free

    grants.clear();
    cpp.allocate(requests, grants);
    rtl->req_i = static_cast<std::uint16_t>(req);
    rtl->want_i = want;
    rtl.eval();

    std::vector<int> exp_vc(kIn, -1);   // per input port: granted VC
    std::vector<int> exp_in(kOut, -1);  // per output port: the input port it takes
    for (const SwitchRequest& g : grants) {
      exp_vc[static_cast<std::size_t>(g.in_port)] = g.vc;
      exp_in[static_cast<std::size_t>(g.out_port)] = g.in_port;
    }
    const auto context = [&] {
      std::string s = "cycle " + std::to_string(t) + (persistent ? " (persistent)" : " (random)") +
                      ", requests (in,vc->out):";
      for (const SwitchRequest& r : requests)
        s += " (" + std::to_string(r.in_port) + "," + std::to_string(r.vc) + "->" +
             std::to_string(r.out_port) + ")";
      s += ", C++ grants:";
      for (const SwitchRequest& g : grants)
        s += " (" + std::to_string(g.in_port) + "," + std::to_string(g.vc) + "->" +
             std::to_string(g.out_port) + ")";
      return s;
    };
    for (int i = 0; i < kIn; ++i) {
      const bool g = ((rtl->gnt_o >> i) & 1u) != 0;
      const int vc = static_cast<int>((rtl->gnt_vc_o >> i) & 1u);
      const int exp = exp_vc[static_cast<std::size_t>(i)];
      if (g != (exp >= 0) || (g && vc != exp)) {
        ADD_FAILURE() << context() << ": input port " << i << " RTL "
                      << (g ? "grants VC " + std::to_string(vc) : std::string("no grant"));
        return false;
      }
    }
    for (int o = 0; o < kOut; ++o) {
      const bool v = ((rtl->sel_valid_o >> o) & 1u) != 0;
      const int in = static_cast<int>((rtl->sel_o >> (kInW * static_cast<unsigned>(o))) & 7u);
      const int exp = exp_in[static_cast<std::size_t>(o)];
      if (v != (exp >= 0) || (v && in != exp)) {
        ADD_FAILURE() << context() << ": output port " << o << " RTL "
                      << (v ? "takes input port " + std::to_string(in) : std::string("idle"));
        return false;
      }
    }
    if (persistent)
      for (const SwitchRequest& g : grants)
        if (u(rng) < p_tail)  // the packet ends: the VC's next packet goes elsewhere
          out[static_cast<std::size_t>(g.in_port * kVcs + g.vc)] = static_cast<int>(rng() % kOut);
    rtl.tick();
    if (rtl.error()) {
      ADD_FAILURE() << "RTL assertion failed, " << context();
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
  EXPECT_GT(stats.grants, stats.cycles);
  EXPECT_GT(stats.contended, stats.cycles / 4);
}

TEST(RtlSwAlloc, InputFirstMatchesCppGrantForGrant) {
  check_kind(AllocatorKind::kSeparableInputFirst, 303);
}

TEST(RtlSwAlloc, OutputFirstMatchesCppGrantForGrant) {
  check_kind(AllocatorKind::kSeparableOutputFirst, 404);
}

}  // namespace
}  // namespace wormsim
