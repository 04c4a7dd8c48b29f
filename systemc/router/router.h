// Input-queued virtual-channel wormhole router (DESIGN.md section 4). Per cycle, in order:
// accept flits and credits that arrived on its links; route-compute new heads; VC
// allocation; switch allocation; crossbar traversal onto output links (arriving
// link_latency cycles later) with a credit sent upstream (arriving credit_latency cycles
// later). Under the delay pipeline model a flit may compete for VC/switch allocation from
// pipeline_depth - 1 cycles after it was written into its buffer; under the staged models a
// head passes RC, VA and SA as stages one cycle each (some merged or skipped by the model) and
// every flit crosses the switch in the cycle after it won SA (docs/timing-model.md, "Router
// pipeline"). All reads are of state that arrived in earlier cycles, so routers can be
// evaluated in any order within a cycle.
//
// The router is an sc_module for naming and tracing; its evaluation is driven by the
// network's cycle loop through step(), which only calls it in cycles where it has work.
// RtlRouter (systemc/cosim/rtl_router.h) derives from it: the Verilated RTL router behind the same
// interface, with this class's buffers, VC states and owner table kept as a mirror of the RTL
// state for deadlock reports and probes.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <systemc>
#include <vector>

#include "activity_calendar.h"
#include "config.h"
#include "crossbar.h"
#include "flit_probe.h"
#include "input_port.h"
#include "router_observer.h"
#include "output_port.h"
#include "port_layout.h"
#include "route_compute.h"
#include "switch_allocator.h"
#include "vc_allocator.h"

namespace wormsim {

struct RouterParams {
  NodeId id = 0;
  PortLayout layout;
  int vcs = 1;
  int buffer_depth = 1;
  int pipeline_depth = 1;
  PipelineModel pipeline = PipelineModel::kDelay;
  AllocatorKind allocator = AllocatorKind::kSeparableInputFirst;
  Replication replication = Replication::kAsynchronous;
  // cut_through: a replicating worm takes its output VCs only when each branch's downstream
  // VC buffer has room for the whole worm (docs/multidestination.md).
  ReplicationFlow replication_flow = ReplicationFlow::kWormhole;
};

class Router : public sc_core::sc_module {
  friend class FlatRouters;  // export_state: the flat engine's state for deadlock reports

 public:
  // `multicast` routes multidestination worms; null when the network has none.
  Router(const sc_core::sc_module_name& name, const RouterParams& params,
         const RouteCompute& route_compute, const MulticastRoute* multicast = nullptr);

  struct StepResult {
    int moved = 0;       // flits that crossed the crossbar this cycle
    int replicated = 0;  // of those, copies beyond one per buffered flit (multidestination)
    int stripped = 0;    // address flits dropped (minimal path-IR router)
    // Next cycle this router must be evaluated even if nothing arrives for it, or kNever.
    // A router whose step moved nothing and changed no state cannot make progress until a
    // flit or credit arrives (which wakes it) or a buffered flit clears its pipeline delay.
    Cycle wake_at = ActivityCalendar::kNever;
    bool noted = false;  // a deferred step recorded observer events: commit() must run
  };
  // A wake-up a deferred step's sends cause: `component` in cycle `at`.
  struct Wake {
    int component;
    Cycle at;
  };
  // A send a deferred step leaves to the network: on a cross-thread link.
  struct Push {
    Link* link;
    Flit flit;
    int credit_vc;  // >= 0: a credit for this VC upstream; -1: `flit` downstream
  };
  // What deferred steps leave to the network, appended step after step (one per thread).
  struct Deferred {
    std::vector<Wake> wakes;   // every send's wake-up, in the order the sends are made
    std::vector<Push> pushes;  // the sends on cross-thread links
  };
  // Evaluates one cycle; a contract violation inside (std::logic_error) is rethrown with the
  // router's name and the cycle.
  //
  // With `deferred` (the network's parallel phase, docs/architecture.md "One cycle") the step
  // writes only this router's own state, `*deferred`, and the links on which only it and
  // routers of the same thread act in the phase: it sends on those links itself, records its
  // sends on cross-thread links (mark_cross_thread) in `deferred->pushes` (the network makes
  // them after the phase, when their receivers have read the links), appends the wake-up of every send to
  // `deferred->wakes` in send order instead of making it, and records its observer events;
  // `calendar` is not touched. commit() makes the observer calls (only needed when the step's
  // result says `noted`), in the order an undeferred step makes them; it must run before the
  // router steps again.
  StepResult step(Cycle now, ActivityCalendar& calendar, bool measuring,
                  Deferred* deferred = nullptr);
  void commit(Cycle now);
  // Which implementation this is ("systemc" or "rtl"), for reports.
  virtual const char* implementation() const { return "systemc"; }
  // Cache hints for a step that follows soon (the network's cycle loop gives them a few
  // components ahead, so the memory accesses of several steps overlap). Stage s reads only
  // what stage s - 1 fetched: 0 this object, 1 its port tables and masks, 2 the links and input
  // VCs with work, 3 the buffers and output ports of the VCs holding an output VC. They change
  // nothing.
  void prefetch(int stage) const;
  // The earliest cycle from which a front flit of an input VC has waited without moving
  // (InputVc::front_since), or ActivityCalendar::kNever with every buffer empty.
  Cycle oldest_waiting_front() const;

