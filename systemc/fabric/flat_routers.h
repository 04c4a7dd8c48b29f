// The flat router engine (simulation.engine: flat; docs/architecture.md, "The flat engine";
// docs/drafts/issue23-engine.md): every router of a network as one set of flat arrays, and the
// links between routers as writes into the receiver's state (see below), for the runs whose
// routers need no more than the delay pipeline and unicast routing. It evaluates the same
// model as Router (router/router.h) with the same rules in the same order: the same requests,
// in ascending input port and VC, into separable input-first VC and switch allocation (the
// allocators' own code, router/separable_input_first.h, on pointers kept in flat arrays), the
// same conflict-free grant, the same credits and blocked flit-cycles, so a run gives the same
// results as with Router objects, in the same cycles, though fewer routers step in them (below);
// results.json differs only in its `engine` field (testbenches/fabric/flat_routers_test.cpp
// checks departures, deliveries, statistics and evaluated cycles against the reference engine).
//
// Flits travel between the routers as 24-byte records without their payload: a synthetic
// terminal's payload is a function of the packet and flit index (fill_payload), so a flit
// leaving to an endpoint is rebuilt from its record, and the scoreboard's end-to-end checksum
// still compares what arrives with what was created. Where every endpoint accepts payload-free
// flits (the synthetic terminals do; Network asks), none is built: the terminals then send
// and check only the payload lengths. A flit entering from an endpoint is
// checked to carry no fields a record drops (message fields, multicast handle; else a
// std::logic_error).
//
// What it leaves to the network: the endpoints (NIs) and their links (Link objects, as for
// Router), the activity calendar, statistics and the watchdog. Links between routers carry
// one flit and one credit per cycle each way with latency 1, without registers: the sender
// writes a flit into the receiver's buffer ring and counts it there, and a credit into the
// receiver's counter, each marked with the cycle it becomes usable (a flit's ready cycle,
// Credits), so routers can be evaluated in any order within a cycle, and a receiver is
// woken only for the cycle a flit or credit can change what it does (send_flit, send_credit;
// the cycles evaluated are still the reference engine's: ActivityCalendar::visit_next). The
// exports (export_state) give the reference engine's state, with what was sent in the last
// cycle still on its link.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "activity_calendar.h"
#include "config.h"
#include "flit.h"
#include "link.h"
#include "port_layout.h"
#include "route_compute.h"
#include "router.h"
#include "router_observer.h"
#include "separable_input_first.h"
#include "topology.h"

namespace wormsim {

class FlatRouters {
 public:
  // Why `config` cannot run on the flat engine (the first feature that rules it out, naming its
  // key), or "" when it can. `threads`: simulation.threads as resolved by the network.
  static std::string ineligible(const Config& config, int threads);

  FlatRouters(const Config& config, const Topology& topology, const PortLayout& layout,
              const RouteCompute& route_compute);

  // The network's links, in the order it made them: the links between routers become registers
  // (their Link objects keep only the utilisation counts, written by finish()); the links to and
  // from the endpoints stay Link objects, which this engine reads and writes as Router does.
  void attach(std::deque<Link>& links, int routers);
  // One cycle of router `r`: like Router::step. Wakes itself in `calendar` when it has work in a
  // later cycle and the components its sends reach. Returns the flits it moved.
  int step(int r, Cycle now, ActivityCalendar& calendar, bool measuring) {
    return (this->*step_)(r, now, calendar, measuring);
  }
  // Called before the steps of each cycle.
  void begin_cycle(Cycle now) { now_ = now; }
  // Departure observers (RouterObserver::on_departure, in the order Router objects report them;
  // the flit log and the engine tests). Observers of contention or blocking need Router objects.
  void add_departure_observer(RouterObserver* observer) { observers_.push_back(observer); }
  // Flits to the endpoints without their payload bytes, for endpoints that accept payload-free
  // flits (NetworkEndpoint::set_payload_free; Network sets it).
  void set_payload_free(bool on) { payload_free_ = on; }
  // Blocked flit-cycles of measured steps (Router::blocked_flit_cycles; unicast only here).
  std::uint64_t blocked_flit_cycles() const { return blocked_; }
  // Flits buffered in routers (with those sent in the last cycle: on their links in the
  // reference engine).
  std::uint64_t flits_held() const;
  // Writes the utilisation counts into the router-to-router Link objects (results.json reads
  // them there).
  void finish();
  // Copies every router's state into `routers` (buffers, VC states, owners, credits), for the
  // deadlock report, which reads Router objects.
  void export_state(const std::vector<std::unique_ptr<Router>>& routers) const;
  // The same for router `r` alone.
  void export_router(int r, Router& router) const;

