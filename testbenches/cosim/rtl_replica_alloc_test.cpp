// Block-level test of rtl/wormsim_replica_alloc.sv (Verilated with NumIn = 3, NumOut = 4,
// NumVcs = 2, NumBr = 3) against the C++ allocation of replicating worms the router runs
// (systemc/router/replica_allocator.h, called by Router::allocate_replica_vcs and
// allocate_replica_switch): thousands of cycles of seeded random inputs, both replication
// handshakes, compared output for output every cycle. Both models keep their own round-robin
// pointers (one per allocation), so a grant that differs once shows up then and in the cycles
// after it.
//  - VCs: random replicating heads with one to three branches. Branch slots are on distinct
//    outputs as in the router (slot 0 on port 0, slot 1 on port 1, slot 2 on ports [2, 3) or
//    [2, 4), the ejection-like range), each with a random non-empty VC range; held output
//    VCs random. Compared: which heads are granted, the output VC of each of their branches,
//    and the output VCs taken this cycle.
//  - Switch: random worms with random live branches, flits ready or not, on random output
//    ports (two branches of a worm may even share one). Compared: the branches that send,
//    the input and output ports taken.
// Each run checks that the cases that matter occurred: heads refused because one branch found
// no VC, several grants in one cycle, partial sends (asynchronous), refused sends
// (synchronous), requesters skipped for a taken input port.
#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "Vwormsim_replica_alloc.h"
#include "replica_allocator.h"
#include "rtl_block_harness.h"
#include "rtl_flit.h"

