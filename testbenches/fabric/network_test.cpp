// System tests of the network: closed-formula zero-load latency, saturation throughput,
// deadlock freedom of dateline tori, the watchdog on a deadlock-prone torus, conservation,
// order independence, port models. See docs/timing-model.md for the formula.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "network_test_util.h"

namespace wormsim::testing::network_test {
namespace {

// ---- Zero-load latency (formula: zero_load_formula in network_test_util.h) -----------
struct ZeroLoadCase {
  std::string name;
  std::function<Config()> topology;
  int pipeline;
  int link;
  int credit;
  int depth;
  PortModel ports = PortModel::kOnePort;
  PipelineModel model = PipelineModel::kDelay;
};

std::ostream& operator<<(std::ostream& os, const ZeroLoadCase& c) { return os << c.name; }

class ZeroLoadLatency : public ::testing::TestWithParam<ZeroLoadCase> {};

TEST_P(ZeroLoadLatency, EqualsClosedFormula) {
  const ZeroLoadCase& zc = GetParam();
  Config c = zc.topology();
  c.network.router.pipeline_depth = zc.pipeline;
  c.network.router.pipeline = zc.model;
  c.network.router.link_latency = zc.link;
  c.network.router.credit_latency = zc.credit;
  c.network.router.buffer_depth = zc.depth;
  c.network.router.port_model = zc.ports;
  c.traffic.injection_rate = 0;
  c.simulation.warmup_cycles = 0;
  c.simulation.measure_cycles = 1000000;
  const Topology topo(c.network.topology);
  // Every destination from a corner and from an interior node, several lengths; packets are
  // spaced far apart so each one travels alone.
  struct Sent {
    NodeId src, dst;
    int length;
  };
  std::vector<Sent> sent;
  const std::vector<int> lengths{1, 2, 3, 5, 8, 17};
  const NodeId sources[] = {0, static_cast<NodeId>(topo.nodes() / 2 + 1)};
  for (NodeId src : sources)
    for (NodeId dst = 0; dst < static_cast<NodeId>(topo.nodes()); ++dst)
      if (dst != src) sent.push_back({src, dst, lengths[(dst + src) % lengths.size()]});
  RunOptions opt;
  opt.synthetic_traffic = false;
  opt.record_packets = true;
  const Cycle spacing = 400;
  auto net = run(c, opt, [&](SyntheticNetwork& n) {
    for (std::size_t i = 0; i < sent.size(); ++i)
      n.schedule_packet(sent[i].src, sent[i].dst, sent[i].length, 10 + i * spacing);
  });
  ASSERT_EQ(net->outcome(), RunOutcome::kCompleted);
  const auto& log = net->stats().packet_log();
  ASSERT_EQ(log.size(), sent.size());
  for (const DeliveredPacket& d : log) {
    const int hops = topo.distance(d.record.src, d.record.dst);
    EXPECT_EQ(d.hops, hops);
    EXPECT_EQ(d.delivered - d.record.created,
              zero_load_formula(hops, static_cast<int>(d.record.length), zc.pipeline, zc.link,
                                zc.credit, zc.depth, zc.model != PipelineModel::kDelay))
        << "packet " << d.record.src << "->" << d.record.dst << " L=" << d.record.length
        << " H=" << hops;
  }
  EXPECT_EQ(net->scoreboard().violation_count(), 0u);
}

std::vector<ZeroLoadCase> zero_load_cases() {
  struct Timing {
    int p, lk, cr, b;
  };
  const std::vector<Timing> timings{{1, 1, 1, 4}, {2, 1, 1, 4},  {3, 2, 1, 8},
                                    {4, 1, 2, 4}, {1, 3, 2, 2},  {2, 2, 2, 3},
                                    {1, 1, 1, 1}, {4, 3, 3, 16}, {3, 1, 4, 5}};
  const std::vector<std::pair<std::string, std::function<Config()>>> topologies{
      {"mesh8x8",
       [] {
         return mesh_config({8, 8});
       }},
      {"mesh5x7",
       [] {
         return mesh_config({5, 7});
       }},
      {"torus6x6",
       [] {
         return torus_config({6, 6});
       }},
      {"mesh4x3x3",
       [] {
         return mesh_config({4, 3, 3});
       }},
      {"hypercube5", [] { return hypercube_config(5); }}};
  std::vector<ZeroLoadCase> cases;
  for (const auto& [tname, make] : topologies)
    for (const Timing& t : timings)
      cases.push_back({tname + "_P" + std::to_string(t.p) + "_Lk" + std::to_string(t.lk) + "_Cr" +
                           std::to_string(t.cr) + "_B" + std::to_string(t.b),
                       make, t.p, t.lk, t.cr, t.b});
  cases.push_back({"mesh8x8_allport_P2_Lk1_Cr1_B4",
                   [] {
                     return mesh_config({8, 8});
                   },
                   2, 1, 1, 4, PortModel::kAllPort});
  cases.push_back({"hypercube4_allport_P1_Lk2_Cr1_B2", [] { return hypercube_config(4); }, 1, 2, 1,
                   2, PortModel::kAllPort});
  cases.push_back({"torus5x5_kport_P3_Lk1_Cr2_B3",
                   [] {
                     Config c = torus_config({5, 5});
                     c.network.router.ports = 2;
                     return c;
                   },
                   3, 1, 2, 3, PortModel::kKPort});
  // Staged pipelines: every model, on every topology, with shallow and deep buffers.
  struct Staged {
    PipelineModel model;
    int lk, cr, b;
  };
  const std::vector<Staged> staged{{PipelineModel::kClassic, 1, 1, 4},
                                   {PipelineModel::kClassic, 1, 1, 2},
                                   {PipelineModel::kClassic, 3, 2, 16},
                                   {PipelineModel::kLookahead, 1, 1, 4},
                                   {PipelineModel::kLookahead, 2, 1, 3},
                                   {PipelineModel::kSpeculative, 1, 1, 4},
                                   {PipelineModel::kSpeculative, 1, 3, 5},
                                   {PipelineModel::kCombined, 1, 1, 4},
                                   {PipelineModel::kCombined, 2, 2, 1},
                                   {PipelineModel::kLookaheadSpeculative, 1, 1, 4},
                                   {PipelineModel::kLookaheadSpeculative, 1, 2, 2},
                                   {PipelineModel::kLookaheadCombined, 1, 1, 4},
                                   {PipelineModel::kLookaheadCombined, 3, 1, 6}};
  for (const auto& [tname, make] : topologies)
    for (const Staged& t : staged) {
      const int p = pipeline_stages(t.model);
      cases.push_back({tname + "_" + to_string(t.model) + "_Lk" + std::to_string(t.lk) + "_Cr" +
                           std::to_string(t.cr) + "_B" + std::to_string(t.b),
                       make, p, t.lk, t.cr, t.b, PortModel::kOnePort, t.model});
    }
  cases.push_back({"mesh8x8_allport_classic_Lk1_Cr1_B3",
                   [] {
                     return mesh_config({8, 8});
                   },
                   4, 1, 1, 3, PortModel::kAllPort, PipelineModel::kClassic});
  cases.push_back({"torus5x5_kport_speculative_Lk1_Cr1_B2",
                   [] {
                     Config c = torus_config({5, 5});
                     c.network.router.ports = 2;
                     return c;
                   },
                   3, 1, 1, 2, PortModel::kKPort, PipelineModel::kSpeculative});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Timing, ZeroLoadLatency, ::testing::ValuesIn(zero_load_cases()),
                         [](const auto& p) { return p.param.name; });

// ---- Stage occupancy ------------------------------------------------------------------------
// Two L-flit packets created together at one source for one destination, on one VC with
// buffers deeper than the credit round trip. Under the delay model the second head follows the
// first tail by one cycle at every router: delivered L cycles after the first packet. Under a
// staged model the second head can start its first stage (RC, or VA with lookahead) only in
// the cycle after the first tail won SA at the first router, P - 2 cycles after it arrived
// there; later routers have finished the first packet by the time it arrives
// (docs/timing-model.md, "Router pipeline").
class StageOccupancy : public ::testing::TestWithParam<PipelineModel> {};

TEST_P(StageOccupancy, BackToBackPacketsOnOneVc) {
  const PipelineModel model = GetParam();
  Config c = mesh_config({6, 6});
  c.network.router.vcs = 1;
  c.network.router.buffer_depth = 16;
  c.network.router.pipeline = model;
  c.network.router.pipeline_depth = model == PipelineModel::kDelay ? 4 : pipeline_stages(model);
  c.traffic.injection_rate = 0;
  c.simulation.warmup_cycles = 0;
  c.simulation.measure_cycles = 100000;
  const int p = c.network.router.pipeline_depth;
  const Cycle bubble = model == PipelineModel::kDelay ? 0 : static_cast<Cycle>(p - 2);
  const std::vector<int> lengths{1, 2, 5, 9};
  const std::vector<std::pair<NodeId, NodeId>> pairs{{0, 35}, {7, 8}, {30, 5}};
  RunOptions opt;
  opt.synthetic_traffic = false;
  opt.record_packets = true;
  struct Pair {
    NodeId src, dst;
    int length;
    Cycle at;
  };
  std::vector<Pair> sent;
  Cycle at = 10;
  for (const auto& [src, dst] : pairs)
    for (int length : lengths) {
      sent.push_back({src, dst, length, at});
      at += 300;
    }
  auto net = run(c, opt, [&](SyntheticNetwork& n) {
    for (const Pair& s : sent) {
      n.schedule_packet(s.src, s.dst, s.length, s.at);
      n.schedule_packet(s.src, s.dst, s.length, s.at);
    }
  });
  ASSERT_EQ(net->outcome(), RunOutcome::kCompleted);
  const Topology topo(c.network.topology);
  std::map<Cycle, std::vector<Cycle>> delivered;  // creation -> deliveries
  for (const DeliveredPacket& d : net->stats().packet_log())
    delivered[d.record.created].push_back(d.delivered);
  ASSERT_EQ(delivered.size(), sent.size());
  for (const Pair& s : sent) {
    SCOPED_TRACE(fmt::format("{} -> {}, L = {}", s.src, s.dst, s.length));
    std::vector<Cycle> d = delivered.at(s.at);
    ASSERT_EQ(d.size(), 2u);
    std::sort(d.begin(), d.end());
    const Cycle t0 = zero_load_formula(topo.distance(s.src, s.dst), s.length, p, 1, 1, 16,
                                       model != PipelineModel::kDelay);
    EXPECT_EQ(d[0] - s.at, t0);
    EXPECT_EQ(d[1] - s.at, t0 + static_cast<Cycle>(s.length) + bubble);
  }
}

INSTANTIATE_TEST_SUITE_P(Models, StageOccupancy,
                         ::testing::Values(PipelineModel::kDelay, PipelineModel::kClassic,
                                           PipelineModel::kLookahead, PipelineModel::kSpeculative,
                                           PipelineModel::kCombined,
                                           PipelineModel::kLookaheadSpeculative,
                                           PipelineModel::kLookaheadCombined),
                         [](const auto& p) { return to_string(p.param); });

// ---- Throughput ----------------------------------------------------------------------------
// 8x8 mesh, DOR, uniform random, 1-flit packets, 4 VCs x 8 flits. The bisection bound is
// 0.5 flits/node/cycle; the issue asks for at least 0.40 at saturation. Offered 0.45 is just
// past the saturation point (docs/results-latency-load.md has the whole curve).
TEST(Throughput, Mesh8x8UniformSaturatesAboveFortyPercent) {
  Config c = mesh_config({8, 8});
  c.network.router.vcs = 4;
  c.network.router.buffer_depth = 8;
  c.traffic.packet_length = 1;
  c.traffic.injection_rate = 0.45;
  c.simulation.warmup_cycles = 2000;
  c.simulation.measure_cycles = 5000;
  auto net = run(c);
  EXPECT_EQ(net->outcome(), RunOutcome::kCompleted);
  EXPECT_GE(net->stats().accepted_throughput(), 0.40);
  EXPECT_LE(net->stats().accepted_throughput(), 0.5);  // cannot beat the bisection bound
  EXPECT_EQ(net->scoreboard().violation_count(), 0u);
}

// Below saturation, accepted throughput equals offered load (nothing is lost or stuck).
TEST(Throughput, BelowSaturationAcceptedEqualsOffered) {
  Config c = mesh_config({8, 8});
  c.traffic.injection_rate = 0.2;
  c.simulation.warmup_cycles = 1000;
  c.simulation.measure_cycles = 10000;
  auto net = run(c);
  EXPECT_NEAR(net->stats().accepted_throughput(), net->stats().offered_load(), 0.01);
  EXPECT_NEAR(net->stats().offered_load(), 0.2, 0.01);
}

// ---- Deadlock freedom and the watchdog ---------------------------------------------------
void expect_clean_drain(const Network& net) {
  EXPECT_EQ(net.outcome(), RunOutcome::kCompleted);
  EXPECT_FALSE(net.deadlock().has_value());
  EXPECT_EQ(net.stats().flits_injected(), net.stats().flits_ejected());
  EXPECT_EQ(net.stats().flits_in_flight(), 0u);
  EXPECT_EQ(net.flits_in_network(), 0u);
  EXPECT_EQ(net.scoreboard().live_packets(), 0u);
  EXPECT_EQ(net.scoreboard().delivered_packets(), net.stats().packets_created());
  EXPECT_EQ(net.scoreboard().violation_count(), 0u);
}

class DatelineTorus : public ::testing::TestWithParam<double> {};

TEST_P(DatelineTorus, NoDeadlockAtAndBeyondSaturationForHundredThousandCycles) {
  Config c = torus_config({8, 8});
  c.network.router.vcs = 2;  // one VC per dateline class: the tightest deadlock-free setting
  c.network.router.buffer_depth = 4;
  c.traffic.packet_length = 4;
  c.traffic.injection_rate = GetParam();
  c.simulation.warmup_cycles = 0;
  c.simulation.measure_cycles = 100000;
  c.simulation.watchdog_cycles = 2000;
  c.simulation.drain_max_cycles = 2000000;
  auto net = run(c);
  expect_clean_drain(*net);
  EXPECT_GT(net->stats().accepted_throughput(), 0.2);
}

// Named by the offered load in per cent of a flit per node and cycle: "/50", "/100".
INSTANTIATE_TEST_SUITE_P(Load, DatelineTorus, ::testing::Values(0.5, 1.0),
                         [](const ::testing::TestParamInfo<double>& load) {
                           return std::to_string(static_cast<int>(load.param * 100.0));
                         });

TEST(Watchdog, TorusWithoutDatelineDeadlocksAndIsReported) {
  const Config c = deadlock_prone_torus();
  auto net = run(c);
  ASSERT_EQ(net->outcome(), RunOutcome::kDeadlock);
  ASSERT_TRUE(net->deadlock().has_value());
  const DeadlockReport& d = *net->deadlock();
  EXPECT_EQ(d.detected_at - d.last_progress, 500u);
  EXPECT_FALSE(d.partial);  // a synthetic run: the global watchdog (docs/safety-nets.md)
  EXPECT_GT(d.flits_in_flight, 0u);
  // Conservation holds in the frozen state: every injected flit not yet ejected is in a
  // buffer or on a link.
  EXPECT_EQ(net->stats().flits_in_flight(), net->flits_in_network());
  // The reported cycle is a real wait-for cycle: each VC waits for the next, the last for
  // the first, and every VC in it holds flits.
  ASSERT_GE(d.cycle.size(), 2u);
  for (std::size_t i = 0; i < d.cycle.size(); ++i) {
    const WaitingVc& w = d.waiting[static_cast<std::size_t>(d.cycle[i])];
    const int next = d.cycle[(i + 1) % d.cycle.size()];
    EXPECT_NE(std::find(w.waits_for.begin(), w.waits_for.end(), next), w.waits_for.end());
    EXPECT_GT(w.flits, 0);
  }
  EXPECT_NE(d.text().find("wait-for cycle"), std::string::npos);
}

TEST(Watchdog, NoFalseAlarmOnAnIdleNetwork) {
  Config c = mesh_config({4, 4});
  c.traffic.injection_rate = 0;
  c.simulation.warmup_cycles = 0;
  c.simulation.measure_cycles = 100000;
  c.simulation.watchdog_cycles = 10;
  auto net = run(c);
  EXPECT_EQ(net->outcome(), RunOutcome::kCompleted);
  EXPECT_EQ(net->stats().flits_injected(), 0u);
}

// ---- Scoreboard and ordering -------------------------------------------------------------
TEST(Scoreboard, InOrderExactlyOnceUnderHeavyLoadWithOneVc) {
  Config c = mesh_config({6, 6});
  c.network.router.vcs = 1;  // deterministic route and a single VC: order is guaranteed
  c.traffic.packet_length = 3;
  c.traffic.injection_rate = 0.3;  // near saturation for one VC
  c.traffic.pattern = TrafficPattern::kHotspot;
  c.traffic.hotspot.nodes = {14};
  c.traffic.hotspot.fraction = 0.05;
  c.simulation.warmup_cycles = 0;
  c.simulation.measure_cycles = 5000;
  auto net = run(c);
  expect_clean_drain(*net);
}

// ---- Order independence ------------------------------------------------------------------
// Results must not depend on the order components are evaluated in within a cycle: elaborate
// two identical networks in one simulation, one evaluated forwards and one backwards, and
// compare every delivered packet.
std::vector<Delivery> delivery_log(const Network& net) {
  std::vector<Delivery> log = deliveries(net);
  std::sort(log.begin(), log.end());
  return log;
}

TEST(OrderIndependence, ForwardAndReverseEvaluationGiveIdenticalDeliveries) {
  Config c = torus_config({4, 4});
  c.network.router.vcs = 4;
  c.network.router.pipeline_depth = 2;
  c.traffic.injection_rate = 0.6;
  c.traffic.packet_length = 3;
  c.simulation.warmup_cycles = 0;
  c.simulation.measure_cycles = 3000;
  c.validate();
  NetworkOptions opt;
  opt.record_packets = true;
  opt.quiet = true;
  SyntheticNetwork forward("forward", c, opt);
  opt.reverse_evaluation = true;
  SyntheticNetwork reverse("reverse", c, opt);
  sc_core::sc_start();
  expect_clean_drain(forward);
  expect_clean_drain(reverse);
  const auto a = delivery_log(forward);
  const auto b = delivery_log(reverse);
  ASSERT_GT(a.size(), 1000u);
  EXPECT_EQ(a, b);
  EXPECT_EQ(forward.cycles(), reverse.cycles());
}

// Batches of cycles per activation of the network's process (NetworkOptions::
// cycles_per_activation, the CLI's synthetic runs) evaluate the same cycles as one per
// activation: the same deliveries, cycles, evaluated cycles and departures, at a load that leaves
// idle gaps to skip and past saturation.
TEST(Batching, CyclesPerActivationChangeNothing) {
  struct Run {
    std::unique_ptr<SyntheticNetwork> net;
    std::vector<FlitEvent> log;
    std::unique_ptr<FlitEventRecorder> recorder;
  };
  const double loads[] = {0.02, 0.7};
  const int batches[] = {1, 7, 1024};
  std::vector<Run> runs;  // per load, per batch
  runs.reserve(6);
  for (int l = 0; l < 2; ++l) {
    Config c = mesh_config({6, 6});
    c.network.router.vcs = 2;
    c.network.router.pipeline_depth = 3;
    c.traffic.injection_rate = loads[l];
    c.traffic.packet_length = 4;
    c.simulation.warmup_cycles = 300;
    c.simulation.measure_cycles = 3000;
    c.validate();
    for (const int batch : batches) {
      NetworkOptions opt;
      opt.record_packets = true;
      opt.quiet = true;
      opt.cycles_per_activation = batch;
      const std::string name = fmt::format("load{}_batch{}", l, batch);
      Run& r = runs.emplace_back();
      r.net = std::make_unique<SyntheticNetwork>(name.c_str(), c, opt);
      r.recorder = std::make_unique<FlitEventRecorder>(&r.log);
      r.net->add_router_observer(r.recorder.get());
    }
  }
  sc_core::sc_start();
  for (int l = 0; l < 2; ++l) {
    SCOPED_TRACE(loads[l]);
    const Run& one = runs[static_cast<std::size_t>(3 * l)];
    EXPECT_EQ(one.net->outcome(), RunOutcome::kCompleted);
    ASSERT_GT(one.log.size(), 1000u);
    for (std::size_t i = 1; i < 3; ++i) {
      const Run& other = runs[static_cast<std::size_t>(3 * l) + i];
      EXPECT_EQ(delivery_log(*one.net), delivery_log(*other.net));
      EXPECT_EQ(one.net->cycles(), other.net->cycles());
      EXPECT_EQ(one.net->evaluated_cycles(), other.net->evaluated_cycles());
      EXPECT_TRUE(one.log == other.log) << "departures differ";
    }
  }
}

// ---- Parallel evaluation ----------------------------------------------------------------------
// Routers stepped on 4 threads (every cycle in parallel) and committed in component order give
// the serial run's deliveries and the same departures in the same order (docs/architecture.md,
// "One cycle"); a unicast torus, whose terminals step in parallel too, and two tree-multicast
// meshes, whose terminals step in the commit, each elaborated twice in one simulation. This
// test also runs under a ThreadSanitizer build (WORMSIM_TSAN).
TEST(ParallelEvaluation, FourThreadsGiveTheSerialDeliveriesAndDepartures) {
  Config torus = torus_config({8, 8});
  torus.network.router.vcs = 4;
  torus.network.router.pipeline = PipelineModel::kSpeculative;  // staged, speculative SA
  torus.network.router.pipeline_depth = 3;
  torus.traffic.injection_rate = 0.3;
  Config mcast = mesh_config({8, 8});
  mcast.network.router.vcs = 2;
  mcast.network.router.multidest = MultidestMode::kTree;
  mcast.traffic.packet_length = 8;
  mcast.traffic.multicast_fraction = 0.2;
  mcast.traffic.multicast_destinations = 8;
  mcast.traffic.injection_rate = 0.15;
  Config staged_mcast = mcast;
  staged_mcast.network.router.pipeline = PipelineModel::kClassic;
  staged_mcast.network.router.pipeline_depth = 4;
  std::vector<std::unique_ptr<RecordedNetwork>> runs;
  for (Config* c : {&torus, &mcast, &staged_mcast}) {
    c->simulation.warmup_cycles = 100;
    c->simulation.measure_cycles = 1000;
    c->simulation.parallel_min_routers = 1;
    for (int threads : {1, 4}) {
      c->simulation.threads = threads;
      c->validate();
      runs.push_back(elaborate_recorded(fmt::format("net{}", runs.size()), *c));
    }
  }
  sc_core::sc_start();
  for (std::size_t i = 0; i < runs.size(); i += 2) {
    SCOPED_TRACE(i == 0   ? "speculative torus"
                 : i == 2 ? "multicast mesh"
                          : "classic multicast mesh");
    EXPECT_EQ(runs[i]->net->outcome(), RunOutcome::kCompleted);
    EXPECT_EQ(runs[i + 1]->net->outcome(), RunOutcome::kCompleted);
    EXPECT_EQ(runs[i]->net->threads(), 1);
    EXPECT_EQ(runs[i + 1]->net->threads(), 4);
    EXPECT_EQ(runs[i]->net->parallel_cycles(), 0u);
    EXPECT_GT(runs[i + 1]->net->parallel_cycles(), 1000u);
    ASSERT_GT(runs[i]->log.size(), 10000u);
    EXPECT_TRUE(runs[i]->log == runs[i + 1]->log) << "departures differ";
    EXPECT_EQ(delivery_log(*runs[i]->net), delivery_log(*runs[i + 1]->net));
    EXPECT_EQ(runs[i]->net->cycles(), runs[i + 1]->net->cycles());
    EXPECT_EQ(runs[i]->net->stats().flits_ejected(), runs[i + 1]->net->stats().flits_ejected());
    EXPECT_EQ(runs[i]->net->stats().latencies(), runs[i + 1]->net->stats().latencies());
    EXPECT_EQ(runs[i]->net->stats().network_latencies(),
              runs[i + 1]->net->stats().network_latencies());
    EXPECT_EQ(runs[i]->net->stats().header_flits_injected(),
              runs[i + 1]->net->stats().header_flits_injected());
    EXPECT_EQ(runs[i]->net->stats().consumption_busy(),
              runs[i + 1]->net->stats().consumption_busy());
    EXPECT_EQ(runs[i]->net->parallel_endpoint_steps(), 0u);
    if (i == 0)  // unicast: the terminals step in the parallel phase
      EXPECT_GT(runs[i + 1]->net->parallel_endpoint_steps(), 10000u);
    else  // multicasts: in the commit
      EXPECT_EQ(runs[i + 1]->net->parallel_endpoint_steps(), 0u);
  }
}

// ---- Cache hints -------------------------------------------------------------------------------
// The cache hints change no state (docs/architecture.md, "Cache hints"): a 32x32 mesh (1,024
// routers, enough for simulation.cache_hints auto to run its timed trials) gives the same
// departures in the same order and the same deliveries with the hints always on, never, and
// chosen by trial, on one thread and, with them always on, on two (each thread hints its own
// routers).
TEST(CacheHints, OnOffAndAutoGiveIdenticalDeparturesAndDeliveries) {
  Config c = mesh_config({32, 32});
  c.network.router.vcs = 2;
  c.network.router.pipeline_depth = 4;
  c.traffic.injection_rate = 0.05;
  c.simulation.warmup_cycles = 100;
  c.simulation.measure_cycles = 700;  // the first trial ends after 513 cycles
  c.simulation.parallel_min_routers = 1;
  c.simulation.engine = Engine::kReference;  // the flat engine takes no hints
  struct Variant {
    CacheHints hints;
    int threads;
  };
  const std::vector<Variant> variants{
      {CacheHints::kOff, 1}, {CacheHints::kOn, 1}, {CacheHints::kAuto, 1}, {CacheHints::kOn, 2}};
  std::vector<std::unique_ptr<RecordedNetwork>> runs;
  for (const Variant& v : variants) {
    c.simulation.cache_hints = v.hints;
    c.simulation.threads = v.threads;
    c.validate();
    runs.push_back(elaborate_recorded(fmt::format("hints{}", runs.size()), c));
  }
  sc_core::sc_start();
  EXPECT_EQ(runs[2]->net->hint_tuner().trials(), 1) << "auto ran no trial";
  EXPECT_GT(runs[3]->net->parallel_cycles(), 100u);
  ASSERT_GT(runs[0]->log.size(), 100000u);
  for (std::size_t i = 1; i < runs.size(); ++i) {
    SCOPED_TRACE(
        fmt::format("{}, {} thread(s)", to_string(variants[i].hints), variants[i].threads));
    EXPECT_EQ(runs[i]->net->outcome(), RunOutcome::kCompleted);
    EXPECT_TRUE(runs[0]->log == runs[i]->log) << "departures differ";
    EXPECT_EQ(delivery_log(*runs[0]->net), delivery_log(*runs[i]->net));
    EXPECT_EQ(runs[0]->net->cycles(), runs[i]->net->cycles());
    EXPECT_EQ(runs[0]->net->stats().latencies(), runs[i]->net->stats().latencies());
  }
}

// ---- Scripted traffic is checked ------------------------------------------------------------
TEST(ScheduledPackets, BadArgumentsAreRejectedWithNodeAndCycle) {
  Config c = mesh_config({4, 4});
  c.traffic.injection_rate = 0;  // scripted packets only
  c.validate();
  NetworkOptions opt;
  opt.quiet = true;
  SyntheticNetwork net("net", c, opt);
  try {
    net.schedule_packet(3, 16, 2, 40);
    FAIL() << "no error for a nonexistent destination";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("node 16 does not exist"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("cycle 40"), std::string::npos) << e.what();
  }
  EXPECT_THROW(net.schedule_packet(16, 3, 2, 0), std::invalid_argument);
  EXPECT_THROW(net.schedule_packet(1, 3, 0, 0), std::invalid_argument);
  EXPECT_THROW(net.schedule_packet(1, 3, 70000, 0), std::invalid_argument);
}

// A node may send to itself: the packet turns around in its own router.
TEST(ScheduledPackets, SelfSendOnEveryPortModel) {
  Config c = mesh_config({3, 3});
  c.network.router.port_model = PortModel::kAllPort;
  c.traffic.injection_rate = 0;
  c.simulation.warmup_cycles = 0;
  c.simulation.measure_cycles = 100;
  RunOptions opt;
  opt.synthetic_traffic = false;
  opt.record_packets = true;
  auto net = run(c, opt, [](SyntheticNetwork& n) { n.schedule_packet(4, 4, 3, 5); });
  expect_clean_drain(*net);
  ASSERT_EQ(net->stats().packet_log().size(), 1u);
  EXPECT_EQ(net->stats().packet_log()[0].hops, 0);
}

// ---- Port models -------------------------------------------------------------------------
TEST(PortModel, AllPortInjectsOnTheChannelOfTheFirstHop) {
  Config c = mesh_config({4, 4});
  c.network.router.port_model = PortModel::kAllPort;
  c.traffic.injection_rate = 0;
  c.simulation.warmup_cycles = 0;
  c.simulation.measure_cycles = 1000;
  RunOptions opt;
  opt.synthetic_traffic = false;
  const Topology topo(c.network.topology);
  // From node 5 = (1,1) to each neighbour direction: x+, x-, y+, y-.
  const NodeId src = 5;
  auto net = run(c, opt, [&](SyntheticNetwork& n) {
    n.schedule_packet(src, 6, 2, 0);   // x+ : port 0
    n.schedule_packet(src, 4, 3, 0);   // x- : port 1
    n.schedule_packet(src, 13, 4, 0);  // y+ : port 2 (two hops)
    n.schedule_packet(src, 1, 5, 0);   // y- : port 3
  });
  expect_clean_drain(*net);
  const int term = topo.nodes() + static_cast<int>(src);
  std::vector<std::uint64_t> per_channel(4, 0);
  for (const Link& l : net->links())
    if (l.upstream.component == term)
      per_channel[static_cast<std::size_t>(l.upstream.port)] = l.flits_carried;
  EXPECT_EQ(per_channel, (std::vector<std::uint64_t>{2, 3, 4, 5}));
}

TEST(PortModel, KPortDeliversEverythingAndUsesSeveralChannels) {
  Config c = mesh_config({4, 4});
  c.network.router.port_model = PortModel::kKPort;
  c.network.router.ports = 2;
  c.traffic.injection_rate = 0.8;  // packets often arrive while channel 0 is busy
  c.traffic.packet_length = 4;
  c.simulation.warmup_cycles = 0;
  c.simulation.measure_cycles = 2000;
  auto net = run(c);
  expect_clean_drain(*net);
  std::uint64_t second_channel = 0;
  for (const Link& l : net->links())
    if (l.upstream.component >= 16 && l.upstream.port == 1) second_channel += l.flits_carried;
  EXPECT_GT(second_channel, 0u);
}

}  // namespace
}  // namespace wormsim::testing::network_test
