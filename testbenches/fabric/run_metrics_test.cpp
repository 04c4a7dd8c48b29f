// Whole-network checks of the synthetic-run metrics (observe/statistics.h, the routers'
// blocked flit-cycle counts of Router::count_blocking): header flits, consumption-channel occupancy, per-class samples and
// blocked flit-cycles, on scripted packets in an otherwise idle 8x8 mesh whose answers follow
// from the zero-load contract (a worm's flits reach each destination NI on consecutive cycles)
// and from header_flits() worked out by hand (64 nodes: 6-bit addresses, 8-byte flits hold 10).
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "network_test_util.h"

namespace wormsim::run_metrics_test {
namespace {

Config idle_mesh() {
  Config c = testing::mesh_config({8, 8});
  c.simulation.warmup_cycles = 0;
  c.simulation.measure_cycles = 1000;
  return c;
}

testing::RunOptions scripted() {
  testing::RunOptions o;
  o.synthetic_traffic = false;
  return o;
}

TEST(RunMetrics, OneUnicastPacketOnAnIdleNetwork) {
  auto net = testing::run(idle_mesh(), scripted(),
                          [](SyntheticNetwork& nw) { nw.schedule_packet(0, 1, 5, 10); });
  const Statistics& st = net->stats();
  ASSERT_EQ(net->outcome(), RunOutcome::kCompleted);
  EXPECT_EQ(st.header_flits_injected(), 1u);
  EXPECT_EQ(st.flits_injected(), 5u);
  const std::vector<Cycle> busy = st.consumption_busy();
  ASSERT_EQ(busy.size(), 64u);  // one-port: one consumption channel per node
  EXPECT_EQ(busy[1], 5u);
  EXPECT_EQ(std::accumulate(busy.begin(), busy.end(), Cycle{0}), 5u);
  EXPECT_EQ(st.by_class(TrafficClass::kUnicast).blocked_flit_cycles, 0u);
  EXPECT_EQ(st.by_class(TrafficClass::kUnicast).latency.size(), 1u);
  EXPECT_EQ(st.by_class(TrafficClass::kMultidest).latency.size(), 0u);
}

// A path worm to 11 destinations along row 0 and up column 7 (XY-conformed): 66 address bits,
// 2 header flits, so 4 payload flits travel as 5; with a 5-flit unicast: 1 + 2 header flits of
// 10 injected.
TEST(RunMetrics, HeaderFlitsAndOneWormSample) {
  Config c = idle_mesh();
  c.network.router.multidest = MultidestMode::kPath;
  const std::vector<NodeId> dests{1, 2, 3, 4, 5, 6, 7, 15, 23, 31, 39};
  auto net = testing::run(c, scripted(), [&](SyntheticNetwork& nw) {
    nw.schedule_multicast(0, dests, 4, 10);
    nw.schedule_packet(63, 56, 5, 10);
  });
  const Statistics& st = net->stats();
  ASSERT_EQ(net->outcome(), RunOutcome::kCompleted);
  EXPECT_EQ(st.header_flits_injected(), 3u);
  EXPECT_EQ(st.flits_injected(), 10u);
  const ClassStats& m = st.by_class(TrafficClass::kMultidest);
  EXPECT_EQ(m.created, 1u);
  EXPECT_EQ(m.completed, 1u);
  ASSERT_EQ(m.latency.size(), 1u);
  // The worm's sample is its last delivery: the largest of its 11 run-wide samples (the
  // unicast's 7-hop trip is shorter than the worm's 11 hops).
  const std::vector<std::uint32_t>& all = st.latencies();
  ASSERT_EQ(all.size(), 12u);
  EXPECT_EQ(m.latency.front(), *std::max_element(all.begin(), all.end()));
  EXPECT_EQ(st.by_class(TrafficClass::kMultidest).accepted_flits, 11u * 5u);
  EXPECT_EQ(st.by_class(TrafficClass::kUnicast).accepted_flits, 5u);
  const std::vector<Cycle> busy = st.consumption_busy();
  for (NodeId d : dests) EXPECT_EQ(busy[d], 5u) << "node " << d;
  EXPECT_EQ(busy[56], 5u);
  EXPECT_EQ(busy[0], 0u);
}

TEST(RunMetrics, NoBlockingAlone) {
  Config c = idle_mesh();
  c.network.router.vcs = 1;
  auto alone =
      testing::run(c, scripted(), [](SyntheticNetwork& nw) { nw.schedule_packet(0, 1, 8, 10); });
  EXPECT_EQ(alone->stats().by_class(TrafficClass::kUnicast).blocked_flit_cycles, 0u);
}

// One VC per channel: two 8-flit packets from (0,0) and (2,0) reach (1,0)'s consumption
// channel in the same cycle; the loser waits for the winner's 8 flits to pass (at least 7
// cycles after its head was ready), the winner not at all.
TEST(RunMetrics, BlockedFlitCyclesOfTwoPacketsForOneChannel) {
  Config c = idle_mesh();
  c.network.router.vcs = 1;
  auto net = testing::run(c, scripted(), [](SyntheticNetwork& nw) {
    nw.schedule_packet(0, 1, 8, 10);
    nw.schedule_packet(2, 1, 8, 10);
  });
  const ClassStats& u = net->stats().by_class(TrafficClass::kUnicast);
  EXPECT_GE(u.blocked_flit_cycles, 7u);
  EXPECT_LE(u.blocked_flit_cycles, 8u + 4u);  // the 8 flits plus pipeline slack, not twice
  EXPECT_EQ(net->stats().by_class(TrafficClass::kMultidest).blocked_flit_cycles, 0u);
}

}  // namespace
}  // namespace wormsim::run_metrics_test
