// Tests of the per-output-VC credit counter: starts full, consume/give, bounds, unlimited.
#include "credit_counter.h"

#include <stdexcept>

#include <gtest/gtest.h>

namespace wormsim::credit_counter_test {
namespace {

TEST(CreditCounter, StartsFull) {
  CreditCounter c(4);
  EXPECT_FALSE(c.unlimited());
  EXPECT_EQ(c.capacity(), 4);
  EXPECT_EQ(c.credits(), 4);
  EXPECT_TRUE(c.available());
  EXPECT_TRUE(c.all_returned());
}

TEST(CreditCounter, ConsumeAndGive) {
  CreditCounter c(3);
  c.consume();
  EXPECT_EQ(c.credits(), 2);
  EXPECT_FALSE(c.all_returned());
  EXPECT_TRUE(c.available());
  c.consume();
  c.consume();
  EXPECT_EQ(c.credits(), 0);
  EXPECT_FALSE(c.available());
  EXPECT_FALSE(c.all_returned());
  c.give();
  EXPECT_EQ(c.credits(), 1);
  EXPECT_TRUE(c.available());
  c.give();
  c.give();
  EXPECT_EQ(c.credits(), 3);
  EXPECT_TRUE(c.all_returned());
}

TEST(CreditCounter, UnderflowThrows) {
  CreditCounter c(1);
  c.consume();
  EXPECT_THROW(c.consume(), std::logic_error);
  EXPECT_EQ(c.credits(), 0);
}

TEST(CreditCounter, OverflowThrows) {
  CreditCounter c(2);
  EXPECT_THROW(c.give(), std::logic_error);
  EXPECT_EQ(c.credits(), 2);
  c.consume();
  c.give();
  EXPECT_THROW(c.give(), std::logic_error);
  EXPECT_EQ(c.credits(), 2);
}

TEST(CreditCounter, UnlimitedNeverBlocks) {
  CreditCounter c;  // default is unlimited
  EXPECT_TRUE(c.unlimited());
  EXPECT_EQ(c.capacity(), CreditCounter::kUnlimited);
  for (int i = 0; i < 10000; ++i) {
    ASSERT_TRUE(c.available());
    c.consume();
  }
  EXPECT_TRUE(c.available());
  EXPECT_TRUE(c.all_returned());
  for (int i = 0; i < 20000; ++i) EXPECT_NO_THROW(c.give());
  EXPECT_TRUE(c.available());
  EXPECT_TRUE(c.all_returned());
}

TEST(CreditCounter, AllReturnedOnlyWhenFull) {
  CreditCounter c(5);
  for (int used = 1; used <= 5; ++used) {
    c.consume();
    EXPECT_FALSE(c.all_returned()) << used;
  }
  for (int back = 1; back <= 5; ++back) {
    c.give();
    EXPECT_EQ(c.all_returned(), back == 5) << back;
  }
}

}  // namespace
}  // namespace wormsim::credit_counter_test
