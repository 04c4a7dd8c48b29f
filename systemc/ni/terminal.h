// Network endpoint of one node for synthetic traffic: a packet source with an unbounded
// source queue, the injection channels into the router (one DMA engine each: a channel sends
// one packet at a time, one flit per cycle while it holds a credit for the packet's VC), and
// the ejection channels out of the router, consumed at one flit per cycle per channel (the
// ejection side never back-pressures). Packet arrivals are Bernoulli with probability
// injection_rate / packet_length per cycle, drawn as geometric gaps so an idle source costs
// nothing per cycle. A port-model rule picks the channel: one-port uses channel 0, k-port the
// first idle channel, all-port the channel of the packet's first-hop direction.
// With multidestination support a share of the packets are worms to several destinations
// (drawn by traffic.multicast_pattern, ni/multicast_destinations.h), each costing the header
// flits its destination list needs (docs/multidestination.md). Without it (multidest none)
// such a multicast is a software tree of unicast packets (ni/software_multicast.h): the
// terminal sends its share, and forwards what it receives for an operation after consuming it.
#pragma once

#include <deque>
#include <random>
#include <vector>

#include "activity_calendar.h"
#include "injection_channel.h"
#include "link.h"
#include "multicast_destinations.h"
#include "multicast_route.h"
#include "multicast_table.h"
#include "network_endpoint.h"
#include "packet_reassembly.h"
#include "port_layout.h"
#include "route_compute.h"
#include "scoreboard.h"
#include "software_multicast.h"
#include "statistics.h"
#include "traffic_pattern.h"

namespace wormsim {

struct TerminalParams {
  NodeId id = 0;
  int nodes = 1;
  int component = 0;  // calendar index
  PortLayout layout;
  int vcs = 1;
  int buffer_depth = 1;  // router input buffer depth = injection credits per VC
  int flit_bytes = 8;
  int packet_length = 1;
  double injection_rate = 0;
  Cycle generate_until = 0;  // no new synthetic packets from this cycle on
  std::uint64_t seed = 1;
  MultidestMode multidest = MultidestMode::kNone;
  HeaderEncoding header_encoding = HeaderEncoding::kAddressList;
  PathIr path_ir = PathIr::kFull;
  double multicast_fraction = 0;
  int multicast_destinations = 0;
  MulticastPattern multicast_pattern = MulticastPattern::kRandom;
  std::vector<NodeId> hotspots;  // traffic.hotspot.nodes (multicast_pattern hotspot)
};

class Terminal : public NetworkEndpoint {
 public:
  Terminal(const TerminalParams& params, const DestinationPicker& picker, const Topology& topology,
           const RouteCompute& route_compute, MulticastTable& multicast, Scoreboard& scoreboard,
           Statistics& stats);
  // With multidest none a multicast is a software multicast recorded in `software` (shared by
  // all terminals; required for one); `host` holds a windowed run open while a forward waits
  // out its software overhead. Neither is owned.
  void attach_software_multicast(SoftwareMulticast* software, EndpointHost* host) {
    software_ = software;
    host_ = host;
  }

  void attach_injection(int channel, Link* link) override;
  void attach_ejection(int channel, Link* link) override;

  // Arms the synthetic source (first arrival) in the calendar.
  void start(ActivityCalendar& calendar) override;
  // Queues a packet created at cycle `at` (scripted traffic for tests and experiments).
  void schedule_packet(NodeId dst, int length, Cycle at, ActivityCalendar& calendar);
  // A scripted multicast of `length` payload flits (the caller checked `dests`): one
  // multidestination worm, or with multidest none a software multicast.
  void schedule_multicast(const std::vector<NodeId>& dests, int length, Cycle at,
                          ActivityCalendar& calendar);

  StepResult step(Cycle now, ActivityCalendar& calendar, bool measuring) override;
  // The network's parallel phase, in runs without multicasts (SyntheticNetwork): the step's
  // calls on the statistics, scoreboard and calendar go to `effects`.
  bool defers() const override { return true; }
  StepResult step_deferred(Cycle now, ActivityCalendar& calendar, bool measuring,
                           EndpointEffects& effects) override;

  std::size_t queued_packets() const override;
  // A terminal's payloads are fill_payload's: it can leave them out.
  bool set_payload_free(bool on) override;

