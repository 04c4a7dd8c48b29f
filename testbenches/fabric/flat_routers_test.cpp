// The flat engine (fabric/flat_routers.h) against the reference engine (Router objects): the
// same departures (each router's in the same order), the same deliveries, statistics and link
// counts, the same cycles evaluated, over a
// grid of the configurations it runs; its choice under simulation.engine auto; its errors.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "network_test_util.h"
#include "router_observer.h"

namespace wormsim::testing {
namespace {

// A recorded network (network_test_util.h) on `engine`.
std::unique_ptr<RecordedNetwork> elaborate_engine(const std::string& name, Config c,
                                                  Engine engine) {
  c.simulation.engine = engine;
  c.validate();
  return elaborate_recorded(name, c);
}

std::vector<std::uint64_t> engine_link_counts(const Network& net) {
  std::vector<std::uint64_t> counts;
  for (const Link& l : net.links()) counts.push_back(l.flits_carried);
  return counts;
}

// deliveries(net) by delivery cycle, then packet id.
std::vector<Delivery> by_delivery(const Network& net) {
  std::vector<Delivery> log = deliveries(net);
  std::sort(log.begin(), log.end(), [](const Delivery& a, const Delivery& b) {
    return std::tie(std::get<3>(a), std::get<0>(a)) < std::tie(std::get<3>(b), std::get<0>(b));
  });
  return log;
}

std::vector<std::uint32_t> sorted(std::vector<std::uint32_t> v) {
  std::sort(v.begin(), v.end());
  return v;
}

struct EngineCase {
  std::string name;
  Config config;
};

// Meshes, tori (with their dateline classes), a hypercube and a 3D mesh; 1, 2 and 4 VCs; buffers
// of 1, 2 and 8 flits; pipelines of 1 and 4 cycles; one-, k- and all-port NIs; uniform, transpose
// and hotspot traffic below and far above saturation (where allocation has conflicts to
// resolve, VC allocation among several heads included, and credits run out).
std::vector<EngineCase> engine_grid() {
  std::vector<EngineCase> cases;
  const auto add = [&](std::string name, Config c, double load, int length) {
    c.traffic.injection_rate = load;
    c.traffic.packet_length = length;
    c.simulation.warmup_cycles = 200;
    c.simulation.measure_cycles = 1500;
    cases.push_back({std::move(name), std::move(c)});
  };
  {
    Config c = mesh_config({4, 4});
    c.network.router.vcs = 1;
    c.network.router.buffer_depth = 1;
    add("mesh4x4_1vc_depth1", c, 0.2, 3);
    add("mesh4x4_1vc_depth1_saturated", c, 0.9, 3);
  }
  {
    Config c = mesh_config({8, 8});
    c.network.router.vcs = 2;
    c.network.router.buffer_depth = 8;
    c.network.router.pipeline_depth = 4;
    add("mesh8x8_matched", c, 0.1, 5);
    add("mesh8x8_matched_saturated", c, 0.6, 5);
    c.traffic.pattern = TrafficPattern::kTranspose;
    add("mesh8x8_transpose", c, 0.3, 5);
  }
  {
    Config c = mesh_config({6, 6});
    c.network.router.vcs = 4;
    c.network.router.buffer_depth = 2;
    c.network.router.port_model = PortModel::kAllPort;
    add("mesh6x6_4vc_all_port", c, 0.8, 4);
    c.network.router.port_model = PortModel::kKPort;
    c.network.router.ports = 2;
    add("mesh6x6_4vc_2_port", c, 0.8, 4);
    c.network.router.port_model = PortModel::kOnePort;
    c.traffic.pattern = TrafficPattern::kHotspot;
    c.traffic.hotspot.nodes = {14};
    c.traffic.hotspot.fraction = 0.3;
    add("mesh6x6_4vc_hotspot", c, 0.4, 4);
  }
  {
    Config c = torus_config({8, 8});
    c.network.router.vcs = 2;
    c.network.router.buffer_depth = 4;
    c.network.router.pipeline_depth = 2;
    add("torus8x8_dateline", c, 0.2, 6);
    add("torus8x8_dateline_saturated", c, 0.9, 6);
  }
  {
    Config c = hypercube_config(5);
    c.network.router.vcs = 2;
    c.network.router.buffer_depth = 2;
    add("cube5", c, 0.5, 4);
  }
  {
    Config c = mesh_config({3, 3, 3});
    c.network.router.vcs = 3;
    c.network.router.buffer_depth = 3;
    c.network.router.pipeline_depth = 3;
    add("mesh3x3x3", c, 0.7, 2);
  }
  return cases;
}

TEST(FlatEngine, GivesTheReferenceEnginesDeparturesDeliveriesAndStatistics) {
  const std::vector<EngineCase> cases = engine_grid();
  std::vector<std::unique_ptr<RecordedNetwork>> runs;
  for (const EngineCase& k : cases) {
    runs.push_back(elaborate_engine(k.name + "_reference", k.config, Engine::kReference));
    runs.push_back(elaborate_engine(k.name + "_flat", k.config, Engine::kFlat));
  }
  sc_core::sc_start();
  for (std::size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(cases[i].name);
    const Network& ref = *runs[2 * i]->net;
    const Network& flat = *runs[2 * i + 1]->net;
    ASSERT_EQ(ref.engine(), Engine::kReference);
    ASSERT_EQ(flat.engine(), Engine::kFlat);
    EXPECT_EQ(ref.outcome(), RunOutcome::kCompleted);
    ASSERT_GT(runs[2 * i]->log.size(), 1000u);
    // Within a cycle the engines evaluate the routers in different orders (canonical_order).
    canonical_order(runs[2 * i]->log);
    canonical_order(runs[2 * i + 1]->log);
    EXPECT_TRUE(runs[2 * i]->log == runs[2 * i + 1]->log) << "departures differ";
    // Within a cycle the terminals also step in different orders: packets are compared by
    // (delivery cycle, id) and the latency lists as multisets.
    EXPECT_EQ(by_delivery(ref), by_delivery(flat));
    EXPECT_EQ(ref.outcome(), flat.outcome());
    EXPECT_EQ(ref.cycles(), flat.cycles());
    EXPECT_EQ(ref.evaluated_cycles(), flat.evaluated_cycles());
    EXPECT_EQ(sorted(ref.stats().latencies()), sorted(flat.stats().latencies()));
    EXPECT_EQ(sorted(ref.stats().network_latencies()), sorted(flat.stats().network_latencies()));
    EXPECT_EQ(ref.stats().flits_ejected(), flat.stats().flits_ejected());
    EXPECT_EQ(ref.stats().consumption_busy(), flat.stats().consumption_busy());
    const std::uint64_t blocked = ref.stats().by_class(TrafficClass::kUnicast).blocked_flit_cycles;
    EXPECT_EQ(blocked, flat.stats().by_class(TrafficClass::kUnicast).blocked_flit_cycles);
    EXPECT_EQ(engine_link_counts(ref), engine_link_counts(flat));
    EXPECT_EQ(flat.flits_in_network(), 0u);
  }
  // The saturated cases block flits (VC and switch conflicts), so the blocked counts compared
  // above are not all zero.
  EXPECT_GT(runs[2]->net->stats().by_class(TrafficClass::kUnicast).blocked_flit_cycles, 1000u);
}

// Mid-run the flat engine's state, copied into the Router objects (Network::routers()), holds
// the flits the statistics count in flight, in the reference engine's places.
TEST(FlatEngine, RouterStateMidRunMatchesTheReferenceEngine) {
  Config c = mesh_config({4, 4});
  c.network.router.vcs = 2;
  c.network.router.buffer_depth = 2;
  c.traffic.injection_rate = 0.9;
  c.traffic.packet_length = 6;
  c.simulation.warmup_cycles = 0;
  c.simulation.measure_cycles = 100000;
  auto ref = elaborate_engine("ref", c, Engine::kReference);
  auto flat = elaborate_engine("flat", c, Engine::kFlat);
  const auto expect_same = [&](const Router& x, const Router& y, NodeId r) {
    for (int p = 0; p < ref->net->layout().inputs(); ++p)
      for (int v = 0; v < c.network.router.vcs; ++v) {
        SCOPED_TRACE(fmt::format("router {} input {} VC {}", r, p, v));
        const InputVc& qx = x.input(p).vcs[static_cast<std::size_t>(v)];
        const InputVc& qy = y.input(p).vcs[static_cast<std::size_t>(v)];
        ASSERT_EQ(qx.buffer.size(), qy.buffer.size());
        for (int i = 0; i < qx.buffer.size(); ++i) {
          EXPECT_EQ(qx.buffer.at(i).flit.packet_id, qy.buffer.at(i).flit.packet_id);
          EXPECT_EQ(qx.buffer.at(i).flit.index, qy.buffer.at(i).flit.index);
          EXPECT_EQ(qx.buffer.at(i).ready, qy.buffer.at(i).ready);
        }
        EXPECT_EQ(qx.state, qy.state);
        if (qx.state == VcState::kActive) {
          EXPECT_EQ(qx.out_port, qy.out_port);
          EXPECT_EQ(qx.out_vc, qy.out_vc);
        }
      }
    for (int o = 0; o < ref->net->layout().outputs(); ++o)
      for (int v = 0; v < c.network.router.vcs; ++v) {
        SCOPED_TRACE(fmt::format("router {} output {} VC {}", r, o, v));
        EXPECT_EQ(x.owner(o, v), y.owner(o, v));
        EXPECT_EQ(x.output(o).credits[static_cast<std::size_t>(v)].credits(),
                  y.output(o).credits[static_cast<std::size_t>(v)].credits());
      }
  };
  // The whole network's state (Network::routers(), FlatRouters::export_state), then, later,
  // one router's at a time (Network::router(n), FlatRouters::export_router).
  sc_core::sc_start(sc_core::sc_time(1500, sc_core::SC_NS));
  ASSERT_FALSE(flat->net->finished());
  EXPECT_EQ(flat->net->flits_in_network(), flat->net->stats().flits_in_flight());
  EXPECT_EQ(ref->net->flits_in_network(), flat->net->flits_in_network());
  const auto& a = ref->net->routers();
  const auto& b = flat->net->routers();
  for (std::size_t r = 0; r < a.size(); ++r) expect_same(*a[r], *b[r], static_cast<NodeId>(r));
  sc_core::sc_start(sc_core::sc_time(777, sc_core::SC_NS));
  ASSERT_FALSE(flat->net->finished());
  EXPECT_EQ(ref->net->flits_in_network(), flat->net->flits_in_network());
  for (NodeId r = 0; r < static_cast<NodeId>(a.size()); ++r)
    expect_same(ref->net->router(r), flat->net->router(r), r);
}

// A deadlock found on the flat engine is reported from its state, as on the reference engine.
TEST(FlatEngine, DeadlockReportMatchesTheReferenceEngine) {
  const Config c = deadlock_prone_torus();
  auto ref = elaborate_engine("ref", c, Engine::kReference);
  auto flat = elaborate_engine("flat", c, Engine::kFlat);
  sc_core::sc_start();
  ASSERT_EQ(ref->net->outcome(), RunOutcome::kDeadlock);
  ASSERT_EQ(flat->net->outcome(), RunOutcome::kDeadlock);
  ASSERT_TRUE(ref->net->deadlock() && flat->net->deadlock());
  EXPECT_FALSE(ref->net->deadlock()->cycle.empty());
  EXPECT_EQ(ref->net->deadlock()->text(), flat->net->deadlock()->text());
}

// auto picks the flat engine where it can run and the reference engine elsewhere; flat where it
// cannot run is a ConfigError naming the key and the feature.
TEST(FlatEngine, AutoChoosesAndFlatRefusesWhatItCannotRun) {
  Config c = mesh_config({4, 4});
  c.validate();
  NetworkOptions opt;
  opt.quiet = true;
  SyntheticNetwork automatic("auto", c, opt);
  EXPECT_EQ(automatic.engine(), Engine::kFlat);
  struct Refused {
    const char* feature;
    void (*set)(Config&);
  };
  const std::vector<Refused> refused = {
      {"network.router.pipeline: classic",
       [](Config& k) {
         k.network.router.pipeline = PipelineModel::kClassic;
         k.network.router.pipeline_depth = 4;
       }},
      {"network.router.multidest: tree",
       [](Config& k) { k.network.router.multidest = MultidestMode::kTree; }},
      {"network.router.allocator: separable_output_first",
       [](Config& k) { k.network.router.allocator = AllocatorKind::kSeparableOutputFirst; }},
      {"network.router.link_latency other than 1",
       [](Config& k) { k.network.router.link_latency = 2; }},
      {"simulation.threads: 2", [](Config& k) { k.simulation.threads = 2; }},
  };
  int n = 0;
  for (const Refused& r : refused) {
    SCOPED_TRACE(r.feature);
    Config k = mesh_config({4, 4});
    r.set(k);
    k.validate();
    SyntheticNetwork fallback(fmt::format("fallback{}", n).c_str(), k, opt);
    EXPECT_EQ(fallback.engine(), Engine::kReference);
    k.simulation.engine = Engine::kFlat;
    try {
      SyntheticNetwork net(fmt::format("refused{}", n++).c_str(), k, opt);
      ADD_FAILURE() << "no error";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("simulation.engine"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(r.feature), std::string::npos) << e.what();
    }
  }
  // A flit record counts hops in 16 bits: the longest route (the sum of side - 1 over the
  // dimensions under dimension-order routing, nodes - 1 on a Hamiltonian path) must fit.
  const auto why = [](std::vector<int> dims, RoutingAlgorithm algorithm) {
    Config k = mesh_config(std::move(dims));
    k.network.routing.algorithm = algorithm;
    return FlatRouters::ineligible(k, 1);
  };
  EXPECT_EQ(why({32768, 2}, RoutingAlgorithm::kDimensionOrder), "");
  EXPECT_NE(why({65536, 2}, RoutingAlgorithm::kDimensionOrder)
                .find("network.dims: a route may take 65536 hops"),
            std::string::npos);
  EXPECT_EQ(why({256, 256}, RoutingAlgorithm::kHamiltonian), "");
  EXPECT_NE(why({512, 256}, RoutingAlgorithm::kHamiltonian).find("131071 hops"), std::string::npos);
  // A credit counter keeps its last credit's cycle in 48 bits: runs that could reach cycle
  // 2^48 - 1 are left to the reference engine (validated configs stay below 3 * 2^40).
  Config longest = mesh_config({4, 4});
  longest.simulation.warmup_cycles = Cycle{1} << 47;
  EXPECT_EQ(FlatRouters::ineligible(longest, 1), "");
  longest.simulation.measure_cycles = Cycle{1} << 47;
  EXPECT_NE(FlatRouters::ineligible(longest, 1).find("a credit counter records"),
            std::string::npos);
  // A probe asked for before the run moves an auto network to the reference engine.
  SyntheticNetwork probed("probed", c, opt);
  ASSERT_EQ(probed.engine(), Engine::kFlat);
  probed.enable_probes({0});
  EXPECT_EQ(probed.engine(), Engine::kReference);
}

}  // namespace
}  // namespace wormsim::testing
