// Block-level test of rtl/wormsim_credit_counter.sv (Verilated with W = 9) against the C++
// CreditCounter (systemc/router/credit_counter.h): credits (count_o) and availability (avail_o) over
// random give/take for many capacities and for an unlimited counter; a credit arriving this
// cycle can be spent this cycle; the underflow and overflow assertions.
#include <cstdint>
#include <random>

#include <gtest/gtest.h>

#include "Vwormsim_credit_counter.h"
#include "credit_counter.h"
#include "rtl_block_harness.h"

namespace wormsim {
namespace {

using Counter = rtl_test::ClockedBlock<Vwormsim_credit_counter>;

void configure(Counter& rtl, int cap, bool unlimited) {
  rtl->cap_i = static_cast<std::uint16_t>(cap);
  rtl->unlimited_i = unlimited;
  rtl->give_i = 0;
  rtl->take_i = 0;
  rtl.eval();
}

// Per cycle: the credits at the start of the cycle are count_o; a returning credit (give) is
// counted before availability is decided, as the C++ router applies arriving credits before
// allocation; a flit is sent (take) only when a credit is available.
TEST(RtlCreditCounter, RandomGiveTakeMatchesCreditCounter) {
  std::mt19937_64 rng(17);
  Counter rtl;
  long takes = 0;
  long gives = 0;
  for (int cap : {1, 2, 3, 4, 5, 8, 16, 255, 511}) {
    for (int run = 0; run < 6; ++run) {
      rtl.reset();
      configure(rtl, cap, false);
      CreditCounter cpp(cap);
      std::bernoulli_distribution give_p(std::uniform_real_distribution<double>(0.1, 0.9)(rng));
      std::bernoulli_distribution take_p(std::uniform_real_distribution<double>(0.1, 0.9)(rng));
      for (int t = 0; t < 1500; ++t) {
        ASSERT_EQ(static_cast<int>(rtl->count_o), cpp.credits()) << "cap " << cap << " t " << t;
        const bool give = cpp.credits() < cap && give_p(rng);
        rtl->give_i = give;
        rtl->take_i = 0;
        rtl.eval();
        if (give) {
          cpp.give();
          ++gives;
        }
        ASSERT_EQ(rtl->avail_o != 0, cpp.available()) << "cap " << cap << " t " << t;
        const bool take = cpp.available() && take_p(rng);
        if (take) {
          cpp.consume();
          ++takes;
        }
        rtl->take_i = take;
        rtl.tick();
        ASSERT_FALSE(rtl.error()) << "assertion failed, cap " << cap << " t " << t;
      }
    }
  }
  EXPECT_GT(takes, 10000);
  EXPECT_GT(gives, 10000);
}

// An unlimited counter always has a credit, reports its cap as count and ignores give/take.
TEST(RtlCreditCounter, UnlimitedAlwaysAvailable) {
  std::mt19937_64 rng(2);
  Counter rtl;
  configure(rtl, 3, true);
  CreditCounter cpp(CreditCounter::kUnlimited);
  for (int t = 0; t < 2000; ++t) {
    const bool give = (rng() & 1u) != 0;
    const bool take = (rng() & 2u) != 0;
    rtl->give_i = give;
    rtl->take_i = take;
    rtl.eval();
    if (give) cpp.give();
    ASSERT_EQ(rtl->avail_o != 0, cpp.available()) << "t " << t;
    ASSERT_EQ(rtl->count_o, 3) << "t " << t;
    if (take) cpp.consume();
    rtl.tick();
    ASSERT_FALSE(rtl.error()) << "t " << t;
  }
  // Back to limited: the counter starts full whatever happened while unlimited.
  rtl->unlimited_i = 0;
  rtl->give_i = 0;
  rtl->take_i = 0;
  rtl.eval();
  EXPECT_EQ(rtl->count_o, 3);
  EXPECT_TRUE(rtl->avail_o);
}

TEST(RtlCreditCounter, CreditArrivingThisCycleCanBeSpent) {
  Counter rtl;
  configure(rtl, 1, false);
  rtl->take_i = 1;
  rtl.tick();  // the only credit is gone
  rtl->take_i = 0;
  rtl.eval();
  ASSERT_EQ(rtl->count_o, 0);
  EXPECT_FALSE(rtl->avail_o);
  rtl->give_i = 1;  // the credit comes back this cycle ...
  rtl.eval();
  EXPECT_TRUE(rtl->avail_o);
  rtl->take_i = 1;  // ... and is spent in it
  rtl.tick();
  EXPECT_FALSE(rtl.error());
  rtl->give_i = 0;
  rtl->take_i = 0;
  rtl.eval();
  EXPECT_EQ(rtl->count_o, 0);
  EXPECT_FALSE(rtl->avail_o);
}

TEST(RtlCreditCounter, UnderflowFiresAssertion) {
  Counter rtl;
  configure(rtl, 2, false);
  rtl->take_i = 1;
  rtl.tick();
  rtl.tick();
  ASSERT_FALSE(rtl.error());
  rtl.eval();
  ASSERT_FALSE(rtl->avail_o);
  rtl.tick();  // a third flit with no credit
  EXPECT_TRUE(rtl.error());
}

TEST(RtlCreditCounter, OverflowFiresAssertion) {
  Counter rtl;
  configure(rtl, 2, false);
  rtl->take_i = 1;
  rtl.tick();
  rtl->take_i = 0;
  rtl->give_i = 1;
  rtl.tick();  // the credit returns: full again
  ASSERT_FALSE(rtl.error());
  rtl.eval();
  ASSERT_EQ(rtl->count_o, 2);
  rtl.tick();  // one credit too many
  EXPECT_TRUE(rtl.error());
}

}  // namespace
}  // namespace wormsim