  void attach_input(int port, Link* link) {
    inputs_[static_cast<std::size_t>(port)].link = link;
    link->flit_watch = &flits_pending_;
    link->flit_watch_bit = std::uint64_t{1} << port;
  }
  // For a network that steps routers on several threads: the link of input (`input`) or
  // output `port` connects this router to a router another thread steps, so a deferred step
  // leaves its sends on that link to the network.
  void mark_cross_thread(bool input, int port) {
    (input ? cross_thread_inputs_ : cross_thread_outputs_) |= std::uint64_t{1} << port;
  }
  void attach_output(int port, Link* link) {
    outputs_[static_cast<std::size_t>(port)].link = link;
    link->credit_watch = &credits_pending_;
    link->credit_watch_bit = std::uint64_t{1} << port;
  }

  NodeId id() const { return params_.id; }
  const RouterParams& params() const { return params_; }
  int buffered() const { return buffered_; }
  const InputPort& input(int port) const { return inputs_[static_cast<std::size_t>(port)]; }
  const OutputPort& output(int port) const { return outputs_[static_cast<std::size_t>(port)]; }
  // Input VC (in_port * vcs + vc) holding output VC (port, vc), or -1 when free.
  int owner(int out_port, int out_vc) const {
    return owner_[static_cast<std::size_t>(out_port * params_.vcs + out_vc)];
  }

  // Tracing: probes are updated every cycle once enabled (the network then evaluates this
  // router every cycle).
  void enable_probes() { probes_enabled_ = true; }
  // Stops updating the probes and clears them (end of a trace window).
  void disable_probes() {
    probes_enabled_ = false;
    for (FlitProbe& p : in_probes_) p.clear();
    for (FlitProbe& p : out_probes_) p.clear();
    std::fill(occupancy_.begin(), occupancy_.end(), 0u);
  }
  // Observers of this router (observe/router_observer.h): contention and blocking (collective
  // runs: every flit that waits for a channel held by, or granted to, another packet, seed 000
  // section 4.2) and flit departures (lock-step equivalence, docs/rtl.md). Not owned.
  void add_observer(RouterObserver* observer) {
    if (observer->wants_departures()) observers_.push_back(observer);
    if (observer->wants_contention()) contention_observers_.push_back(observer);
    if (observer->wants_blocking()) blocking_observers_.push_back(observer);
  }
  // Windowed runs: the router adds up the blocked flit-cycles it reports in measured steps
  // (router_observer.h: on_blocked, and one cycle per on_blocked_by; the definition of
  // MessageRecord::blocked_cycles), by class, without an observer call per report, so parallel
  // steps record nothing for it (Statistics::on_blocked takes the sums at the end of a run).
  void count_blocking() { counting_blocking_ = true; }
  // Those flit-cycles of unicast packets (false) or multidestination worms (true).
  std::uint64_t blocked_flit_cycles(bool multidest) const {
    return blocked_flit_cycles_[multidest ? 1 : 0];
  }
  const std::vector<FlitProbe>& input_probes() const { return in_probes_; }
  const std::vector<FlitProbe>& output_probes() const { return out_probes_; }
  const std::vector<unsigned>& occupancy_probes() const { return occupancy_; }

