// Helpers shared by the system tests: small configs and a one-shot simulation runner.
// Each TEST runs in its own process (gtest_discover_tests), so each elaborates one Network.
#pragma once

#include <systemc>

#include <algorithm>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "config.h"
#include "router_observer.h"
#include "synthetic_network.h"

namespace wormsim::testing {

// docs/timing-model.md: a packet of L flits over H router-to-router hops, created in cycle c
// at an idle source, has its tail consumed by the destination NI in cycle c + T0 with
//   T0 = 2 + H*Lk + (H+1)*(P-1) + S(L)
//   S(L) = floor((L-1)/B) * max(B, R) + (L-1) mod B,  R = Lk + (P-1) + Cr
// (1 cycle each for the NI injection and ejection channels; S is the serialization of the
// body behind the head, throttled by the credit round trip R when buffers are shallower).
// `staged`: a staged pipeline model (network.router.pipeline other than delay; pipeline =
// its stage count), whose body flits take SA and ST only, so the credit round trip of a
// buffer slot is Lk + 1 + Cr + 1 whatever the depth (docs/timing-model.md).
inline Cycle zero_load_formula(int hops, int length, int pipeline, int link, int credit, int depth,
                               bool staged = false) {
  const Cycle h = static_cast<Cycle>(hops);
  const Cycle p1 = static_cast<Cycle>(pipeline - 1);
  const Cycle l1 = static_cast<Cycle>(length - 1);
  const Cycle b = static_cast<Cycle>(depth);
  const Cycle round_trip =
      static_cast<Cycle>(link) + (staged ? 2 : p1) + static_cast<Cycle>(credit);
  const Cycle serialization = (l1 / b) * std::max(b, round_trip) + l1 % b;
  return 2 + h * static_cast<Cycle>(link) + (h + 1) * p1 + serialization;
}

inline Config mesh_config(std::vector<int> dims) {
  Config c;
  c.network.topology.kind = TopologyKind::kMesh;
  c.network.topology.dims = std::move(dims);
  c.simulation.progress_interval = 0;
  return c;
}

inline Config torus_config(std::vector<int> dims) {
  Config c = mesh_config(std::move(dims));
  c.network.topology.kind = TopologyKind::kTorus;
  return c;
}

inline Config hypercube_config(int n) {
  Config c;
  c.network.topology.kind = TopologyKind::kHypercube;
  c.network.topology.hypercube_dimension = n;
  c.network.routing.algorithm = RoutingAlgorithm::kEcube;
  c.simulation.progress_interval = 0;
  return c;
}

// Deliberately deadlock-prone (configs/deadlock_torus.yaml): an 8x8 torus with one VC, no
// dateline classes, shallow buffers and heavy load; the watchdog fires after 500 still cycles.
inline Config deadlock_prone_torus() {
  Config c = torus_config({8, 8});
  c.network.routing.dateline = false;
  c.network.router.vcs = 1;
  c.network.router.buffer_depth = 2;
  c.traffic.packet_length = 8;
  c.traffic.injection_rate = 0.9;
  c.simulation.warmup_cycles = 0;
  c.simulation.measure_cycles = 20000;
  c.simulation.watchdog_cycles = 500;
  return c;
}

// Network options of a test run; synthetic_traffic false = only scripted packets (the run's
// config gets traffic.injection_rate 0).
struct RunOptions : NetworkOptions {
  RunOptions() = default;
  RunOptions(const NetworkOptions& o) : NetworkOptions(o) {}  // NOLINT: implicit on purpose
  bool synthetic_traffic = true;
};

// Builds the synthetic network (validating the config first) and runs it to completion.
inline std::unique_ptr<SyntheticNetwork> run(
    const Config& config, RunOptions options = {},
    const std::function<void(SyntheticNetwork&)>& before = {}) {
  config.validate();
  options.quiet = true;
  Config c = config;
  if (!options.synthetic_traffic) c.traffic.injection_rate = 0;
  auto net = std::make_unique<SyntheticNetwork>("net", c, static_cast<NetworkOptions>(options));
  if (before) before(*net);
  sc_core::sc_start();
  return net;
}

// A synthetic network elaborated for a later sc_start() that records every router departure
// (the recorder points at `log`, so the whole record stays where it was made).
struct RecordedNetwork {
  std::unique_ptr<SyntheticNetwork> net;
  std::vector<FlitEvent> log;
  std::unique_ptr<FlitEventRecorder> recorder;
};

inline std::unique_ptr<RecordedNetwork> elaborate_recorded(const std::string& name,
                                                           const Config& c) {
  NetworkOptions opt;
  opt.record_packets = true;
  opt.quiet = true;
  auto r = std::make_unique<RecordedNetwork>();
  r->net = std::make_unique<SyntheticNetwork>(name.c_str(), c, opt);
  r->recorder = std::make_unique<FlitEventRecorder>(&r->log);
  r->net->add_router_observer(r->recorder.get());
  return r;
}

// Every delivered packet of a run that recorded them (NetworkOptions::record_packets), in
// delivery order: id, created, injected, delivered, hops.
using Delivery = std::tuple<PacketId, Cycle, Cycle, Cycle, int>;
inline std::vector<Delivery> deliveries(const Network& net) {
  std::vector<Delivery> log;
  for (const DeliveredPacket& d : net.stats().packet_log())
    log.emplace_back(d.id, d.record.created, d.record.injected, d.delivered, d.hops);
  return log;
}

}  // namespace wormsim::testing
