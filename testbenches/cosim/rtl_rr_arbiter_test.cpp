// Block-level test of rtl/wormsim_rr_arbiter.sv (Verilated with N = 5) against the C++
// RoundRobinArbiter (systemc/router/round_robin_arbiter.h): the same pick for every request mask
// over random request/update sequences (both pick forms of the C++ class), the fairness
// contract when every grant is recorded, and the out-of-range update assertion.
#include <cstdint>
#include <random>

#include <gtest/gtest.h>

#include "Vwormsim_rr_arbiter.h"
#include "round_robin_arbiter.h"
#include "rtl_block_harness.h"

namespace wormsim {
namespace {

constexpr int kN = 5;  // rtl/CMakeLists.txt: wormsim_rr_arbiter N=5
using Arbiter = rtl_test::ClockedBlock<Vwormsim_rr_arbiter>;

TEST(RtlRrArbiter, PickMatchesCppOverRandomSequences) {
  Arbiter rtl;
  std::mt19937_64 rng(11);
  int compared = 0;
  int granted = 0;
  for (int seq = 0; seq < 2000; ++seq) {
    rtl.reset();
    RoundRobinArbiter cpp(kN);
    // Each sequence has its own request density and update habit.
    std::bernoulli_distribution req_bit(std::uniform_real_distribution<double>(0.05, 0.95)(rng));
    std::bernoulli_distribution do_update(std::uniform_real_distribution<double>(0.2, 1.0)(rng));
    std::bernoulli_distribution winner_update(0.7);  // else: some other index (separable alloc)
    for (int cycle = 0; cycle < 40; ++cycle) {
      std::uint32_t req = 0;
      for (int i = 0; i < kN; ++i)
        if (req_bit(rng)) req |= 1u << i;
      rtl->req_i = static_cast<std::uint8_t>(req);
      rtl.eval();
      const int expected = cpp.pick([&](int i) { return ((req >> i) & 1u) != 0; });
      ASSERT_EQ(cpp.pick_mask(req), expected);
      ASSERT_EQ(rtl->gnt_valid_o != 0, expected >= 0)
          << "seq " << seq << " cycle " << cycle << " req " << req << " ptr " << cpp.pointer();
      if (expected >= 0) {
        ASSERT_EQ(static_cast<int>(rtl->gnt_idx_o), expected)
            << "seq " << seq << " cycle " << cycle << " req " << req << " ptr " << cpp.pointer();
        ++granted;
      }
      ++compared;
      rtl->upd_i = 0;
      if (do_update(rng)) {
        const int idx = expected >= 0 && winner_update(rng)
                            ? expected
                            : std::uniform_int_distribution<int>(0, kN - 1)(rng);
        rtl->upd_i = 1;
        rtl->upd_idx_i = static_cast<std::uint8_t>(idx);
        cpp.update(idx);
      }
      rtl.tick();
      ASSERT_FALSE(rtl.error()) << "assertion failed, seq " << seq << " cycle " << cycle;
    }
  }
  EXPECT_EQ(compared, 2000 * 40);
  EXPECT_GT(granted, compared / 2);
}

// Every grant is recorded (a single-stage arbiter): a requester that keeps requesting is
// granted within N grants, whatever the others do.
TEST(RtlRrArbiter, PersistentRequesterGrantedWithinNGrants) {
  Arbiter rtl;
  std::mt19937_64 rng(5);
  for (int target = 0; target < kN; ++target) {
    for (int run = 0; run < 50; ++run) {
      rtl.reset();
      std::bernoulli_distribution other(std::uniform_real_distribution<double>(0.3, 1.0)(rng));
      int since_target = 0;  // grants to others since the target's last grant
      int target_grants = 0;
      for (int cycle = 0; cycle < 200; ++cycle) {
        std::uint32_t req = 1u << target;
        for (int i = 0; i < kN; ++i)
          if (i != target && other(rng)) req |= 1u << i;
        rtl->req_i = static_cast<std::uint8_t>(req);
        rtl.eval();
        ASSERT_TRUE(rtl->gnt_valid_o);
        const int g = rtl->gnt_idx_o;
        ASSERT_TRUE((req >> g) & 1u) << "granted a non-requester " << g;
        if (g == target) {
          ++target_grants;
          since_target = 0;
        } else {
          ++since_target;
          ASSERT_LT(since_target, kN)
              << "target " << target << " waited " << since_target << " grants at cycle " << cycle;
        }
        rtl->upd_i = 1;
        rtl->upd_idx_i = static_cast<std::uint8_t>(g);
        rtl.tick();
        ASSERT_FALSE(rtl.error());
      }
      EXPECT_GE(target_grants, 200 / kN);
    }
  }
}

TEST(RtlRrArbiter, OutOfRangeUpdateFiresAssertion) {
  Arbiter rtl;
  rtl->req_i = 0x1f;
  rtl->upd_i = 1;
  rtl->upd_idx_i = kN - 1;  // the last valid index
  rtl.tick();
  ASSERT_FALSE(rtl.error());
  rtl->upd_idx_i = kN;  // one past
  rtl.tick();
  EXPECT_TRUE(rtl.error());
}

}  // namespace
}  // namespace wormsim
