// Simulation speed benchmark (DESIGN.md section 7): simulated cycles per wall second and
// delivered flits per wall second. One SystemC elaboration per process, so run one case per
// invocation: scripts/bench does that (--benchmark_filter=^<name>$) and tabulates the results.
#include <systemc>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <thread>

#include "router_backend.h"
#include "synthetic_network.h"

namespace {

using namespace wormsim;

Config mesh(int side, int packet_length, double rate, Cycle measure) {
  Config c;
  c.network.topology.kind = TopologyKind::kMesh;
  c.network.topology.dims = {side, side};
  c.network.router.vcs = 4;
  c.network.router.buffer_depth = 4;
  c.traffic.pattern = TrafficPattern::kUniformRandom;
  c.traffic.injection_rate = rate;
  c.traffic.packet_length = packet_length;
  c.simulation.warmup_cycles = rate > 0 ? 1000 : 0;
  c.simulation.measure_cycles = measure;
  c.simulation.progress_interval = 0;
  c.simulation.threads = 1;  // single-core speed; the *_T<n> cases scale threads
  c.validate();
  return c;
}

// Thread scaling (simulation.threads; docs/performance.md "Threads"): the same run on n threads
// of the reference engine (the flat engine runs on one thread: the *_Flat cases).
Config threads(Config c, int n) {
  c.simulation.threads = n;
  c.simulation.engine = Engine::kReference;
  c.validate();
  return c;
}

// One thread per core of this machine (at least 1, at most simulation.threads' 256).
int cores() { return std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, 256); }

void run_case(benchmark::State& state, const Config& config) {
  if (config.network.router.implementation == RouterImplementation::kRtl && !rtl_available()) {
    state.SkipWithError("needs the RTL router (a build with WORMSIM_RTL)");
    return;
  }
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    NetworkOptions opt;
    opt.quiet = true;
    opt.router_factory = make_router_factory(config);
    SyntheticNetwork net("net", config, opt);
    const auto t1 = std::chrono::steady_clock::now();
    sc_core::sc_start();
    const auto t2 = std::chrono::steady_clock::now();
    const double sim = std::chrono::duration<double>(t2 - t1).count();
    state.SetIterationTime(sim);
    state.counters["build_s"] = std::chrono::duration<double>(t1 - t0).count();
    state.counters["sim_s"] = sim;
    state.counters["cycles"] = static_cast<double>(net.cycles());
    state.counters["cycles_per_s"] = static_cast<double>(net.cycles()) / sim;
    state.counters["flits"] = static_cast<double>(net.stats().flits_ejected());
    state.counters["flits_per_s"] = static_cast<double>(net.stats().flits_ejected()) / sim;
    state.counters["threads"] = net.threads();
    if (net.outcome() != RunOutcome::kCompleted) state.SkipWithError("run did not complete");
  }
}

#define WORMSIM_BENCH(name, cfg)                               \
  void name(benchmark::State& state) { run_case(state, cfg); } \
  BENCHMARK(name)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond)