 private:
  // A synthetic flit without its payload (the header of Flit and the hop count, in 16 bits:
  // ineligible() rules out networks with longer routes).
  static constexpr long long kMaxHops = 65535;
  struct Record {
    PacketId packet_id;
    NodeId src;
    NodeId dst;
    std::uint16_t hops;
    std::uint16_t index;
    std::uint8_t vc;
    FlitType type;
    std::uint8_t payload_bytes;
    bool head() const { return is_head(type); }
    bool tail() const { return is_tail(type); }
  };
  static Record compact(const Flit& flit);
  // The flit of `record`, with its payload rebuilt (fill_payload) if `payload`, else with only
  // its length.
  static Flit expand(const Record& record, bool payload);
  struct Entry {
    Cycle ready;
    Record flit;
  };
  static_assert(sizeof(Entry) == 32, "a buffered flit in half a cache line");
  // One input VC: what steps read and write (Vc, 24 bytes), and what only heads and exports
  // touch (VcInfo).
  struct Vc {
    std::uint16_t head = 0;
    std::uint16_t count = 0;
    VcState state = VcState::kIdle;
    std::uint8_t out_vc = 0;
    std::int16_t out_port = -1;
    Cycle front_ready = 0;  // the front flit's eligibility (its Entry::ready) while count > 0
    Cycle front_since = 0;
  };
  struct VcInfo {
    RouteResult route;
    PacketId packet = 0;
    Cycle head_at = 0;
  };
  // An output VC's credit counter (-1: unlimited, a port to an endpoint), with the cycle its last
  // credit was sent in by the router downstream (send_credit): that credit counts from the next.
  // In 8 bytes: the count in 16 bits (buffer_depth <= 256), the cycle in 48 (ineligible() rules
  // out runs that could reach cycle kNoCreditCycle).
  static constexpr std::uint64_t kNoCreditCycle = (std::uint64_t{1} << 48) - 1;
  class Credits {
   public:
    Credits(int count, std::uint64_t sent) : word_(pack(count, sent)) {}
    int count() const { return static_cast<std::int16_t>(word_ & 0xFFFFu); }
    int available(Cycle now) const { return count() - ((word_ >> 16) == now ? 1 : 0); }
    void take() { word_ = pack(count() - 1, word_ >> 16); }   // a flit sent downstream
    void give(Cycle now) { word_ = pack(count() + 1, now); }  // a credit sent in cycle now

   private:
    static std::uint64_t pack(int count, std::uint64_t sent) {
      return sent << 16 | static_cast<std::uint16_t>(count);
    }
    std::uint64_t word_;
  };
  static_assert(sizeof(Credits) == 8, "a credit counter in 8 bytes");
  struct Peer {  // the router and port at the other end of a network link, or router -1
    int router = -1;
    int port = -1;
  };

  // One router's slices of its block (see Block below), each found by arithmetic when asked
  // for: a step computes only the slices it touches (2026-11-29: building all seventeen
  // pointers took 6.7 % of the instructions of the matched 8x8 case).
  struct Block;
  class View {
   public:
    View(std::byte* base, const Block& block) : base_(base), block_(&block) {}
    Vc* vcs() const { return at<Vc>(block_->vcs); }  // input VCs
    VcInfo* info() const { return at<VcInfo>(block_->info); }
    Entry* buffers() const { return at<Entry>(block_->buffers); }  // depth_ per input VC
    std::uint32_t* busy() const { return at<std::uint32_t>(block_->busy); }
    std::uint32_t* active() const { return at<std::uint32_t>(block_->active); }
    Credits* credits() const { return at<Credits>(block_->credits); }  // output VCs
    int* owner() const { return at<int>(block_->owner); }
    std::uint16_t* sa_in() const { return at<std::uint16_t>(block_->sa_in); }
    std::uint16_t* sa_out() const { return at<std::uint16_t>(block_->sa_out); }
    std::uint16_t* va_in() const { return at<std::uint16_t>(block_->va_in); }
    std::uint16_t* va_out() const { return at<std::uint16_t>(block_->va_out); }
    Link** in_links() const { return at<Link*>(block_->in_links); }
    Link** out_links() const { return at<Link*>(block_->out_links); }
    Peer* upstream() const { return at<Peer>(block_->upstream); }
    Peer* downstream() const { return at<Peer>(block_->downstream); }
    std::uint64_t* carried() const { return at<std::uint64_t>(block_->carried); }