 protected:
  // Writes a flit that arrived on input `port` into its VC buffer, eligible from `ready`.
  void buffer_arrival(int port, const Flit& flit, Cycle ready) {
    InputPort& in = inputs_[static_cast<std::size_t>(port)];
    if (flit.vc >= params_.vcs) throw_no_such_vc(flit.vc);
    InputVc& ivc = in.vcs[flit.vc];
    ivc.front_since = ivc.buffer.empty() ? ready : ivc.front_since;  // a select, not a branch
    ivc.buffer.push(flit, ready);
    busy_vcs_[static_cast<std::size_t>(port)] |= 1u << flit.vc;
    busy_ports_ |= std::uint64_t{1} << port;
    if (probes_enabled_) in_probes_[static_cast<std::size_t>(port)].show(flit);
    ++buffered_;
  }
  [[noreturn]] void throw_no_such_vc(int vc) const;
  // Sends `flit` on output (out_port, out_vc): credit, probes, statistics, event log, link.
  void send(Cycle now, ActivityCalendar& calendar, bool measuring, int out_port, int out_vc,
            Flit& flit);
  // The flit leaves on its output link now (switch traversal): probes, statistics, event log.
  void depart(Cycle now, ActivityCalendar& calendar, bool measuring, int out_port,
              const Flit& flit);
  void send_credit(Cycle now, ActivityCalendar& calendar, int in_port, int vc);
  // One cycle of this implementation (the C++ router here; RtlRouter overrides it).
  virtual StepResult step_unchecked(Cycle now, ActivityCalendar& calendar, bool measuring);
  // Probes: buffer occupancy of every input VC after this cycle.
  void update_occupancy_probes();
  // Removes the front flit of an input VC; the freed slot goes back upstream as a credit.
  void pop_input(Cycle now, ActivityCalendar& calendar, int in_port, int vc);
  void log_departure(Cycle now, int out_port, const Flit& flit) {
    if (observers_.empty()) return;
    const FlitEvent e{now, params_.id, out_port, flit.vc, flit.packet_id, flit.index};
    if (deferred_ != nullptr) {
      notes_.push_back(
          {Note::kDeparture, false, out_port, flit.vc, flit.index, flit.packet_id, 0, 0});
      return;
    }
    for (RouterObserver* o : observers_) o->on_departure(e);
  }
  bool contention_observed() const { return !contention_observers_.empty(); }
  bool blocking_observed() const { return counting_blocking_ || !blocking_observers_.empty(); }
  // The worm at the front of `ivc` (holding flits) was blocked for `cycles`, reported in `now`.
  void note_blocked(const InputVc& ivc, Cycle cycles, Cycle now) {
    emit_blocked(ivc.buffer.front().flit.mcast != 0, ivc.packet, cycles, now);
  }
  void note_blocked_by(const InputVc& ivc, PacketId winner, Cycle now) {
    emit_blocked_by(ivc.buffer.front().flit.mcast != 0, ivc.packet, winner, now);
  }
  void note_contention(PacketId waiting, PacketId holder, int port, Cycle now) {
    if (contention_observers_.empty()) return;
    if (deferred_ != nullptr) {
      notes_.push_back({Note::kContention, false, port, 0, 0, waiting, holder, 0});
      return;
    }
    for (RouterObserver* o : contention_observers_)
      o->on_contention(waiting, holder, params_.id, port, now);
  }

 private:
  // The bodies of send() and pop_input(), inlined into this router's own switch traversal.
  void send_inline(Cycle now, ActivityCalendar& calendar, bool measuring, int out_port, int out_vc,
                   Flit& flit);
  void pop_input_inline(Cycle now, ActivityCalendar& calendar, int in_port, int vc);
  void receive(Cycle now);
  void allocate_vcs(Cycle now, ActivityCalendar& calendar);
  void allocate_switch(Cycle now);
  void report_vc_contention(Cycle now);
  void allocate_replica_vcs(Cycle now);
  void allocate_replica_switch(Cycle now);
  int traverse(Cycle now, ActivityCalendar& calendar, bool measuring);
  // Staged pipelines: the ST stage, the flits that won SA last cycle cross the switch and
  // their slots' credits go upstream. Returns the flits sent.
  int switch_traversal(Cycle now, ActivityCalendar& calendar, bool measuring);
  // Speculative pipelines: SA requests of heads bidding for a VC this cycle (made before VA).
  void collect_speculative_request(const InputVc& ivc, int port, int vc);
  void grant_speculative(Cycle now);
  // When the head of `ivc` became eligible for VA (blocking statistics).
  Cycle va_since(const InputVc& ivc) const {
    return staged_ ? ivc.next_at : std::max(ivc.buffer.front().ready, ivc.head_at);
  }
  int traverse_replicas(Cycle now, ActivityCalendar& calendar, bool measuring, int& replicated);
  void emit_blocked(bool multidest, PacketId packet, Cycle cycles, Cycle now) {
    if (measuring_) blocked_flit_cycles_[multidest ? 1 : 0] += cycles;
    if (blocking_observers_.empty()) return;
    if (deferred_ != nullptr) {
      notes_.push_back({Note::kBlocked, multidest, 0, 0, 0, packet, 0, cycles});
      return;
    }
    for (RouterObserver* o : blocking_observers_) {
      o->on_blocked(packet, cycles);
      o->on_blocked_flits(multidest, cycles, now);
    }
  }
  void emit_blocked_by(bool multidest, PacketId packet, PacketId winner, Cycle now) {
    if (measuring_) ++blocked_flit_cycles_[multidest ? 1 : 0];
    if (blocking_observers_.empty()) return;
    if (deferred_ != nullptr) {
      notes_.push_back({Note::kBlockedBy, multidest, 0, 0, 0, packet, winner, 1});
      return;
    }
    for (RouterObserver* o : blocking_observers_) {
      o->on_blocked_by(packet, winner);
      o->on_blocked_flits(multidest, 1, now);
    }
  }
  InputVc& input_vc(int index) {
    return inputs_[static_cast<std::size_t>(index / params_.vcs)]
        .vcs[static_cast<std::size_t>(index % params_.vcs)];
  }

