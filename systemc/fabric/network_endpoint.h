// What the network needs from the component at each node behind the router's injection and
// ejection channels (the synthetic-traffic Terminal or the node's NetworkInterface, both in
// the ni/ layer above), and what such a component may ask of the network that hosts it. The
// network steps an endpoint, like a router, only in cycles the activity calendar schedules it;
// it creates every endpoint through one EndpointFactory, so the fabric never names a kind.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <stdexcept>
#include <systemc>

#include "activity_calendar.h"
#include "endpoint_effects.h"
#include "link.h"
#include "multicast_table.h"
#include "port_layout.h"
#include "route_compute.h"
#include "scoreboard.h"
#include "stack_arena.h"
#include "statistics.h"
#include "topology.h"

namespace wormsim {

// The network as an endpoint sees it outside its own step(): simulated time, a wake-up for
// work that arrives from outside the cycle loop (a processor writing an NI register in cycle
// c takes effect in cycle c + 1 at the earliest), the clock period, and, for scripted traffic,
// a cycle before which a windowed run must not end.
class EndpointHost {
 public:
  virtual ~EndpointHost() = default;
  // The simulated cycle at the current SystemC time.
  virtual Cycle current_cycle() const = 0;
  // `component` must be evaluated in cycle `at`, which must be after the current cycle.
  virtual void external_wake(int component, Cycle at) = 0;
  virtual sc_core::sc_time clock_period() const = 0;
  // A windowed run does not end before cycle `at` (a packet scheduled for then).
  virtual void hold_until(Cycle at) = 0;
  virtual ActivityCalendar& calendar() = 0;
};

class NetworkEndpoint {
 public:
  virtual ~NetworkEndpoint() = default;

  virtual void attach_injection(int channel, Link* link) = 0;
  virtual void attach_ejection(int channel, Link* link) = 0;
  // Called once before simulation starts (arms sources in the calendar).
  virtual void start(ActivityCalendar& calendar) = 0;

  struct StepResult {
    int moved = 0;      // flits injected plus flits consumed this cycle
    bool busy = false;  // must be evaluated next cycle even if nothing arrives
  };
  virtual StepResult step(Cycle now, ActivityCalendar& calendar, bool measuring) = 0;
  // Whether this endpoint can step in the network's parallel phase (docs/architecture.md, "One
  // cycle"): step_deferred() then computes what step() computes, reads no shared state but its
  // own links (which only its router writes, and only for later cycles), and records its
  // calls on the statistics, scoreboard and calendar in `effects` instead of making them
  // (`calendar` is not touched). The network replays them in the serial commit.
  virtual bool defers() const { return false; }
  virtual StepResult step_deferred(Cycle now, ActivityCalendar& calendar, bool measuring,
                                   EndpointEffects& effects) {
    (void)now, (void)calendar, (void)measuring, (void)effects;
    throw std::logic_error("step_deferred() on an endpoint that does not defer");
  }
  // Cache hints for a step that follows soon, as Router::prefetch: stage 1 and up (stage 0 is
  // this object itself, which the network fetches). They change nothing.
  virtual void prefetch(int /*stage*/) const {}
  // Payload-free flits (on: true), for the flat engine, whose flit records carry no payload
  // (fabric/flat_routers.h): the endpoint may then send flits without their payload bytes and
  // checks packets end to end by their flits' payload lengths (checksum_length_update) besides
  // their ids and order. Only before the run starts. Returns whether the endpoint is in the
  // mode asked for; an endpoint that needs its payloads (the default) refuses `true`.
  virtual bool set_payload_free(bool on) { return !on; }
  // Packets waiting at this node to enter the network.
  virtual std::size_t queued_packets() const = 0;
};

// What an endpoint factory gets: its node, calendar index and the network's shared blocks.
struct EndpointContext {
  NodeId id = 0;
  int component = 0;
  const Topology* topology = nullptr;
  const PortLayout* layout = nullptr;
  const RouteCompute* route_compute = nullptr;
  MulticastTable* multicast = nullptr;  // multidestination worm headers
  Scoreboard* scoreboard = nullptr;
  Statistics* stats = nullptr;
  EndpointHost* host = nullptr;
  // Stacks for firmware fibres (kernel/fibre.h), one arena per network: an endpoint that runs
  // firmware takes one stack from it; nothing is mapped until the first does.
  StackArena* stacks = nullptr;
};
using EndpointFactory = std::function<std::unique_ptr<NetworkEndpoint>(const EndpointContext&)>;

}  // namespace wormsim
