// Tests of the activity calendar: take() returns the sorted, unique components of a cycle;
// next_cycle() finds the earliest; far events (beyond the 1024-cycle wheel) come back on time.
#include "activity_calendar.h"

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

namespace wormsim::activity_calendar_test {
namespace {

// Parameter: the component count given to the constructor. 0 disables the per-component
// duplicate stamp; a count covering every component id used enables it. Both must behave
// identically.
class ActivityCalendarTest : public ::testing::TestWithParam<int> {};

// take() returns each component of the cycle once, in a deterministic but unspecified order
// (activity_calendar.h); the tests compare the sorted list and check for duplicates.
std::vector<int> take_sorted(ActivityCalendar& cal, Cycle now) {
  std::vector<int> out{-1, -2};  // stale contents must be replaced
  cal.take(now, out);
  std::vector<int> sorted = out;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end())
      << "duplicate component taken in cycle " << now;
  return sorted;
}

TEST_P(ActivityCalendarTest, EmptyCalendar) {
  ActivityCalendar cal(GetParam());
  EXPECT_EQ(cal.next_cycle(0), ActivityCalendar::kNever);
  std::vector<int> out{1, 2, 3};
  cal.take(0, out);
  EXPECT_TRUE(out.empty());
}

TEST_P(ActivityCalendarTest, TakeReturnsUniqueComponents) {
  ActivityCalendar cal(GetParam());
  cal.wake(7, 5);
  cal.wake(3, 5);
  cal.wake(7, 5);
  cal.wake(1, 5);
  cal.wake(3, 5);
  cal.wake(9, 6);
  std::vector<int> out;
  cal.take(0, out);
  EXPECT_TRUE(out.empty());
  EXPECT_EQ(cal.next_cycle(0), 5u);
  EXPECT_EQ(take_sorted(cal, 5), (std::vector<int>{1, 3, 7}));
  EXPECT_EQ(cal.next_cycle(5), 6u);
  EXPECT_EQ(take_sorted(cal, 6), (std::vector<int>{9}));
  EXPECT_EQ(cal.next_cycle(6), ActivityCalendar::kNever);
}

TEST_P(ActivityCalendarTest, TakeClearsTheSlot) {
  ActivityCalendar cal(GetParam());
  cal.wake(4, 2);
  std::vector<int> out;
  EXPECT_EQ(take_sorted(cal, 2), (std::vector<int>{4}));
  EXPECT_EQ(cal.next_cycle(2), ActivityCalendar::kNever);
  // The same wheel slot one revolution later holds nothing.
  cal.take(2 + 1024, out);
  EXPECT_TRUE(out.empty());
}

TEST_P(ActivityCalendarTest, NextCycleFindsEarliest) {
  ActivityCalendar cal(GetParam());
  cal.wake(1, 900);
  cal.wake(2, 40);
  cal.wake(3, 300);
  EXPECT_EQ(cal.next_cycle(0), 40u);
  EXPECT_EQ(cal.next_cycle(39), 40u);
  std::vector<int> out;
  EXPECT_EQ(take_sorted(cal, 40), (std::vector<int>{2}));
  EXPECT_EQ(cal.next_cycle(40), 300u);
  EXPECT_EQ(take_sorted(cal, 300), (std::vector<int>{3}));
  EXPECT_EQ(cal.next_cycle(300), 900u);
  EXPECT_EQ(take_sorted(cal, 900), (std::vector<int>{1}));
  EXPECT_EQ(cal.next_cycle(900), ActivityCalendar::kNever);
}

// visit_next() in a step of cycle c makes c + 1 a cycle to evaluate, with no component to step,
// before any later wake-up, and only once.
TEST_P(ActivityCalendarTest, VisitNextIsEvaluatedWithoutComponents) {
  ActivityCalendar cal(GetParam());
  cal.wake(2, 50);
  EXPECT_EQ(take_sorted(cal, 10), (std::vector<int>{}));
  cal.visit_next();
  EXPECT_EQ(cal.next_cycle(10), 11u);
  EXPECT_EQ(take_sorted(cal, 11), (std::vector<int>{}));
  EXPECT_EQ(cal.next_cycle(11), 50u);
  cal.visit_next();  // in cycle 11: visits 12
  cal.visit_next();
  EXPECT_EQ(cal.next_cycle(11), 12u);
  EXPECT_EQ(take_sorted(cal, 12), (std::vector<int>{}));
  EXPECT_EQ(cal.next_cycle(12), 50u);
  EXPECT_EQ(take_sorted(cal, 50), (std::vector<int>{2}));
  EXPECT_EQ(cal.next_cycle(50), ActivityCalendar::kNever);
}

TEST_P(ActivityCalendarTest, FarEventsComeBackAtTheRightCycle) {
  ActivityCalendar cal(GetParam());
  std::vector<int> out;
  cal.take(0, out);
  cal.wake(5, 1023);  // last wheel slot
  cal.wake(6, 1024);  // first far one
  cal.wake(7, 5000);
  cal.wake(8, 5000);
  cal.wake(9, 100000);
  cal.wake(10, 2048);  // same wheel slot as 1024 and 0
  EXPECT_EQ(cal.next_cycle(0), 1023u);
  EXPECT_EQ(take_sorted(cal, 1023), (std::vector<int>{5}));
  EXPECT_EQ(cal.next_cycle(1023), 1024u);
  EXPECT_EQ(take_sorted(cal, 1024), (std::vector<int>{6}));
  EXPECT_EQ(cal.next_cycle(1024), 2048u);
  EXPECT_EQ(take_sorted(cal, 2048), (std::vector<int>{10}));
  EXPECT_EQ(cal.next_cycle(2048), 5000u);
  EXPECT_EQ(take_sorted(cal, 5000), (std::vector<int>{7, 8}));
  EXPECT_EQ(cal.next_cycle(5000), 100000u);
  EXPECT_EQ(take_sorted(cal, 100000), (std::vector<int>{9}));
  EXPECT_EQ(cal.next_cycle(100000), ActivityCalendar::kNever);
}

// A far event whose wheel slot coincides with a near event must not be delivered early.
TEST_P(ActivityCalendarTest, FarEventSharingAWheelSlotIsNotEarly) {
  ActivityCalendar cal(GetParam());
  std::vector<int> out;
  cal.take(10, out);
  cal.wake(1, 20);
  cal.wake(2, 20 + 1024);
  cal.wake(3, 20 + 3 * 1024);
  EXPECT_EQ(take_sorted(cal, 20), (std::vector<int>{1}));
  EXPECT_EQ(cal.next_cycle(20), 20u + 1024u);
  EXPECT_EQ(take_sorted(cal, 20 + 1024), (std::vector<int>{2}));
  EXPECT_EQ(cal.next_cycle(20 + 1024), 20u + 3 * 1024u);
  EXPECT_EQ(take_sorted(cal, 20 + 3 * 1024), (std::vector<int>{3}));
}

TEST_P(ActivityCalendarTest, WakeInThePastThrows) {
  ActivityCalendar cal(GetParam());
  std::vector<int> out;
  cal.take(100, out);
  EXPECT_THROW(cal.wake(1, 99), std::logic_error);
  EXPECT_THROW(cal.wake(1, 0), std::logic_error);
  EXPECT_NO_THROW(cal.wake(1, 101));
}

TEST_P(ActivityCalendarTest, TimeGoingBackwardsThrows) {
  ActivityCalendar cal(GetParam());
  std::vector<int> out;
  cal.take(50, out);
  EXPECT_THROW(cal.take(49, out), std::logic_error);
}

// Random schedule checked against a std::map reference, driving the calendar the way the
// simulator does (next_cycle, then take, waking components from inside each cycle).
TEST_P(ActivityCalendarTest, RandomScheduleMatchesReference) {
  ActivityCalendar cal(GetParam());
  std::map<Cycle, std::set<int>> ref;
  std::mt19937_64 rng(12345);
  std::uniform_int_distribution<int> comp(0, 50);
  std::uniform_int_distribution<int> kind(0, 9);
  std::uniform_int_distribution<Cycle> near_delay(1, 1023);
  std::uniform_int_distribution<Cycle> far_delay(1024, 20000);
  auto schedule = [&](Cycle now) {
    const int count = kind(rng) % 4;
    for (int i = 0; i < count; ++i) {
      const Cycle at = now + (kind(rng) < 7 ? near_delay(rng) : far_delay(rng));
      const int c = comp(rng);
      cal.wake(c, at);
      if (kind(rng) < 3) cal.wake(c, at);   // duplicate wake-up
      if (kind(rng) < 2 && at > now + 1) {  // the same component one cycle earlier, after
        cal.wake(c, at - 1);                // the later one: stamps must not drop it
        ref[at - 1].insert(c);
        cal.wake(c, at);  // and the later one again
      }
      ref[at].insert(c);
    }
  };
  Cycle now = 0;
  std::vector<int> out;
  cal.take(now, out);
  for (int i = 0; i < 20; ++i) schedule(now);
  int steps = 0;
  while (!ref.empty() && steps < 5000) {
    const Cycle expected = ref.begin()->first;
    ASSERT_EQ(cal.next_cycle(now), expected);
    now = expected;
    const std::vector<int> want(ref.begin()->second.begin(), ref.begin()->second.end());
    ASSERT_EQ(take_sorted(cal, now), want) << "cycle " << now;
    ref.erase(ref.begin());
    if (steps < 3000) schedule(now);
    ++steps;
  }
  EXPECT_TRUE(ref.empty());
  EXPECT_EQ(cal.next_cycle(now), ActivityCalendar::kNever);
}

// Wake-ups made before the first take() are relative to cycle 0: one exactly 1024 cycles
// ahead must not land in the slot taken at cycle 0.
TEST_P(ActivityCalendarTest, WakeBeforeFirstTake) {
  ActivityCalendar cal(GetParam());
  cal.wake(1, 0);
  cal.wake(2, 1024);
  cal.wake(3, 1023);
  std::vector<int> out;
  EXPECT_EQ(cal.next_cycle(0), 1023u);
  EXPECT_EQ(take_sorted(cal, 0), (std::vector<int>{1}));
  EXPECT_EQ(cal.next_cycle(0), 1023u);
  EXPECT_EQ(take_sorted(cal, 1023), (std::vector<int>{3}));
  EXPECT_EQ(cal.next_cycle(1023), 1024u);
  EXPECT_EQ(take_sorted(cal, 1024), (std::vector<int>{2}));
}

// Repeated and interleaved wake-ups of one component: exactly once per scheduled cycle.
TEST_P(ActivityCalendarTest, RepeatedWakeUpsOfOneComponent) {
  ActivityCalendar cal(GetParam());
  std::vector<int> out;
  cal.take(0, out);
  cal.wake(4, 5);
  cal.wake(4, 6);
  cal.wake(4, 5);  // back to an earlier cycle after another one
  cal.wake(4, 5);
  cal.wake(2, 5);
  cal.wake(4, 6);
  EXPECT_EQ(take_sorted(cal, 5), (std::vector<int>{2, 4}));
  EXPECT_EQ(cal.next_cycle(5), 6u);
  EXPECT_EQ(take_sorted(cal, 6), (std::vector<int>{4}));
  // After its cycle was taken, a component can be woken again for a later cycle.
  cal.wake(4, 7);
  EXPECT_EQ(cal.next_cycle(6), 7u);
  EXPECT_EQ(take_sorted(cal, 7), (std::vector<int>{4}));
  EXPECT_EQ(cal.next_cycle(7), ActivityCalendar::kNever);
}

// A far wake-up moved into the wheel and a near wake-up for the same cycle give one entry;
// a near one for a different cycle is kept.
TEST_P(ActivityCalendarTest, FarAndNearWakeUpsOfOneComponent) {
  ActivityCalendar cal(GetParam());
  std::vector<int> out;
  cal.take(0, out);
  cal.wake(3, 2000);  // far
  cal.wake(1, 1000);
  cal.take(1000, out);  // moves the far event into the wheel
  EXPECT_EQ(out, (std::vector<int>{1}));
  cal.wake(3, 2000);  // near now, same cycle
  cal.wake(3, 1500);
  EXPECT_EQ(cal.next_cycle(1000), 1500u);
  EXPECT_EQ(take_sorted(cal, 1500), (std::vector<int>{3}));
  EXPECT_EQ(cal.next_cycle(1500), 2000u);
  EXPECT_EQ(take_sorted(cal, 2000), (std::vector<int>{3}));
  EXPECT_EQ(cal.next_cycle(2000), ActivityCalendar::kNever);
}

// After a far event has moved into the wheel, the component can still be woken for the
// cycles just before and after it.
TEST_P(ActivityCalendarTest, WakeUpsAroundAMovedFarEvent) {
  ActivityCalendar cal(GetParam());
  std::vector<int> out;
  cal.take(0, out);
  cal.wake(5, 3000);    // far
  cal.wake(6, 2500);    // far
  cal.take(2500, out);  // moves 3000 into the wheel
  EXPECT_EQ(out, (std::vector<int>{6}));
  cal.wake(5, 3001);
  cal.wake(5, 2999);
  cal.wake(5, 3000);
  EXPECT_EQ(cal.next_cycle(2500), 2999u);
  EXPECT_EQ(take_sorted(cal, 2999), (std::vector<int>{5}));
  EXPECT_EQ(cal.next_cycle(2999), 3000u);
  EXPECT_EQ(take_sorted(cal, 3000), (std::vector<int>{5}));
  EXPECT_EQ(cal.next_cycle(3000), 3001u);
  EXPECT_EQ(take_sorted(cal, 3001), (std::vector<int>{5}));
  EXPECT_EQ(cal.next_cycle(3001), ActivityCalendar::kNever);
}

// The order of take() is unspecified but deterministic: the same calls give the same order.
TEST_P(ActivityCalendarTest, TakeOrderIsDeterministic) {
  ActivityCalendar a(GetParam());
  ActivityCalendar b(GetParam());
  std::vector<int> out_a;
  std::vector<int> out_b;
  for (ActivityCalendar* cal : {&a, &b}) {
    for (int c : {9, 3, 40, 3, 17, 0, 9, 22}) cal->wake(c, 12);
    cal->wake(5, 3000);
  }
  a.take(12, out_a);
  b.take(12, out_b);
  EXPECT_EQ(out_a, out_b);
  EXPECT_EQ(out_a.size(), 6u);
  a.take(3000, out_a);
  b.take(3000, out_b);
  EXPECT_EQ(out_a, (std::vector<int>{5}));
  EXPECT_EQ(out_b, (std::vector<int>{5}));
}

// wake_next(c) in a step of cycle `now` is wake(c, now + 1): the same components in the same
// take() order, with duplicates dropped the same way, mixed with wake() calls, over cycles that
// reuse the wheel's slots.
TEST(ActivityCalendar, WakeNextIsWakeForTheNextCycle) {
  ActivityCalendar a(64);
  ActivityCalendar b(64);
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> comp(0, 63);
  std::uniform_int_distribution<int> kind(0, 9);
  std::vector<int> out_a;
  std::vector<int> out_b;
  std::size_t taken = 0;
  for (Cycle now = 0; now < 3000; ++now) {
    a.take(now, out_a);
    b.take(now, out_b);
    ASSERT_EQ(out_a, out_b) << "cycle " << now;
    taken += out_a.size();
    for (int i = 0; i < 12; ++i) {
      const int c = comp(rng);
      if (kind(rng) < 7) {
        a.wake(c, now + 1);
        b.wake_next(c);
      } else {
        const Cycle at = now + 2 + static_cast<Cycle>(kind(rng));
        a.wake(c, at);
        b.wake(c, at);
      }
    }
  }
  EXPECT_GT(taken, 20000u);  // most cycles had components to compare
  EXPECT_EQ(a.next_cycle(2999), b.next_cycle(2999));
}

TEST(ActivityCalendar, UnknownComponentThrowsWhenCountGiven) {
  ActivityCalendar cal(8);
  EXPECT_NO_THROW(cal.wake(7, 1));
  EXPECT_THROW(cal.wake(8, 1), std::logic_error);
  EXPECT_THROW(cal.wake(8, 5000), std::logic_error);
}

INSTANTIATE_TEST_SUITE_P(Stamps, ActivityCalendarTest, ::testing::Values(0, 64),
                         ::testing::PrintToStringParamName());

}  // namespace
}  // namespace wormsim::activity_calendar_test