 protected:
  RouterParams params_;
  const RouteCompute& route_compute_;
  const MulticastRoute* multicast_;
  std::vector<InputPort> inputs_;
  std::vector<OutputPort> outputs_;
  std::vector<int> owner_;  // [out_port * vcs + vc] -> input VC or -1
  VcAllocator vc_allocator_;
  SwitchAllocator switch_allocator_;
  // Staged pipeline model (everything but PipelineModel::kDelay): cycles of the RC stage (0
  // with lookahead routing), cycles from a VA grant to the first SA bid (0 when VA and SA
  // share a stage), and whether heads bid for the switch speculatively during VA.
  bool staged_ = false;
  Cycle rc_cycles_ = 0;
  Cycle va_to_sa_cycles_ = 0;
  bool speculative_ = false;
  SwitchAllocator speculative_allocator_;  // its own round-robin state (Peh-Dally)
  std::vector<SwitchRequest> speculative_requests_;
  std::vector<SwitchRequest> speculative_grants_;
  // The ST pipeline register: flits that won SA this cycle (port = output port, credit_vc < 0)
  // and the credits of the slots they freed (port = input port, credit_vc = VC), in order.
  struct StageSlot {
    int port;
    int credit_vc;
    Flit flit;
  };
  std::vector<StageSlot> traversing_;
  std::vector<StageSlot> traversing_now_;
  Crossbar crossbar_;
  int buffered_ = 0;
  bool changed_ = false;  // this step granted a VC (or, staged, the switch)
  Cycle next_ready_ = 0;  // earliest future eligibility among front flits
  // Input VCs holding flits, as bit masks, so allocation visits only those.
  std::uint64_t flits_pending_ = 0;        // bit p: input link p has flits in flight
  std::uint64_t credits_pending_ = 0;      // bit p: output link p has credits in flight
  std::uint64_t busy_ports_ = 0;           // bit p: input port p has a non-empty VC
  std::vector<std::uint32_t> busy_vcs_;    // per input port, bit v: VC v non-empty
  std::vector<std::uint32_t> active_vcs_;  // per input port, bit v: VC v holds its output VC(s)

  std::vector<VcRequest> vc_requests_;
  std::vector<VcGrant> vc_grants_;
  std::vector<SwitchRequest> switch_requests_;
  std::vector<SwitchRequest> switch_grants_;
  // Replicating worms: input VCs waiting for their output VCs / with flits to send, the
  // branches granted this cycle (input VC, branch bit mask), and the round-robin pointers of
  // the two replica allocations (service starts at the first requester at or after them).
  struct ReplicaGrant {
    int input_vc;
    std::uint64_t branches;
  };
  std::vector<int> replica_vc_requests_;
  std::vector<int> replica_switch_requests_;
  std::vector<ReplicaGrant> replica_grants_;
  std::vector<MulticastBranch> branch_scratch_;
  std::uint64_t ports_taken_in_ = 0;
  // Minimal path-IR router: input ports whose buffer dropped a stripped address flit this
  // cycle (allocate_vcs); they send no flit this cycle.
  std::uint64_t strip_ports_ = 0;
  int stripped_ = 0;  // address flits dropped in this step
  std::uint64_t ports_taken_out_ = 0;
  int replica_va_next_ = 0;
  int replica_sa_next_ = 0;

  std::vector<RouterObserver*> observers_;
  std::vector<RouterObserver*> contention_observers_;
  std::vector<RouterObserver*> blocking_observers_;

  // Observer events of a deferred step, in the order an undeferred step has them.
  struct Note {
    enum Kind : std::uint8_t { kDeparture, kContention, kBlocked, kBlockedBy } kind;
    bool multidest;
    int port;
    int vc;
    int index;
    PacketId packet;  // the departing, waiting or blocked packet
    PacketId other;   // the holder or winner
    Cycle cycles;
  };
  Deferred* deferred_ = nullptr;  // set during a deferred step
  bool measuring_ = false;        // count_blocking() and this step is inside the measurement window
  std::uint64_t cross_thread_inputs_ = 0;  // mark_cross_thread
  std::uint64_t cross_thread_outputs_ = 0;
  std::vector<Note> notes_;
  bool probes_enabled_ = false;
  std::vector<FlitProbe> in_probes_;
  std::vector<FlitProbe> out_probes_;
  std::vector<unsigned> occupancy_;                     // [in_port * vcs + vc]
  bool counting_blocking_ = false;                      // count_blocking()
  std::array<std::uint64_t, 2> blocked_flit_cycles_{};  // counted in measured steps, by class
};

}  // namespace wormsim
