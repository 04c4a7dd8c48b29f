// How the network gets the router at each node. The fabric knows only the Router interface
// (router/router.h); which model stands behind it (the C++ router, or the Verilated RTL router
// of the optional cosim layer, docs/rtl.md) is the factory's choice, so the fabric builds and
// runs without Verilator. A network without a factory uses the C++ router everywhere and
// rejects a config that asks for another implementation.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "config.h"
#include "multicast_route.h"
#include "multicast_table.h"
#include "route_compute.h"
#include "router.h"
#include "topology.h"

namespace wormsim {

// Everything a router is built from; references stay valid for the network's lifetime.
struct RouterContext {
  const RouterParams& params;
  const RouteCompute& route_compute;
  const MulticastRoute* multicast;  // null without multidestination worms
  const MulticastTable* table;
  const Config& config;
  const Topology& topology;
  std::uint64_t period_ps;  // clock period, for waveform time stamps
};

class RouterFactory {
 public:
  virtual ~RouterFactory() = default;
  // The router at node context.params.id, named `name`.
  virtual std::unique_ptr<Router> make(const char* name, const RouterContext& context) = 0;
  // Waveform files the routers it made write (RTL routers), in creation order.
  virtual std::vector<std::string> trace_files() const { return {}; }
  // Flushes and closes those waveforms (later cycles are not traced).
  virtual void close_traces() {}
};

}  // namespace wormsim
