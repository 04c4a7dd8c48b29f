// The flit-log comparator (systemc/observe/flit_event_log.h): logs are multisets compared cycle by
// cycle, so an event missing on one side counts once and does not shift the rest, and the
// report names the first cycle that differs with each side's differing events.
#include <gtest/gtest.h>

#include "flit_event_log.h"

namespace wormsim::flit_event_log_test {
namespace {

std::vector<FlitEvent> stream(Cycle from, int count, NodeId router) {
  std::vector<FlitEvent> log;
  for (int i = 0; i < count; ++i) log.push_back({from + static_cast<Cycle>(i), router, 0, 1, 7, i});
  return log;
}

// canonical_order: by cycle, then router; a router's events of one cycle keep their order.
TEST(FlitEventLog, CanonicalOrderSortsByCycleAndRouterAndKeepsEachRoutersOrder) {
  std::vector<FlitEvent> log = {{5, 9, 1, 0, 40, 0}, {5, 2, 3, 0, 41, 0}, {5, 9, 0, 1, 42, 2},
                                {5, 2, 1, 0, 43, 1}, {6, 1, 0, 0, 44, 0}, {6, 0, 2, 0, 45, 0}};
  canonical_order(log);
  const std::vector<PacketId> packets = {41, 43, 40, 42, 45, 44};
  ASSERT_EQ(log.size(), packets.size());
  for (std::size_t i = 0; i < log.size(); ++i) EXPECT_EQ(log[i].packet, packets[i]) << i;
}

TEST(FlitEventLog, EqualLogsInAnyOrderMatch) {
  std::vector<FlitEvent> a = stream(10, 20, 3);
  std::vector<FlitEvent> b(a.rbegin(), a.rend());
  const FlitLogComparison r = compare_flit_logs(a, b, "a", "b");
  EXPECT_EQ(r.compared, 20u);
  EXPECT_EQ(r.mismatches, 0u);
  EXPECT_TRUE(r.first_mismatch.empty());
}

TEST(FlitEventLog, OneMissingEventCountsOnceAndNamesItsCycle) {
  std::vector<FlitEvent> a = stream(10, 20, 3);
  std::vector<FlitEvent> b = a;
  b.erase(b.begin() + 5);  // cycle 15
  const FlitLogComparison r = compare_flit_logs(a, b, "left", "right");
  EXPECT_EQ(r.mismatches, 1u);
  EXPECT_EQ(r.first_cycle, 15u);
  EXPECT_NE(r.first_mismatch.find("first differing cycle 15"), std::string::npos)
      << r.first_mismatch;
  EXPECT_NE(r.first_mismatch.find(
                "only in left (1 events):\n    cycle 15 router 3 port 0 vc 1 packet 7 flit 5"),
            std::string::npos)
      << r.first_mismatch;
  EXPECT_NE(r.first_mismatch.find("only in right (0 events)"), std::string::npos)
      << r.first_mismatch;
}

TEST(FlitEventLog, AStreamOneCycleLateDiffersAtItsFirstEventOnly) {
  const std::vector<FlitEvent> a = stream(10, 20, 3);
  const std::vector<FlitEvent> b = stream(11, 20, 3);
  const FlitLogComparison r = compare_flit_logs(a, b, "a", "b");
  // Every event of b is one cycle later with the same fields: all 40 are in one log only.
  EXPECT_EQ(r.mismatches, 40u);
  EXPECT_EQ(r.first_cycle, 10u);
}

TEST(FlitEventLog, DuplicatesAreCountedAsAMultiset) {
  std::vector<FlitEvent> a = stream(0, 3, 1);
  std::vector<FlitEvent> b = a;
  b.push_back(b.back());  // the same flit leaving twice
  const FlitLogDifference d = difference(a, b);
  EXPECT_TRUE(d.only_a.empty());
  ASSERT_EQ(d.only_b.size(), 1u);
  EXPECT_EQ(d.first_cycle(), 2u);
}

TEST(FlitEventLog, TheReportShowsAtMostTheLimitPerSide) {
  std::vector<FlitEvent> a;
  for (int r = 0; r < 20; ++r) a.push_back({4, static_cast<NodeId>(r), 0, 0, 1, 0});
  const FlitLogDifference d = difference(a, {});
  const std::string s = describe_first_cycle(d, "a", "b", 5);
  EXPECT_NE(s.find("only in a (20 events)"), std::string::npos) << s;
  EXPECT_NE(s.find("... 15 more"), std::string::npos) << s;
}

}  // namespace
}  // namespace wormsim::flit_event_log_test