WORMSIM_BENCH(Mesh8x8_UR0p1_1flit, mesh(8, 1, 0.1, 40000));
WORMSIM_BENCH(Mesh8x8_UR0p1_5flit, mesh(8, 5, 0.1, 40000));
WORMSIM_BENCH(Mesh16x16_UR0p1_1flit, mesh(16, 1, 0.1, 10000));
WORMSIM_BENCH(Mesh16x16_UR0p1_5flit, mesh(16, 5, 0.1, 10000));
WORMSIM_BENCH(Mesh32x32_UR0p1_1flit, mesh(32, 1, 0.1, 3000));
WORMSIM_BENCH(Mesh32x32_UR0p1_5flit, mesh(32, 5, 0.1, 3000));
WORMSIM_BENCH(Mesh64x64_UR0p1_1flit, mesh(64, 1, 0.1, 1000));
WORMSIM_BENCH(Mesh64x64_UR0p1_5flit, mesh(64, 5, 0.1, 1000));
WORMSIM_BENCH(Mesh64x64_Idle_1M, mesh(64, 5, 0.0, 1000000));
WORMSIM_BENCH(Mesh32x32_UR0p1_5flit_T1, threads(mesh(32, 5, 0.1, 3000), 1));
WORMSIM_BENCH(Mesh32x32_UR0p1_5flit_T2, threads(mesh(32, 5, 0.1, 3000), 2));
WORMSIM_BENCH(Mesh64x64_UR0p02_5flit_T1, threads(mesh(64, 5, 0.02, 1000), 1));
WORMSIM_BENCH(Mesh64x64_UR0p02_5flit_T2, threads(mesh(64, 5, 0.02, 1000), 2));
// The same two runs on the flat engine (one thread; docs/architecture.md "The flat engine").
WORMSIM_BENCH(Mesh32x32_UR0p1_5flit_Flat, mesh(32, 5, 0.1, 3000));
WORMSIM_BENCH(Mesh64x64_UR0p02_5flit_Flat, mesh(64, 5, 0.02, 1000));
// One thread per core (scripts/bench skips these on 2-core machines, where they are *_T2).
WORMSIM_BENCH(Mesh32x32_UR0p1_5flit_Tcores, threads(mesh(32, 5, 0.1, 3000), cores()));
WORMSIM_BENCH(Mesh64x64_UR0p02_5flit_Tcores, threads(mesh(64, 5, 0.02, 1000), cores()));

// The same traffic through RTL routers (docs/rtl.md): the cost of cosimulation.
Config rtl(Config c) {
  c.network.router.implementation = RouterImplementation::kRtl;
  c.validate();
  return c;
}
WORMSIM_BENCH(Mesh8x8_UR0p1_5flit_4k, mesh(8, 5, 0.1, 4000));  // the RTL case's traffic
WORMSIM_BENCH(Mesh8x8_UR0p1_5flit_Rtl, rtl(mesh(8, 5, 0.1, 4000)));
WORMSIM_BENCH(Mesh8x8_UR0p3_5flit, mesh(8, 5, 0.3, 4000));
WORMSIM_BENCH(Mesh8x8_UR0p3_5flit_Rtl, rtl(mesh(8, 5, 0.3, 4000)));
// A 4x4x4 mesh (64 nodes, 6 network ports): its RTL routers are the wide build shaped for
// one-port unicast routers (Vwormsim_router_wide1).
Config mesh3d(Config c) {
  c.network.topology.dims = {4, 4, 4};
  c.validate();
  return c;
}
WORMSIM_BENCH(Mesh4x4x4_UR0p1_5flit_4k, mesh3d(mesh(8, 5, 0.1, 4000)));
WORMSIM_BENCH(Mesh4x4x4_UR0p1_5flit_RtlWide, rtl(mesh3d(mesh(8, 5, 0.1, 4000))));
// An 8-cube (256 nodes, 8 network ports): its RTL routers are the cube build, which runs a
// few cycles per second, so 100 warm-up and 200 measured cycles.
Config cube8(Config c) {
  c.network.topology.kind = TopologyKind::kHypercube;
  c.network.topology.hypercube_dimension = 8;
  c.network.routing.algorithm = RoutingAlgorithm::kEcube;
  c.simulation.warmup_cycles = 100;
  c.validate();
  return c;
}
WORMSIM_BENCH(Hypercube8_UR0p1_5flit_200, cube8(mesh(8, 5, 0.1, 200)));
WORMSIM_BENCH(Hypercube8_UR0p1_5flit_200_RtlCube, rtl(cube8(mesh(8, 5, 0.1, 200))));

}  // namespace

[[maybe_unused]] static const bool kQuietSystemC =
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0) == 0;

int sc_main(int argc, char* argv[]) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
