// Tests of the run statistics: latency distributions (moments, quantiles, histogram) on
// samples whose answers are worked out by hand, the measurement window, per-node-cycle
// normalisation (including runs stopped early), the optional packet log, and the per-class
// statistics, header flits and consumption-channel occupancy on hand-made event sequences.
#include "statistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace wormsim::statistics_test {
namespace {

// ---- Distribution ---------------------------------------------------------------------------
void expect_histogram_consistent(const Distribution& d, const std::vector<std::uint32_t>& samples,
                                 std::size_t bins) {
  ASSERT_GE(d.bin_width, 1u);
  ASSERT_FALSE(d.histogram.empty());
  EXPECT_LE(d.histogram.size(), bins);
  EXPECT_EQ(std::accumulate(d.histogram.begin(), d.histogram.end(), std::uint64_t{0}), d.count);
  // The bins cover [min, max]: the last one reaches max, none starts beyond it.
  EXPECT_GT(d.min + d.histogram.size() * d.bin_width, d.max);
  EXPECT_LE(d.min + (d.histogram.size() - 1) * d.bin_width, d.max);
  // Bin i counts exactly the samples in [min + i*width, min + (i+1)*width).
  for (std::size_t i = 0; i < d.histogram.size(); ++i) {
    const std::uint64_t lo = d.min + i * d.bin_width;
    const std::uint64_t hi = lo + d.bin_width;
    const auto in_bin = std::count_if(samples.begin(), samples.end(),
                                      [&](std::uint32_t s) { return s >= lo && s < hi; });
    EXPECT_EQ(d.histogram[i], static_cast<std::uint64_t>(in_bin)) << "bin " << i;
  }
}

TEST(Distribution, EmptyInputIsAllZero) {
  const Distribution d = Distribution::of({});
  EXPECT_EQ(d.count, 0u);
  EXPECT_EQ(d.mean, 0.0);
  EXPECT_EQ(d.min, 0u);
  EXPECT_EQ(d.max, 0u);
  EXPECT_EQ(d.p50, 0u);
  EXPECT_EQ(d.p95, 0u);
  EXPECT_EQ(d.p99, 0u);
  EXPECT_TRUE(d.histogram.empty());
}

TEST(Distribution, OneToHundredShuffled) {
  std::vector<std::uint32_t> samples(100);
  std::iota(samples.begin(), samples.end(), 1u);
  std::mt19937 rng(7);
  std::shuffle(samples.begin(), samples.end(), rng);  // the input order must not matter
  const Distribution d = Distribution::of(samples);
  EXPECT_EQ(d.count, 100u);
  EXPECT_DOUBLE_EQ(d.mean, 50.5);  // 5050 / 100
  EXPECT_EQ(d.min, 1u);
  EXPECT_EQ(d.max, 100u);
  // Quantile q is the sorted sample at index round(q * (n - 1)), n = 100:
  // p50 -> round(49.5) = 50 -> 51; p95 -> round(94.05) = 94 -> 95; p99 -> round(98.01) = 98 -> 99.
  EXPECT_EQ(d.p50, 51u);
  EXPECT_EQ(d.p95, 95u);
  EXPECT_EQ(d.p99, 99u);
  // Span 100 in at most 32 bins: width ceil(100/32) = 4, 25 bins of 4 samples each.
  EXPECT_EQ(d.bin_width, 4u);
  EXPECT_EQ(d.histogram, std::vector<std::uint64_t>(25, 4));
  expect_histogram_consistent(d, samples, 32);
}

TEST(Distribution, SkewedSamples) {
  // Nine 10s and one 1000: the tail shows in max but not in the median.
  std::vector<std::uint32_t> samples(9, 10);
  samples.push_back(1000);
  const Distribution d = Distribution::of(samples);
  EXPECT_EQ(d.count, 10u);
  EXPECT_DOUBLE_EQ(d.mean, 109.0);  // (90 + 1000) / 10
  EXPECT_EQ(d.min, 10u);
  EXPECT_EQ(d.max, 1000u);
  // n = 10: p50 -> round(4.5) = 5 -> 10; p95 -> round(8.55) = 9 -> 1000; p99 -> round(8.91) = 9.
  EXPECT_EQ(d.p50, 10u);
  EXPECT_EQ(d.p95, 1000u);
  EXPECT_EQ(d.p99, 1000u);
  // Span 991: width ceil(991/32) = 31, 32 bins; 10 in bin 0, 1000 in bin 990/31 = 31.
  EXPECT_EQ(d.bin_width, 31u);
  ASSERT_EQ(d.histogram.size(), 32u);
  EXPECT_EQ(d.histogram.front(), 9u);
  EXPECT_EQ(d.histogram.back(), 1u);
  expect_histogram_consistent(d, samples, 32);
}

TEST(Distribution, EvenCountMedianAndSmallQuantiles) {
  const std::vector<std::uint32_t> samples{4, 1, 3, 2};
  const Distribution d = Distribution::of(samples);
  EXPECT_DOUBLE_EQ(d.mean, 2.5);
  // n = 4: p50 -> round(1.5) = 2 -> 3; p95 -> round(2.85) = 3 -> 4; p99 -> 4.
  EXPECT_EQ(d.p50, 3u);
  EXPECT_EQ(d.p95, 4u);
  EXPECT_EQ(d.p99, 4u);
  // Span 4 < 32 bins: one value per bin.
  EXPECT_EQ(d.bin_width, 1u);
  EXPECT_EQ(d.histogram, (std::vector<std::uint64_t>{1, 1, 1, 1}));
}

// Distribution::of counts samples by value when their span is small against their number and
// selects the quantiles with nth_element otherwise; both must give the sorted samples' elements
// at round(q * (n - 1)). The reference here sorts.
TEST(Distribution, CountingAndSelectionAgreeWithASortedReference) {
  std::mt19937 rng(11);
  auto uniform = [&](std::size_t n, std::uint32_t lo, std::uint32_t hi) {
    std::uniform_int_distribution<std::uint32_t> value(lo, hi);
    std::vector<std::uint32_t> s(n);
    for (std::uint32_t& x : s) x = value(rng);
    return s;
  };
  std::vector<std::uint32_t> clusters(64);  // most at 1-9, every 16th at 1,000,000
  for (std::size_t i = 0; i < clusters.size(); ++i)
    clusters[i] = i % 16 == 0 ? 1000000u : static_cast<std::uint32_t>(1 + i % 9);
  const std::vector<std::pair<const char*, std::vector<std::uint32_t>>> draws{
      {"10,000 samples over span 300 (counted)", uniform(10000, 100, 399)},
      {"1,000 samples over a 32-bit range (selected)", uniform(1000, 0, 4000000000u)},
      {"3 samples over span 5,001 (selected)", uniform(3, 0, 5000)},
      {"two clusters far apart (selected)", clusters}};
  for (const auto& [what, samples] : draws) {
    SCOPED_TRACE(what);
    std::vector<std::uint32_t> sorted = samples;
    std::sort(sorted.begin(), sorted.end());
    const auto at = [&](double q) {
      return std::uint64_t{sorted[static_cast<std::size_t>(
          std::llround(q * static_cast<double>(sorted.size() - 1)))]};
    };
    const Distribution d = Distribution::of(samples);
    EXPECT_EQ(d.count, samples.size());
    EXPECT_EQ(d.min, std::uint64_t{sorted.front()});
    EXPECT_EQ(d.max, std::uint64_t{sorted.back()});
    EXPECT_EQ(d.p50, at(0.50));
    EXPECT_EQ(d.p95, at(0.95));
    EXPECT_EQ(d.p99, at(0.99));
    expect_histogram_consistent(d, samples, 32);
  }
}

TEST(Distribution, SingleSampleAndRepeatedValue) {
  const Distribution one = Distribution::of({7});
  EXPECT_EQ(one.count, 1u);
  EXPECT_DOUBLE_EQ(one.mean, 7.0);
  EXPECT_EQ(one.min, 7u);
  EXPECT_EQ(one.max, 7u);
  EXPECT_EQ(one.p50, 7u);
  EXPECT_EQ(one.p99, 7u);
  EXPECT_EQ(one.histogram, std::vector<std::uint64_t>{1});

  const Distribution same = Distribution::of(std::vector<std::uint32_t>(5, 12));
  EXPECT_EQ(same.count, 5u);
  EXPECT_EQ(same.p95, 12u);
  EXPECT_EQ(same.histogram, std::vector<std::uint64_t>{5});
}

TEST(Distribution, ExplicitBinCount) {
  std::vector<std::uint32_t> samples;
  for (std::uint32_t v = 20; v < 50; ++v) samples.push_back(v);  // 30 values, span 30
  const Distribution d = Distribution::of(samples, 7);
  // Width ceil(30/7) = 5, 6 bins of 5.
  EXPECT_EQ(d.bin_width, 5u);
  EXPECT_EQ(d.histogram, std::vector<std::uint64_t>(6, 5));
  expect_histogram_consistent(d, samples, 7);

  const Distribution single_bin = Distribution::of(samples, 1);
  EXPECT_EQ(single_bin.bin_width, 30u);
  EXPECT_EQ(single_bin.histogram, std::vector<std::uint64_t>{30});
}

TEST(Distribution, FullRangeSamplesDoNotOverflow) {
  const std::vector<std::uint32_t> samples{0, 0xffffffffu, 0x80000000u};
  const Distribution d = Distribution::of(samples);
  EXPECT_EQ(d.min, 0u);
  EXPECT_EQ(d.max, 0xffffffffull);
  EXPECT_DOUBLE_EQ(d.mean, (0.0 + 4294967295.0 + 2147483648.0) / 3.0);
  EXPECT_EQ(d.p50, 0x80000000ull);
  // Span 2^32: width 2^27, 32 bins; 2^31 falls into bin 16.
  EXPECT_EQ(d.bin_width, 1ull << 27);
  ASSERT_EQ(d.histogram.size(), 32u);
  EXPECT_EQ(d.histogram[0], 1u);
  EXPECT_EQ(d.histogram[16], 1u);
  EXPECT_EQ(d.histogram[31], 1u);
  expect_histogram_consistent(d, samples, 32);
}

TEST(Distribution, RandomSamplesKeepTheInvariants) {
  std::mt19937 rng(12345);
  std::uniform_int_distribution<std::uint32_t> value(3, 5000);
  std::vector<std::uint32_t> samples(997);
  for (auto& s : samples) s = value(rng);
  const Distribution d = Distribution::of(samples);
  std::vector<std::uint32_t> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(d.min, sorted.front());
  EXPECT_EQ(d.max, sorted.back());
  // n = 997: index round(q * 996): p50 -> 498, p95 -> round(946.2) = 946, p99 -> round(986.04) = 986.
  EXPECT_EQ(d.p50, sorted[498]);
  EXPECT_EQ(d.p95, sorted[946]);
  EXPECT_EQ(d.p99, sorted[986]);
  double sum = 0;
  for (std::uint32_t s : samples) sum += s;
  EXPECT_NEAR(d.mean, sum / 997.0, 1e-9);
  EXPECT_LE(d.min, d.p50);
  EXPECT_LE(d.p50, d.p95);
  EXPECT_LE(d.p95, d.p99);
  EXPECT_LE(d.p99, d.max);
  expect_histogram_consistent(d, samples, 32);
}

// ---- Measurement window and normalisation ----------------------------------------------------
TEST(Statistics, MeasuringWindowIsHalfOpen) {
  const Statistics st(4, 100, 50);
  EXPECT_EQ(st.window_begin(), 100u);
  EXPECT_EQ(st.window_end(), 150u);
  EXPECT_FALSE(st.measuring(0));
  EXPECT_FALSE(st.measuring(99));
  EXPECT_TRUE(st.measuring(100));
  EXPECT_TRUE(st.measuring(149));
  EXPECT_FALSE(st.measuring(150));
  EXPECT_EQ(st.covered_cycles(), 50u);  // not stopped: the whole window

  const Statistics no_warmup(4, 0, 10);
  EXPECT_TRUE(no_warmup.measuring(0));
  EXPECT_TRUE(no_warmup.measuring(9));
  EXPECT_FALSE(no_warmup.measuring(10));
}

TEST(Statistics, OfferedAndAcceptedCountOnlyTheWindow) {
  Statistics st(4, 100, 50);
  st.on_created(5, 99);   // before the window
  st.on_created(5, 100);  // first cycle of the window
  st.on_created(3, 149);  // last cycle of the window
  st.on_created(7, 150);  // after it
  EXPECT_EQ(st.packets_created(), 4u);
  // 8 flits offered in the window over 4 nodes x 50 cycles.
  EXPECT_DOUBLE_EQ(st.offered_load(), 8.0 / 200.0);

  for (int i = 0; i < 9; ++i) st.on_flit_injected();
  for (Cycle c : {Cycle{50}, Cycle{99}, Cycle{100}, Cycle{120}, Cycle{149}, Cycle{150}})
    st.on_flit_ejected(c);
  EXPECT_EQ(st.flits_injected(), 9u);
  EXPECT_EQ(st.flits_ejected(), 6u);
  EXPECT_EQ(st.flits_in_flight(), 3u);
  // 3 of the 6 ejections are inside [100, 150).
  EXPECT_DOUBLE_EQ(st.accepted_throughput(), 3.0 / 200.0);
}

TEST(Statistics, RunStoppedInsideTheWindowNormalisesByTheCoveredPart) {
  Statistics st(8, 1000, 4000);  // window [1000, 5000)
  for (Cycle c = 990; c < 1250; ++c) {
    st.on_created(2, c);
    st.on_flit_ejected(c);
  }
  st.stop_at(1250);  // e.g. the watchdog fired in cycle 1249
  EXPECT_EQ(st.covered_cycles(), 250u);
  // In the window: cycles 1000..1249, 250 packets of 2 flits and 250 ejected flits.
  EXPECT_DOUBLE_EQ(st.offered_load(), 500.0 / (8.0 * 250.0));
  EXPECT_DOUBLE_EQ(st.accepted_throughput(), 250.0 / (8.0 * 250.0));
}

TEST(Statistics, CoveredCyclesAroundTheWindow) {
  Statistics st(2, 100, 50);
  st.stop_at(200);  // past the window: all of it
  EXPECT_EQ(st.covered_cycles(), 50u);
  st.stop_at(150);
  EXPECT_EQ(st.covered_cycles(), 50u);
  st.stop_at(149);
  EXPECT_EQ(st.covered_cycles(), 49u);
  st.stop_at(101);
  EXPECT_EQ(st.covered_cycles(), 1u);
  st.stop_at(100);
  EXPECT_EQ(st.covered_cycles(), 0u);
}

TEST(Statistics, RunStoppedBeforeTheWindowHasZeroThroughput) {
  Statistics st(4, 1000, 100);
  for (Cycle c = 0; c < 500; ++c) {
    st.on_created(4, c);
    st.on_flit_ejected(c);
  }
  st.stop_at(500);
  EXPECT_EQ(st.covered_cycles(), 0u);
  EXPECT_EQ(st.offered_load(), 0.0);  // not NaN or infinity
  EXPECT_EQ(st.accepted_throughput(), 0.0);
  EXPECT_EQ(st.packets_created(), 500u);
  EXPECT_EQ(st.flits_ejected(), 500u);
}

// ---- Deliveries and the packet log ------------------------------------------------------------
PacketRecord delivered_record(NodeId src, NodeId dst, Cycle created, Cycle injected,
                              bool measured) {
  PacketRecord r;
  r.src = src;
  r.dst = dst;
  r.length = 3;
  r.created = created;
  r.injected = injected;
  r.measured = measured;
  return r;
}

TEST(Statistics, LatenciesOnlyOfMeasuredPackets) {
  Statistics st(4, 10, 100);
  st.on_delivered(1, delivered_record(0, 1, 5, 6, false), 30, 1);      // warm-up packet
  st.on_delivered(2, delivered_record(1, 2, 20, 23, true), 50, 2);     // latency 30, network 27
  st.on_delivered(3, delivered_record(2, 3, 100, 140, true), 200, 4);  // delivered in the drain
  EXPECT_EQ(st.packets_delivered(), 3u);
  EXPECT_EQ(st.latencies(), (std::vector<std::uint32_t>{30, 100}));
  EXPECT_EQ(st.network_latencies(), (std::vector<std::uint32_t>{27, 60}));
  EXPECT_EQ(st.hops(), (std::vector<std::uint32_t>{2, 4}));
  EXPECT_TRUE(st.packet_log().empty());  // the log is off by default
}

TEST(Statistics, PacketLogRecordsEveryDeliveryWhenEnabled) {
  Statistics st(4, 10, 100);
  st.enable_packet_log();
  st.on_delivered(9, delivered_record(1, 3, 2, 4, false), 12, 2);
  st.on_delivered(13, delivered_record(1, 0, 15, 16, true), 25, 1);
  ASSERT_EQ(st.packet_log().size(), 2u);
  const DeliveredPacket& a = st.packet_log()[0];
  EXPECT_EQ(a.id, 9u);
  EXPECT_EQ(a.record.src, 1u);
  EXPECT_EQ(a.record.dst, 3u);
  EXPECT_EQ(a.record.created, 2u);
  EXPECT_FALSE(a.record.measured);
  EXPECT_EQ(a.delivered, 12u);
  EXPECT_EQ(a.hops, 2);
  const DeliveredPacket& b = st.packet_log()[1];
  EXPECT_EQ(b.id, 13u);
  EXPECT_TRUE(b.record.measured);
  EXPECT_EQ(b.delivered, 25u);
  EXPECT_EQ(b.hops, 1);
  EXPECT_EQ(st.latencies(), std::vector<std::uint32_t>{10});  // only the measured one
}

// ---- Per class --------------------------------------------------------------------------------
// A worm to 3 destinations is one multicast sample, taken at its last delivery; every delivery
// is still a run-wide sample. Window [100, 200).
TEST(StatisticsClasses, AWormIsOneSampleAtItsLastDestination) {
  Statistics st(4, 100, 100);
  PacketRecord worm;
  worm.created = 110;
  worm.injected = 112;
  worm.measured = true;
  worm.multidestination = true;
  st.on_created(6, 110, true);
  st.on_created(5, 120, false);
  worm.remaining = {2, 3};  // delivered at 1, two to go
  st.on_delivered(7, worm, 130, 1);
  worm.remaining = {3};
  st.on_delivered(7, worm, 135, 2);
  worm.remaining = {};
  st.on_delivered(7, worm, 150, 3);
  PacketRecord uni;
  uni.created = 120;
  uni.injected = 121;
  uni.measured = true;
  st.on_delivered(8, uni, 140, 2);
  const ClassStats& m = st.by_class(TrafficClass::kMultidest);
  const ClassStats& u = st.by_class(TrafficClass::kUnicast);
  EXPECT_EQ(m.latency, std::vector<std::uint32_t>{40});          // 150 - 110
  EXPECT_EQ(m.network_latency, std::vector<std::uint32_t>{38});  // 150 - 112
  EXPECT_EQ(m.completed, 1u);
  EXPECT_EQ(u.latency, std::vector<std::uint32_t>{20});
  EXPECT_EQ(u.network_latency, std::vector<std::uint32_t>{19});
  EXPECT_EQ(st.latencies().size(), 4u);  // 3 deliveries of the worm + the unicast
  EXPECT_EQ(m.measured_created, 1u);
  EXPECT_EQ(u.measured_created, 1u);
  EXPECT_EQ(m.offered_flits, 6u);
  // Accepted flits by class, inside the window only: 4 nodes x 100 cycles.
  st.on_flit_ejected(150, true);
  st.on_flit_ejected(150, true);
  st.on_flit_ejected(150, false);
  st.on_flit_ejected(250, true);  // after the window
  EXPECT_EQ(st.by_class(TrafficClass::kMultidest).accepted_flits, 2u);
  EXPECT_DOUBLE_EQ(st.accepted_throughput(TrafficClass::kMultidest), 2.0 / 400);
  EXPECT_DOUBLE_EQ(st.accepted_throughput(TrafficClass::kUnicast), 1.0 / 400);
  st.on_blocked(true, 5);
  st.on_blocked(false, 2);
  st.on_blocked(true, 1);
  EXPECT_EQ(st.by_class(TrafficClass::kMultidest).blocked_flit_cycles, 6u);
  EXPECT_EQ(st.by_class(TrafficClass::kUnicast).blocked_flit_cycles, 2u);
}

TEST(StatisticsClasses, HeaderFlitsAddUp) {
  Statistics st(2, 0, 10);
  st.on_header_injected(1);
  st.on_header_injected(3);
  EXPECT_EQ(st.header_flits_injected(), 4u);
}

// Busy from the head's cycle through the tail's, while any worm is open; clipped to the
// window [10, 30) and to the stop.
TEST(StatisticsConsumption, BusyCyclesPerChannelInsideTheWindow) {
  Statistics st(2, 10, 20);
  st.track_consumption(2);
  ASSERT_EQ(st.consumption_busy().size(), 4u);
  // Node 0 channel 0: worm [5, 12] -> window part 10..12 = 3 cycles.
  st.on_consumption_head(0, 0, 5);
  st.on_consumption_tail(0, 0, 12);
  // Node 0 channel 1: two worms on two VCs overlapping, [14, 18] and [16, 21] -> 14..21 = 8.
  st.on_consumption_head(0, 1, 14);
  st.on_consumption_head(0, 1, 16);
  st.on_consumption_tail(0, 1, 18);
  st.on_consumption_tail(0, 1, 21);
  // Node 1 channel 0: a head-tail flit at 20 -> 1; then a worm from 25 never closed -> 25..29.
  st.on_consumption_head(1, 0, 20);
  st.on_consumption_tail(1, 0, 20);
  st.on_consumption_head(1, 0, 25);
  EXPECT_EQ(st.consumption_busy(), (std::vector<Cycle>{3, 8, 1 + 5, 0}));
  // The run stopped at 27 (deadlock): the open worm counts to 26.
  st.stop_at(27);
  EXPECT_EQ(st.consumption_busy(), (std::vector<Cycle>{3, 8, 1 + 2, 0}));
}

}  // namespace
}  // namespace wormsim::statistics_test