 private:
  // Addresses per header flit when a worm's list sits in address flits
  // (routing/multicast_route.h addresses_per_header_flit), else 0.
  int per_flit() const { return per_flit_; }
  // Payload bytes of flit `index` of a packet with `header_flits` header flits: none in the
  // address flits before a worm's last, a flit's worth else.
  int payload_bytes(int index, int header_flits) const {
    return per_flit() > 0 && index < header_flits - 1 ? 0 : params_.flit_bytes;
  }
  struct Pending {
    PacketId id;
    NodeId dst;
    int length;
    std::uint32_t mcast;  // multidestination header handle; 0 = unicast
    int header_flits;     // the head plus a worm's extra header flits
  };
  struct Scripted {
    NodeId dst;
    int length;
    std::vector<NodeId> dests;  // multidestination worm; empty = unicast to dst
  };
  struct Channel {
    InjectionChannel wire;
    Pending packet{};
  };

  Cycle draw_gap();
  PacketId create_packet(NodeId dst, int length, Cycle now, std::vector<NodeId> dests = {},
                         bool software = false);
  void create_multicast(std::vector<NodeId> dests, int length, Cycle now);
  void create_software(const SoftwareMulticast::Packet& p, Cycle now);
  int inject(Cycle now, ActivityCalendar& calendar, bool measuring);
  int eject(Cycle now, ActivityCalendar& calendar);
  void consume(int channel, const Flit& flit, Cycle now, ActivityCalendar& calendar);
  void receive_software(PacketId id, Cycle now, ActivityCalendar& calendar);
  // calendar.wake, or recorded in a deferred step.
  void wake(ActivityCalendar& calendar, int component, Cycle at) {
    if (effects_ != nullptr)
      effects_->wake(component, at);
    else
      calendar.wake(component, at);
  }
  std::deque<Pending>& queue_for(int channel) {
    return queues_[params_.layout.model == PortModel::kAllPort ? static_cast<std::size_t>(channel)
                                                               : 0];
  }

  // What every step reads, first (next to the vtable pointer; 2026-11-29: scattered over the
  // object, they cost a synthetic run's terminal steps a first-level cache miss each).
  std::uint64_t eject_pending_ = 0;    // bit c: ejection channel c has flits in flight
  std::uint64_t credits_pending_ = 0;  // bit c: credits in flight to injection channel c
  std::uint64_t tx_busy_ = 0;          // bit c: injection channel c has a packet in progress
  std::size_t queued_ = 0;             // packets in queues_
  Cycle next_arrival_ = 0;
  Cycle generate_until_ = 0;                        // params_.generate_until
  Cycle next_scripted_ = ActivityCalendar::kNever;  // scripted_.front().first, or never
  Cycle next_forward_ = ActivityCalendar::kNever;   // forwards_.front().first, or never
  EndpointEffects* effects_ = nullptr;              // during step_deferred()
  bool synthetic_ = false;
  bool payload_free_ = false;  // set_payload_free()
  RouteResult unicast_vcs_;    // route_compute_.injection_vcs(), per traffic class
  RouteResult worm_vcs_;
  std::vector<Channel> channels_;
  std::vector<Link*> ejection_;

  TerminalParams params_;
  int per_flit_;  // per_flit(), fixed by params_
  const DestinationPicker& picker_;
  const Topology& topology_;
  const RouteCompute& route_compute_;
  MulticastTable& multicast_;
  Scoreboard& scoreboard_;
  Statistics& stats_;
  MulticastDestinations destinations_;
  std::mt19937_64 rng_;
  double arrival_probability_;
  std::uint64_t sequence_ = 0;
  std::deque<std::pair<Cycle, Scripted>> scripted_;  // sorted by creation cycle
  std::vector<std::deque<Pending>> queues_;
  PacketReassembly reassembly_;
  SoftwareMulticast* software_ = nullptr;
  EndpointHost* host_ = nullptr;
  // Forwards of software multicasts waiting for this node's software, by creation cycle (the
  // node serialises them, so the cycles never decrease), and the cycle its software is free.
  std::deque<std::pair<Cycle, SoftwareMulticast::Packet>> forwards_;
  Cycle software_free_ = 0;
  std::vector<SoftwareMulticast::Packet> received_sends_;  // scratch
};

}  // namespace wormsim