   private:
    template <typename T>
    T* at(std::size_t offset) const {
      return std::launder(reinterpret_cast<T*>(base_ + offset));
    }
    std::byte* base_;
    const Block* block_;
  };
  // The step, compiled for a VC count (kVcs: 1, 2 or 4; 0: any, read from nvcs_), which
  // makes the index arithmetic over VCs constant (2026-11-29: 3 % fewer instructions in the
  // step of the matched 8x8 case).
  template <int kVcs>
  int step_vcs(int r, Cycle now, ActivityCalendar& calendar, bool measuring);
  using StepFn = int (FlatRouters::*)(int, Cycle, ActivityCalendar&, bool);
  static StepFn step_for(int vcs);
  View view(int r) const {
    return {arena_.get() + static_cast<std::size_t>(r) * block_.bytes, block_};
  }
  // A flit from an endpoint's link: its record, checked to have no fields the record drops.
  Record admit(int r, const Flit& flit) const;
  static bool push(Vc& q, Entry* ring, const Record& flit, Cycle ready, int depth, int router);
  // The links between routers (see the .cpp): a flit or a credit sent in cycle `now`.
  template <int kVcs>
  void send_flit(const Peer& down, int vc, const Record& flit, Cycle now,
                 ActivityCalendar& calendar);
  void send_credit(const Peer& up, int vc, Cycle now, ActivityCalendar& calendar);

  int routers_ = 0;
  int inputs_ = 0;  // ports per router
  int outputs_ = 0;
  int network_ = 0;  // network ports (the first of both inputs and outputs)
  int nvcs_ = 1;
  int depth_ = 1;
  Cycle delay_ = 0;  // pipeline_depth - 1
  bool payload_free_ = false;
  Cycle now_ = 0;  // the cycle evaluated last (begin_cycle), for the exports
  const RouteCompute& route_compute_;

  // Per router.
  // A router's port masks, in one cache line.
  struct alignas(64) Words {
    std::uint64_t local_flits = 0;    // injection links with flits in flight (Link watch)
    std::uint64_t local_credits = 0;  // ejection links with credits in flight
    std::uint64_t busy_ports = 0;     // input ports with a non-empty VC
  };
  std::vector<Words> words_;
  // The rest of a router's state lives in its block: one contiguous, 64-byte aligned piece of
  // arena_ of Block::bytes, with the slices of View at these offsets, the ones every step
  // reads first. Neighbouring slices share cache lines and a step finds them by arithmetic
  // on its router's index (2026-11-29, callgrind's cache model of this VM, the 20,000-cycle
  // matched 8x8 case: 9.9 million first-level misses in the step, against 11.0 million with
  // separate arrays reached through a table of Views):
  //   vcs, info: per input VC; buffers: depth_ per input VC;
  //   busy, active (VC masks), sa_in (switch allocation over the port's VCs), in_links
  //   (endpoint links, null for network ports), upstream (network ports: the sender): per
  //   input port;
  //   sa_out (switch allocation over input ports), out_links (endpoint links; network ports:
  //   the Link for counts), downstream: per output port; carried: per network port, flits sent
  //   while measuring;
  //   credits (Credits), owner (input VC, in_port * vcs + vc, or
  //   -1), va_out (VC allocation over input VCs): per output VC; va_in (VC allocation over
  //   output VCs): per input VC.
  struct Block {
    std::size_t vcs = 0, busy = 0, active = 0, credits = 0, owner = 0, sa_in = 0, sa_out = 0,
                va_in = 0, va_out = 0, upstream = 0, downstream = 0, in_links = 0, out_links = 0,
                carried = 0, info = 0, buffers = 0, bytes = 0;
  };
  struct ArenaDelete {
    void operator()(std::byte* p) const;
  };
  Block block_;
  std::unique_ptr<std::byte[], ArenaDelete> arena_;

  // Scratch of one step, sized for one router's input VCs or ports.
  std::vector<VcRequest> vc_requests_;
  std::vector<int> vc_choice_;
  std::vector<std::uint8_t> vc_mark_;
  std::vector<SwitchRequest> requests_;
  std::vector<SwitchRequest> grants_;
  std::vector<std::uint64_t> sa_vc_mask_;
  std::vector<std::uint64_t> sa_port_mask_;
  std::vector<int> sa_pick_;
  std::vector<int> sa_touched_;
  std::uint64_t blocked_ = 0;
  std::vector<RouterObserver*> observers_;
  StepFn step_ = nullptr;
};

}  // namespace wormsim
