// Tests of the fixed-latency pipe: visibility exactly at push cycle + latency, order,
// capacity of latency + 1 items.
#include "delay_line.h"

#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

namespace wormsim::delay_line_test {
namespace {

TEST(DelayLine, StartsEmpty) {
  DelayLine<int> d(3);
  EXPECT_EQ(d.latency(), 3);
  EXPECT_TRUE(d.empty());
  EXPECT_EQ(d.size(), 0);
  EXPECT_FALSE(d.ready(0));
  EXPECT_FALSE(d.ready(1000));
}

TEST(DelayLine, VisibleExactlyAfterLatency) {
  for (int latency = 1; latency <= 5; ++latency) {
    DelayLine<int> d(latency);
    const Cycle t = 17;
    EXPECT_EQ(d.push(t, 42), t + static_cast<Cycle>(latency));
    for (Cycle c = t; c < t + static_cast<Cycle>(latency); ++c)
      EXPECT_FALSE(d.ready(c)) << "latency " << latency << " cycle " << c;
    EXPECT_TRUE(d.ready(t + static_cast<Cycle>(latency)));
    EXPECT_TRUE(d.ready(t + static_cast<Cycle>(latency) + 3));  // stays until popped
    EXPECT_EQ(d.front(), 42);
    EXPECT_EQ(d.front_arrival(), t + static_cast<Cycle>(latency));
    d.pop();
    EXPECT_TRUE(d.empty());
    EXPECT_FALSE(d.ready(t + 100));
  }
}

// One item per cycle through a latency-L line: each appears exactly L cycles after its push,
// in push order, and the line never holds more than L + 1 items.
TEST(DelayLine, StreamingOneItemPerCycle) {
  const int latency = 3;
  DelayLine<int> d(latency);
  int next_out = 0;
  for (Cycle now = 0; now < 40; ++now) {
    // Receiver side first in this cycle (order must not matter; here pop before push).
    if (d.ready(now)) {
      EXPECT_EQ(d.front(), next_out);
      EXPECT_EQ(static_cast<Cycle>(d.front()) + static_cast<Cycle>(latency), now);
      d.pop();
      ++next_out;
    } else {
      EXPECT_LT(now, static_cast<Cycle>(latency));
    }
    d.push(now, static_cast<int>(now));
    EXPECT_LE(d.size(), latency + 1);
  }
  EXPECT_EQ(next_out, 40 - latency);
}

TEST(DelayLine, OrderAndAt) {
  DelayLine<int> d(2);
  d.push(10, 1);
  d.push(11, 2);
  d.push(12, 3);
  EXPECT_EQ(d.size(), 3);
  EXPECT_EQ(d.at(0), 1);
  EXPECT_EQ(d.at(1), 2);
  EXPECT_EQ(d.at(2), 3);
  EXPECT_FALSE(d.ready(11));
  EXPECT_TRUE(d.ready(12));
  EXPECT_EQ(d.front(), 1);
  d.pop();
  EXPECT_FALSE(d.ready(12));  // second item arrives at 13
  EXPECT_TRUE(d.ready(13));
  EXPECT_EQ(d.front(), 2);
  EXPECT_EQ(d.front_arrival(), 13u);
  d.pop();
  EXPECT_EQ(d.front(), 3);
  EXPECT_EQ(d.front_arrival(), 14u);
}

// Items pushed in the same cycle beyond capacity: latency + 1 fit, one more throws.
TEST(DelayLine, OverflowThrows) {
  for (int latency = 1; latency <= 4; ++latency) {
    DelayLine<int> d(latency);
    for (int i = 0; i < latency + 1; ++i) EXPECT_NO_THROW(d.push(5, i)) << latency;
    EXPECT_THROW(d.push(5, 99), std::logic_error) << latency;
    EXPECT_EQ(d.size(), latency + 1);
    // Contents intact and ordered.
    for (int i = 0; i < latency + 1; ++i) EXPECT_EQ(d.at(i), i);
    d.pop();
    EXPECT_NO_THROW(d.push(6, 100));
  }
}

// Irregular pushes (not every cycle) with the receiver popping every cycle: the ring's head
// wraps many times; arrival cycles and order must match the test's own bookkeeping.
TEST(DelayLine, WrapAroundIrregularTraffic) {
  const int latency = 2;
  DelayLine<int> d(latency);
  std::vector<Cycle> pushed_at;
  std::size_t out = 0;
  for (Cycle now = 0; now < 60; ++now) {
    while (d.ready(now)) {
      ASSERT_LT(out, pushed_at.size());
      EXPECT_EQ(d.front(), static_cast<int>(out));
      EXPECT_EQ(d.front_arrival(), pushed_at[out] + static_cast<Cycle>(latency));
      EXPECT_EQ(now, pushed_at[out] + static_cast<Cycle>(latency));  // popped on arrival
      d.pop();
      ++out;
    }
    if (now % 5 != 3) {
      d.push(now, static_cast<int>(pushed_at.size()));
      pushed_at.push_back(now);
    }
  }
  EXPECT_GT(out, 40u);
}

// Copies (and assignments) are independent lines with the same contents, for slots inside the
// object (latency 1) and on the heap (longer latencies).
TEST(DelayLine, CopiesAreIndependent) {
  for (int latency : {1, 3}) {
    DelayLine<int> a(latency);
    a.push(0, 10);
    DelayLine<int> b(a);
    DelayLine<int> c(7);
    c = a;
    const Cycle at = static_cast<Cycle>(latency);
    a.pop();
    a.push(1, 11);
    for (DelayLine<int>* copy : {&b, &c}) {
      ASSERT_EQ(copy->size(), 1) << "latency " << latency;
      EXPECT_EQ(copy->latency(), latency);
      EXPECT_TRUE(copy->ready(at));
      EXPECT_EQ(copy->front(), 10);
      copy->push(1, 20);
      copy->pop();
      EXPECT_EQ(copy->front(), 20);
      EXPECT_EQ(copy->front_arrival(), at + 1);
    }
    EXPECT_EQ(a.front(), 11);  // untouched by the copies' pushes
    EXPECT_EQ(a.size(), 1);
  }
}

}  // namespace
}  // namespace wormsim::delay_line_test