namespace wormsim {
namespace {

constexpr int kIn =
    3;  // rtl/CMakeLists.txt: wormsim_replica_alloc NumIn=3 NumOut=4 NumVcs=2 NumBr=3
constexpr int kOut = 4;
constexpr int kVcs = 2;
constexpr int kBr = 3;
constexpr int kInVc = kIn * kVcs;
constexpr int kOutVc = kOut * kVcs;
constexpr unsigned kPortW = rtl::kPortW;
constexpr unsigned kVcIdxW = 1;  // VcIdxW of NumVcs = 2
using Alloc = rtl_test::ClockedBlock<Vwormsim_replica_alloc>;

// Bits of a Verilated port of any width, as little-endian 32-bit words.
template <std::size_t N>
void put(VlWide<N>& port, unsigned lsb, unsigned width, std::uint64_t v) {
  rtl::set_bits(port.data(), lsb, width, v);
}
template <typename T>
void put(T& port, unsigned lsb, unsigned width, std::uint64_t v) {
  std::uint32_t w[2] = {static_cast<std::uint32_t>(port),
                        static_cast<std::uint32_t>(std::uint64_t{port} >> 32)};
  rtl::set_bits(w, lsb, width, v);
  port = static_cast<T>(std::uint64_t{w[0]} | std::uint64_t{w[1]} << 32);
}
template <std::size_t N>
std::uint64_t get(const VlWide<N>& port, unsigned lsb, unsigned width) {
  return rtl::get_bits(port.data(), lsb, width);
}
template <typename T>
std::uint64_t get(T port, unsigned lsb, unsigned width) {
  return (std::uint64_t{port} >> lsb) & ((std::uint64_t{1} << width) - 1);
}

struct Branch {
  int slot = 0;
  RouteResult route;
  int out_port = -1;
  int out_vc = -1;
};

struct Stats {
  long va_grants = 0, va_refused_partial = 0, va_multi = 0;
  long sa_partial = 0, sa_refused_sync = 0, sa_skipped_port = 0, sa_grants = 0;
};

RouteResult slot_route(int slot, std::mt19937_64& rng) {
  RouteResult r;
  r.port_lo = slot;
  r.port_hi = slot < kBr - 1 ? slot + 1 : slot + 1 + static_cast<int>(rng() % 2);
  r.vc_lo = static_cast<int>(rng() % kVcs);
  r.vc_hi = r.vc_lo + 1 + static_cast<int>(rng() % static_cast<unsigned>(kVcs - r.vc_lo));
  return r;
}

std::uint32_t route_bits(const RouteResult& r) {
  return static_cast<std::uint32_t>(r.port_lo) << rtl::pkg::kRoutePortLoLsb |
         static_cast<std::uint32_t>(r.port_hi) << rtl::pkg::kRoutePortHiLsb |
         static_cast<std::uint32_t>(r.vc_lo) << rtl::pkg::kRouteVcLoLsb |
         static_cast<std::uint32_t>(r.vc_hi) << rtl::pkg::kRouteVcHiLsb;
}

// One run of `cycles` cycles; false on the first mismatch (reported).
bool run(bool sync, int cycles, std::uint64_t seed, Stats& stats) {
  std::mt19937_64 rng(seed);
  Alloc rtl;
  rtl->sync_i = sync;
  int va_next = 0;
  int sa_next = 0;
  for (int cycle = 0; cycle < cycles; ++cycle) {
    const std::string at = std::string(sync ? "sync" : "async") + " cycle " + std::to_string(cycle);
    // ---- VC allocation inputs
    std::vector<int> va_requests;
    std::vector<std::vector<Branch>> branches(kInVc);
    std::vector<bool> held(kOutVc);
    rtl->va_req_i = 0;
    rtl->va_br_i = 0;
    rtl->own_i = 0;
    for (int o = 0; o < kOutVc; ++o) {
      held[static_cast<std::size_t>(o)] = rng() % 5 < 2;
      put(rtl->own_i, static_cast<unsigned>(o), 1, held[static_cast<std::size_t>(o)]);
    }
    for (int i = 0; i < kInVc; ++i) {
      for (int s = 0; s < kBr; ++s) {
        const RouteResult r = slot_route(s, rng);
        const bool exists = rng() % 3 != 0;
        put(rtl->va_route_i, static_cast<unsigned>((i * kBr + s)) * rtl::kRouteW, rtl::kRouteW,
            route_bits(r));
        put(rtl->va_br_i, static_cast<unsigned>(i * kBr + s), 1, exists);
        if (exists) branches[static_cast<std::size_t>(i)].push_back({s, r});
      }
      const bool req = rng() % 2 == 0 && !branches[static_cast<std::size_t>(i)].empty();
      put(rtl->va_req_i, static_cast<unsigned>(i), 1, req);
      if (req) va_requests.push_back(i);
    }
    // ---- switch allocation inputs
    std::vector<int> sa_requests;
    std::vector<std::array<bool, kBr>> live(kInVc), ready(kInVc);
    std::vector<std::array<int, kBr>> port(kInVc);
    rtl->sa_req_i = 0;
    rtl->sa_live_i = 0;
    rtl->sa_ok_i = 0;
    for (int i = 0; i < kInVc; ++i) {
      const auto u = static_cast<std::size_t>(i);
      for (int b = 0; b < kBr; ++b) {
        const auto ub = static_cast<std::size_t>(b);
        live[u][ub] = rng() % 4 != 0;
        ready[u][ub] = rng() % 3 != 0;
        port[u][ub] =
            rng() % 8 == 0 ? static_cast<int>(rng() % kOut) : (b + static_cast<int>(u)) % kOut;
        const auto bit = static_cast<unsigned>(i * kBr + b);
        put(rtl->sa_live_i, bit, 1, live[u][ub]);
        put(rtl->sa_ok_i, bit, 1, ready[u][ub]);
        put(rtl->sa_port_i, bit * kPortW, kPortW, static_cast<std::uint64_t>(port[u][ub]));
      }
      const bool req = rng() % 2 == 0;
      put(rtl->sa_req_i, static_cast<unsigned>(i), 1, req);
      if (req) sa_requests.push_back(i);
    }
    rtl.eval();

    // ---- C++
    std::vector<bool> taken = held;
    std::vector<bool> va_gnt(kInVc);
    long refused_partial = 0;
    allocate_replica_vcs(
        va_requests, va_next,
        [&](int r) -> std::vector<Branch>& { return branches[static_cast<std::size_t>(r)]; },
        [](const Branch& b) -> const RouteResult& { return b.route; },
        [&](int, int p, int v) { return !taken[static_cast<std::size_t>(p * kVcs + v)]; },
        [&](int, const Branch&) { ++refused_partial; },
        [&](int r) {
          va_gnt[static_cast<std::size_t>(r)] = true;
          for (const Branch& b : branches[static_cast<std::size_t>(r)])
            taken[static_cast<std::size_t>(b.out_port * kVcs + b.out_vc)] = true;
        });
    std::uint64_t taken_in = 0, taken_out = 0;
    std::vector<std::uint64_t> sa_gnt(kInVc);
    long lost = 0;
    allocate_replica_switch(
        sa_requests, kVcs, sync, sa_next, taken_in, taken_out, [](int) { return kBr; },
        [&](int r, int b) {
          return live[static_cast<std::size_t>(r)][static_cast<std::size_t>(b)];
        },
        [&](int r, int b) {
          return ready[static_cast<std::size_t>(r)][static_cast<std::size_t>(b)];
        },
        [&](int r, int b) {
          return port[static_cast<std::size_t>(r)][static_cast<std::size_t>(b)];
        },
        [&](int) { ++lost; },
        [&](int r, std::uint64_t granted) { sa_gnt[static_cast<std::size_t>(r)] = granted; });

    // ---- compare
    long grants = 0;
    for (int i = 0; i < kInVc; ++i) {
      const auto u = static_cast<std::size_t>(i);
      EXPECT_EQ(get(rtl->va_gnt_o, static_cast<unsigned>(i), 1), va_gnt[u] ? 1u : 0u)
          << at << " VC grant of " << i;
      if (va_gnt[u]) {
        ++grants;
        for (const Branch& b : branches[u]) {
          const auto bit = static_cast<unsigned>(i * kBr + b.slot);
          EXPECT_EQ(static_cast<int>(get(rtl->va_port_o, bit * kPortW, kPortW)), b.out_port)
              << at << " input VC " << i << " slot " << b.slot;
          EXPECT_EQ(static_cast<int>(get(rtl->va_vc_o, bit * kVcIdxW, kVcIdxW)), b.out_vc)
              << at << " input VC " << i << " slot " << b.slot;
        }
      }
      EXPECT_EQ(get(rtl->sa_gnt_o, static_cast<unsigned>(i * kBr), kBr), sa_gnt[u])
          << at << " switch grant of " << i;
      if (sa_gnt[u] != 0) {
        ++stats.sa_grants;
        std::uint64_t wanted = 0;
        for (int b = 0; b < kBr; ++b)
          if (live[u][static_cast<std::size_t>(b)]) wanted |= std::uint64_t{1} << b;
        if (sa_gnt[u] != wanted) ++stats.sa_partial;
      } else if (sync && !sa_requests.empty()) {
        for (int r : sa_requests)
          if (r == i) ++stats.sa_refused_sync;
      }
    }
    for (int o = 0; o < kOutVc; ++o)
      EXPECT_EQ(get(rtl->va_taken_o, static_cast<unsigned>(o), 1),
                taken[static_cast<std::size_t>(o)] && !held[static_cast<std::size_t>(o)] ? 1u : 0u)
          << at << " output VC " << o;
    EXPECT_EQ(std::uint64_t{rtl->in_taken_o}, taken_in) << at;
    EXPECT_EQ(std::uint64_t{rtl->out_taken_o}, taken_out) << at;
    if (::testing::Test::HasFailure()) return false;
    stats.va_grants += grants;
    if (grants > 1) ++stats.va_multi;
    if (refused_partial > 0) ++stats.va_refused_partial;
    for (std::size_t a = 0; a < sa_requests.size(); ++a)
      for (std::size_t b = a + 1; b < sa_requests.size(); ++b)
        if (sa_requests[a] / kVcs == sa_requests[b] / kVcs &&
            sa_gnt[static_cast<std::size_t>(sa_requests[a])] != 0 &&
            sa_gnt[static_cast<std::size_t>(sa_requests[b])] == 0)
          ++stats.sa_skipped_port;
    rtl.tick();  // both pointers move (the C++ ones moved in the calls above)
    if (rtl.error()) {
      ADD_FAILURE() << at << ": RTL assertion";
      return false;
    }
  }
  return true;
}

TEST(RtlReplicaAlloc, AsynchronousReplicationMatchesCpp) {
  Stats s;
  ASSERT_TRUE(run(false, 20000, 1, s));
  EXPECT_GT(s.va_grants, 0);
  EXPECT_GT(s.va_multi, 0);
  EXPECT_GT(s.va_refused_partial, 0);
  EXPECT_GT(s.sa_partial, 0);
  EXPECT_GT(s.sa_skipped_port, 0);
}

TEST(RtlReplicaAlloc, SynchronousReplicationMatchesCpp) {
  Stats s;
  ASSERT_TRUE(run(true, 20000, 2, s));
  EXPECT_GT(s.va_grants, 0);
  EXPECT_GT(s.sa_grants, 0);
  EXPECT_GT(s.sa_refused_sync, 0);
  EXPECT_EQ(s.sa_partial, 0);  // all live branches or none
}

}  // namespace
}  // namespace wormsim
