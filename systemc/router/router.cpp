#include "router.h"

#include <algorithm>
#include <array>
#include <cstdint>

#include <fmt/format.h>

#include "prefetch.h"
#include "replica_allocator.h"

namespace wormsim {

const char* to_string(VcState s) {
  switch (s) {
    case VcState::kIdle: return "idle";
    case VcState::kRouted: return "waiting_for_vc";
    case VcState::kActive: return "active";
  }
  return "?";
}

Router::Router(const sc_core::sc_module_name& name, const RouterParams& params,
               const RouteCompute& route_compute, const MulticastRoute* multicast)
    : sc_core::sc_module(name),
      params_(params),
      route_compute_(route_compute),
      multicast_(multicast),
      owner_(static_cast<std::size_t>(params.layout.outputs() * params.vcs), -1),
      vc_allocator_(params.allocator, params.layout.inputs(), params.layout.outputs(), params.vcs),
      switch_allocator_(params.allocator, params.layout.inputs(), params.layout.outputs(),
                        params.vcs),
      staged_(params.pipeline != PipelineModel::kDelay),
      rc_cycles_(params.pipeline == PipelineModel::kClassic ||
                         params.pipeline == PipelineModel::kSpeculative ||
                         params.pipeline == PipelineModel::kCombined
                     ? 1
                     : 0),
      va_to_sa_cycles_(params.pipeline == PipelineModel::kCombined ||
                               params.pipeline == PipelineModel::kLookaheadCombined
                           ? 0
                           : 1),
      speculative_(params.pipeline == PipelineModel::kSpeculative ||
                   params.pipeline == PipelineModel::kLookaheadSpeculative),
      speculative_allocator_(params.allocator, params.layout.inputs(), params.layout.outputs(),
                             params.vcs),
      crossbar_(params.layout.inputs(), params.layout.outputs()),
      busy_vcs_(static_cast<std::size_t>(params.layout.inputs()), 0),
      active_vcs_(static_cast<std::size_t>(params.layout.inputs()), 0),
      in_probes_(static_cast<std::size_t>(params.layout.inputs())),
      out_probes_(static_cast<std::size_t>(params.layout.outputs())),
      occupancy_(static_cast<std::size_t>(params.layout.inputs() * params.vcs), 0) {
  for (int p = 0; p < params.layout.inputs(); ++p)
    inputs_.emplace_back(params.vcs, params.buffer_depth);
  for (int p = 0; p < params.layout.outputs(); ++p)
    outputs_.emplace_back(
        params.vcs, params.layout.is_network(p) ? params.buffer_depth : CreditCounter::kUnlimited);
}

Router::StepResult Router::step(Cycle now, ActivityCalendar& calendar, bool measuring,
                                Deferred* deferred) {
  deferred_ = deferred;
  measuring_ = measuring && counting_blocking_;
  try {
    StepResult r = step_unchecked(now, calendar, measuring);
    r.noted = !notes_.empty();
    deferred_ = nullptr;
    return r;
  } catch (const std::logic_error& e) {
    deferred_ = nullptr;
    // Contract violations inside the blocks (buffer overflow, credit bounds, crossbar)
    // name the router and cycle: they are simulator bugs and must be traceable.
    const std::string what = e.what();
    if (what.rfind(name(), 0) == 0) throw;
    throw std::logic_error(fmt::format("{}: cycle {}: {}", name(), now, what));
  }
}

void Router::commit(Cycle now) {
  for (const Note& n : notes_) {
    switch (n.kind) {
      case Note::kDeparture: {
        const FlitEvent e{now, params_.id, n.port, n.vc, n.packet, n.index};
        for (RouterObserver* o : observers_) o->on_departure(e);
        break;
      }
      case Note::kContention:
        for (RouterObserver* o : contention_observers_)
          o->on_contention(n.packet, n.other, params_.id, n.port, now);
        break;
      case Note::kBlocked: emit_blocked(n.multidest, n.packet, n.cycles, now); break;
      case Note::kBlockedBy: emit_blocked_by(n.multidest, n.packet, n.other, now); break;
    }
  }
  notes_.clear();
}

Router::StepResult Router::step_unchecked(Cycle now, ActivityCalendar& calendar, bool measuring) {
  if (probes_enabled_) {
    for (FlitProbe& p : in_probes_) p.clear();
    for (FlitProbe& p : out_probes_) p.clear();
  }
  receive(now);
  StepResult result;
  if (!traversing_.empty()) result.moved += switch_traversal(now, calendar, measuring);
  if (buffered_ > 0) {
    changed_ = false;
    next_ready_ = ActivityCalendar::kNever;
    stripped_ = 0;
    allocate_vcs(now, calendar);
    result.stripped = stripped_;
    allocate_switch(now);
    int granted = traverse(now, calendar, measuring);
    if (!replica_grants_.empty())
      granted += traverse_replicas(now, calendar, measuring, result.replicated);
    // Staged pipelines: the winners cross the switch next cycle (switch_traversal).
    if (staged_)
      changed_ = changed_ || granted > 0;
    else
      result.moved += granted;
    if (buffered_ > 0) result.wake_at = (result.moved > 0 || changed_) ? now + 1 : next_ready_;
  }
  if (probes_enabled_) update_occupancy_probes();
  return result;
}

void Router::update_occupancy_probes() {
  for (std::size_t p = 0; p < inputs_.size(); ++p)
    for (std::size_t v = 0; v < inputs_[p].vcs.size(); ++v)
      occupancy_[p * inputs_[p].vcs.size() + v] =
          static_cast<unsigned>(inputs_[p].vcs[v].buffer.size());
}

void Router::throw_no_such_vc(int vc) const {
  throw std::logic_error(fmt::format("{}: flit on nonexistent VC {}", name(), vc));
}

[[gnu::always_inline]] inline void Router::receive(Cycle now) {
  const Cycle pipeline_delay = staged_ ? 0 : static_cast<Cycle>(params_.pipeline_depth - 1);
  for (std::uint64_t ports = flits_pending_; ports != 0; ports &= ports - 1) {
    const int p = __builtin_ctzll(ports);
    InputPort& in = inputs_[static_cast<std::size_t>(p)];
    Link* link = in.link;
    while (link->flits.ready(now)) {
      buffer_arrival(p, link->flits.front(), link->flits.front_arrival() + pipeline_delay);
      link->flits.pop();
    }
    if (link->flits.empty()) flits_pending_ &= ~(std::uint64_t{1} << p);
  }
  for (std::uint64_t ports = credits_pending_; ports != 0; ports &= ports - 1) {
    const int p = __builtin_ctzll(ports);
    OutputPort& out = outputs_[static_cast<std::size_t>(p)];
    Link* link = out.link;
    while (link->credits.ready(now)) {
      out.credits[link->credits.front()].give();
      link->credits.pop();
    }
    if (link->credits.empty()) credits_pending_ &= ~(std::uint64_t{1} << p);
  }
}

[[gnu::always_inline]] inline void Router::allocate_vcs(Cycle now, ActivityCalendar& calendar) {
  vc_requests_.clear();
  replica_vc_requests_.clear();
  speculative_requests_.clear();
  strip_ports_ = 0;
  const int vcs = params_.vcs;
  for (std::uint64_t ports = busy_ports_; ports != 0; ports &= ports - 1) {
    const int p = __builtin_ctzll(ports);
    const std::size_t pi = static_cast<std::size_t>(p);
    for (std::uint32_t vmask = busy_vcs_[pi] & ~active_vcs_[pi]; vmask != 0; vmask &= vmask - 1) {
      const int v = __builtin_ctz(vmask);
      InputVc& ivc = inputs_[pi].vcs[static_cast<std::size_t>(v)];
      FlitBuffer::Entry& front = ivc.buffer.front();
      if (ivc.state == VcState::kIdle) {
        if (staged_ && front.ready > now) {  // the RC stage starts once the head is in
          next_ready_ = std::min(next_ready_, front.ready);
          continue;
        }
        const bool absorbed = ivc.absorbed;
        if (absorbed) {
          // Minimal path-IR router: the address flit behind the stripped one is the worm's
          // head from here on (docs/multidestination.md, "The minimal path-IR router").
          if (front.flit.head() || front.flit.packet_id != ivc.packet)
            throw std::logic_error(fmt::format(
                "{}: input {} VC {}: {} flit of packet {} follows the stripped "
                "address flit of worm {}",
                name(), p, v, to_string(front.flit.type), front.flit.packet_id, ivc.packet));
          front.flit.type = front.flit.tail() ? FlitType::kHeadTail : FlitType::kHead;
          front.flit.mpos = ivc.absorbed_mpos;
          ivc.absorbed = false;
        } else if (!front.flit.head()) {
          throw std::logic_error(
              fmt::format("{}: input {} VC {} has a {} flit of packet {} "
                          "with no packet in progress",
                          name(), p, v, to_string(front.flit.type), front.flit.packet_id));
        }
        // Buffered header decode: the head is routed once the header flits it reads are in
        // (their arrival wakes this router), under the delay model from when the last of them
        // clears its pipeline delay; under the staged models its RC stage starts then.
        if (!absorbed && front.flit.mcast != 0 && multicast_ != nullptr) {
          const int reads = multicast_->header_flits_read(params_.id, front.flit);
          if (reads > 1) {
            if (reads > params_.buffer_depth)
              throw std::logic_error(fmt::format(
                  "{}: input {} VC {}: worm {} is routed after {} header flits, more than the "
                  "{}-flit buffer holds (Config::validate checks network.router.buffer_depth)",
                  name(), p, v, front.flit.packet_id, reads, params_.buffer_depth));
            const int last = reads - 1;
            ivc.header_reads = reads;
            if (ivc.buffer.size() <= last) continue;
            const Cycle in = ivc.buffer.at(last).ready;
            if (in > now) {
              next_ready_ = std::min(next_ready_, in);
              continue;
            }
            ivc.header_reads = 0;
          }
        }
        ivc.packet = front.flit.packet_id;
        ivc.head_at = now;
        if (!absorbed && front.flit.mcast != 0 && multicast_ != nullptr &&
            multicast_->strips(params_.id, front.flit)) {
          // The head's address is this node and more follow: the address flit is dropped in
          // its route stage (its slot's credit goes upstream as a sent flit's would), and the
          // next one is routed when it reaches the front, at the earliest next cycle. Under the
          // delay model it is dropped when its pipeline delay ends, when it would have left.
          // The strip reads the input port's buffer and returns a credit on its credit link,
          // like a flit crossing the switch: one per input port and cycle, and that port's
          // flits do not bid for the switch in that cycle.
          if (front.ready > now || ((strip_ports_ >> p) & 1u) != 0) {
            next_ready_ = std::min(next_ready_, std::max(front.ready, now + 1));
            continue;
          }
          strip_ports_ |= std::uint64_t{1} << p;
          ++stripped_;
          ivc.absorbed = true;
          ivc.absorbed_mpos = static_cast<std::uint16_t>(front.flit.mpos + 1);
          pop_input(now, calendar, p, v);
          changed_ = true;
          continue;
        }
        ivc.state = VcState::kRouted;  // routing alone needs no re-evaluation: VA follows below
        // Staged: this cycle is the RC stage (none with lookahead routing, whose route the
        // upstream router computed); VA from the next. An address flit promoted to head here
        // was a body flit upstream, so it is routed here, lookahead or not.
        if (staged_) ivc.next_at = now + (absorbed ? std::max<Cycle>(rc_cycles_, 1) : rc_cycles_);
        if (front.flit.mcast == 0) {
          ivc.route = route_compute_.route(params_.id, front.flit.dst, p, v);
        } else {
          if (multicast_ == nullptr)
            throw std::logic_error(
                fmt::format("{}: multidestination worm {} in a network "
                            "without multidestination support",
                            name(), front.flit.packet_id));
          multicast_->branches(params_.id, front.flit, p, v, branch_scratch_, absorbed);
          if (branch_scratch_.size() == 1) {
            ivc.route = branch_scratch_.front().route;
          } else {
            for (const MulticastBranch& b : branch_scratch_) ivc.branches.push_back({b});
            ivc.room_needed = 0;
            if (params_.replication_flow == ReplicationFlow::kCutThrough) {
              ivc.room_needed = multicast_->worm_flits(front.flit);
              // Config::validate() sizes the buffers for the largest worm of the run.
              if (ivc.room_needed > params_.buffer_depth)
                throw std::logic_error(fmt::format(
                    "{}: cycle {}: cut-through replication of worm {} ({} flits) needs room "
                    "for it in {}-flit VC buffers",
                    name(), now, front.flit.packet_id, ivc.room_needed, params_.buffer_depth));
            }
          }
        }
      }
      const Cycle eligible = staged_ ? ivc.next_at : front.ready;
      if (eligible > now)
        next_ready_ = std::min(next_ready_, eligible);
      else if (ivc.branches.empty()) {
        VcRequest& r = vc_requests_.emplace_back();
        r.input_vc = p * vcs + v;
        r.route = ivc.route;
        if (speculative_) collect_speculative_request(ivc, p, v);
      } else {
        replica_vc_requests_.push_back(p * vcs + v);
      }
    }
  }
  if (!replica_vc_requests_.empty()) allocate_replica_vcs(now);
  if (vc_requests_.empty()) return;
  vc_grants_.clear();
  vc_allocator_.allocate(vc_requests_, owner_, vc_grants_);
  if (!vc_grants_.empty()) changed_ = true;
  for (const VcGrant& g : vc_grants_) {
    InputVc& ivc = inputs_[static_cast<std::size_t>(g.input_vc / vcs)]
                       .vcs[static_cast<std::size_t>(g.input_vc % vcs)];
    ivc.state = VcState::kActive;
    active_vcs_[static_cast<std::size_t>(g.input_vc / vcs)] |= 1u << (g.input_vc % vcs);
    ivc.out_port = g.out_port;
    ivc.out_vc = g.out_vc;
    if (blocking_observed()) note_blocked(ivc, now - va_since(ivc), now);
    if (staged_) ivc.next_at = now + va_to_sa_cycles_;
    owner_[static_cast<std::size_t>(g.out_port * vcs + g.out_vc)] = g.input_vc;
  }
  if (contention_observed()) report_vc_contention(now);
}

// A head that did not get an output VC waits for the packets holding the VCs it may use.
void Router::report_vc_contention(Cycle now) {
  const int vcs = params_.vcs;
  auto packet_of = [&](int input_vc) {
    return inputs_[static_cast<std::size_t>(input_vc / vcs)]
        .vcs[static_cast<std::size_t>(input_vc % vcs)]
        .packet;
  };
  for (const VcRequest& r : vc_requests_) {
    const InputVc& ivc = inputs_[static_cast<std::size_t>(r.input_vc / vcs)]
                             .vcs[static_cast<std::size_t>(r.input_vc % vcs)];
    if (ivc.state == VcState::kActive) continue;  // granted
    for (int port = r.route.port_lo; port < r.route.port_hi; ++port)
      for (int vc = r.route.vc_lo; vc < r.route.vc_hi; ++vc) {
        const int holder = owner_[static_cast<std::size_t>(port * vcs + vc)];
        if (holder >= 0 && holder != r.input_vc)
          note_contention(ivc.packet, packet_of(holder), port, now);
      }
  }
}

// A replicating worm takes an output VC on every branch at once or none (so two worms never
// hold part of each other's branches at one router); under cut-through replication only VCs
// whose downstream buffer has room for the whole worm qualify, so once granted no branch
// ever runs out of credits for this worm. Replicating worms are served before
// single-output ones, in round-robin order of their input VCs: service starts after the
// input VC served first in the last cycle a replicating worm got its VCs (the RTL router
// keeps the same pointer, rtl/wormsim_router.sv).
void Router::allocate_replica_vcs(Cycle now) {
  const int vcs = params_.vcs;
  wormsim::allocate_replica_vcs(
      replica_vc_requests_, replica_va_next_,
      [&](int requester) -> std::vector<ReplicaBranch>& { return input_vc(requester).branches; },
      [](const ReplicaBranch& b) -> const RouteResult& { return b.target.route; },
      [&](int requester, int port, int vc) {
        return owner_[static_cast<std::size_t>(port * vcs + vc)] < 0 &&
               outputs_[static_cast<std::size_t>(port)]
                   .credits[static_cast<std::size_t>(vc)]
                   .has_room(input_vc(requester).room_needed);
      },
      [&](int requester, const ReplicaBranch& b) {
        if (!contention_observed()) return;
        const InputVc& ivc = input_vc(requester);
        for (int port = b.target.route.port_lo; port < b.target.route.port_hi; ++port)
          for (int vc = b.target.route.vc_lo; vc < b.target.route.vc_hi; ++vc) {
            const int holder = owner_[static_cast<std::size_t>(port * vcs + vc)];
            if (holder >= 0) note_contention(ivc.packet, input_vc(holder).packet, port, now);
          }
      },
      [&](int requester) {
        InputVc& ivc = input_vc(requester);
        for (ReplicaBranch& b : ivc.branches)
          owner_[static_cast<std::size_t>(b.out_port * vcs + b.out_vc)] = requester;
        ivc.state = VcState::kActive;
        active_vcs_[static_cast<std::size_t>(requester / vcs)] |= 1u << (requester % vcs);
        if (blocking_observed()) note_blocked(ivc, now - va_since(ivc), now);
        if (staged_) ivc.next_at = now + va_to_sa_cycles_;
        changed_ = true;
      });
}

[[gnu::always_inline]] inline void Router::allocate_switch(Cycle now) {
  switch_requests_.clear();
  replica_switch_requests_.clear();
  std::uint64_t request_outs = 0;  // output ports requested so far
  bool conflict = false;           // two requests share an input or an output port
  for (std::uint64_t ports = busy_ports_ & ~strip_ports_; ports != 0; ports &= ports - 1) {
    const int p = __builtin_ctzll(ports);
    const std::size_t pi = static_cast<std::size_t>(p);
    const InputPort& in = inputs_[pi];
    bool port_requested = false;  // this input port has a request already
    for (std::uint32_t vmask = busy_vcs_[pi] & active_vcs_[pi]; vmask != 0; vmask &= vmask - 1) {
      const int v = __builtin_ctz(vmask);
      const InputVc& ivc = in.vcs[static_cast<std::size_t>(v)];
      if (!ivc.branches.empty()) {
        replica_switch_requests_.push_back(p * params_.vcs + v);
        continue;
      }
      const Cycle eligible = std::max(ivc.buffer.front().ready, ivc.next_at);
      if (eligible > now) {
        next_ready_ = std::min(next_ready_, eligible);
        continue;
      }
      if (!outputs_[static_cast<std::size_t>(ivc.out_port)]
               .credits[static_cast<std::size_t>(ivc.out_vc)]
               .available())
        continue;
      SwitchRequest& r = switch_requests_.emplace_back();
      r.in_port = p;
      r.vc = v;
      r.out_port = ivc.out_port;
      const std::uint64_t out_bit = std::uint64_t{1} << ivc.out_port;
      conflict |= (request_outs & out_bit) != 0 || port_requested;
      request_outs |= out_bit;
      port_requested = true;
    }
  }
  switch_grants_.clear();
  replica_grants_.clear();
  if (!conflict && replica_switch_requests_.empty()) {
    // Every request is granted, whatever the allocator's pointers say (no flit loses a port,
    // so there is no blocking to report either); requests are in ascending input-port order.
    switch_allocator_.grant_all(switch_requests_);
    switch_grants_.swap(switch_requests_);
    if (!speculative_requests_.empty()) grant_speculative(now);
    return;
  }
  if (!replica_switch_requests_.empty()) {
    allocate_replica_switch(now);
    // Single-output flits compete for the input and output ports the replicas left free.
    if (blocking_observed())
      for (const SwitchRequest& r : switch_requests_)
        if (((ports_taken_out_ >> r.out_port) & 1u) != 0)
          note_blocked(
              inputs_[static_cast<std::size_t>(r.in_port)].vcs[static_cast<std::size_t>(r.vc)],
              Cycle{1}, now);
    switch_requests_.erase(std::remove_if(switch_requests_.begin(), switch_requests_.end(),
                                          [&](const SwitchRequest& r) {
                                            return ((ports_taken_in_ >> r.in_port) & 1u) != 0 ||
                                                   ((ports_taken_out_ >> r.out_port) & 1u) != 0;
                                          }),
                           switch_requests_.end());
  }
  switch_allocator_.allocate(switch_requests_, switch_grants_);
  if (!speculative_requests_.empty()) grant_speculative(now);
  if (!blocking_observed()) return;
  // A flit ready to go that lost its output port to another packet this cycle (the allocator
  // grants each output port to one request).
  for_each_lost_request(
      switch_requests_.data(), static_cast<int>(switch_requests_.size()), switch_grants_.data(),
      static_cast<int>(switch_grants_.size()), [&](const SwitchRequest& r, const SwitchRequest& g) {
        const InputVc& waiting =
            inputs_[static_cast<std::size_t>(r.in_port)].vcs[static_cast<std::size_t>(r.vc)];
        const PacketId other =
            inputs_[static_cast<std::size_t>(g.in_port)].vcs[static_cast<std::size_t>(g.vc)].packet;
        note_contention(waiting.packet, other, r.out_port, now);
        note_blocked_by(waiting, other, now);
      });
}

// Replicating worms claim their input port and their branches' output ports before the
// single-output allocator runs, in round-robin order of their input VCs (as for their VCs,
// with a pointer of its own that moves only in cycles with a grant). Synchronous replication: the front flit
// goes to every branch in the same cycle or to none. Asynchronous: every branch with a
// credit sends its next flit; the buffer slot frees when the last branch has taken it.
void Router::allocate_replica_switch(Cycle now) {
  const bool sync = params_.replication == Replication::kSynchronous;
  wormsim::allocate_replica_switch(
      replica_switch_requests_, params_.vcs, sync, replica_sa_next_, ports_taken_in_,
      ports_taken_out_,
      [&](int index) { return static_cast<int>(input_vc(index).branches.size()); },
      [&](int index, int b) { return !input_vc(index).branches[static_cast<std::size_t>(b)].done; },
      [&](int index, int b) {
        InputVc& ivc = input_vc(index);
        const ReplicaBranch& br = ivc.branches[static_cast<std::size_t>(b)];
        const int slot = sync ? 0 : br.ahead;
        bool ok = slot < ivc.buffer.size();
        const Cycle eligible = ok ? std::max(ivc.buffer.at(slot).ready, ivc.next_at) : 0;
        if (ok && eligible > now) {
          next_ready_ = std::min(next_ready_, eligible);
          ok = false;
        }
        return ok && outputs_[static_cast<std::size_t>(br.out_port)]
                         .credits[static_cast<std::size_t>(br.out_vc)]
                         .available();
      },
      [&](int index, int b) {
        return input_vc(index).branches[static_cast<std::size_t>(b)].out_port;
      },
      [&](int index) {
        if (blocking_observed()) note_blocked(input_vc(index), Cycle{1}, now);
      },
      [&](int index, std::uint64_t granted) {
        replica_grants_.push_back({index, granted});
      });
}

// The two ends of switch traversal, inlined into their callers (the delay model's hot path).
[[gnu::always_inline]] inline void Router::depart(Cycle now, ActivityCalendar& calendar,
                                                  bool measuring, int out_port, const Flit& flit) {
  OutputPort& out = outputs_[static_cast<std::size_t>(out_port)];
  if (probes_enabled_) out_probes_[static_cast<std::size_t>(out_port)].show(flit);
  if (measuring) ++out.link->flits_carried;
  log_departure(now, out_port, flit);
  Link* link = out.link;
  if (deferred_ == nullptr) {
    calendar.wake(link->downstream.component, link->send_flit(now, flit));
  } else if (((cross_thread_outputs_ >> out_port) & 1u) != 0) {
    deferred_->pushes.push_back({link, flit, -1});
    deferred_->wakes.push_back(
        {link->downstream.component, now + static_cast<Cycle>(link->flits.latency())});
  } else {
    deferred_->wakes.push_back({link->downstream.component, link->send_flit(now, flit)});
  }
}

[[gnu::always_inline]] inline void Router::send_credit(Cycle now, ActivityCalendar& calendar,
                                                       int in_port, int vc) {
  InputPort& in = inputs_[static_cast<std::size_t>(in_port)];
  Link* link = in.link;
  const auto credit = static_cast<std::uint8_t>(vc);
  if (deferred_ == nullptr) {
    calendar.wake(link->upstream.component, link->send_credit(now, credit));
  } else if (((cross_thread_inputs_ >> in_port) & 1u) != 0) {
    deferred_->pushes.push_back({link, Flit{}, vc});
    deferred_->wakes.push_back(
        {link->upstream.component, now + static_cast<Cycle>(link->credits.latency())});
  } else {
    deferred_->wakes.push_back({link->upstream.component, link->send_credit(now, credit)});
  }
}

void Router::send(Cycle now, ActivityCalendar& calendar, bool measuring, int out_port, int out_vc,
                  Flit& flit) {
  send_inline(now, calendar, measuring, out_port, out_vc, flit);
}

[[gnu::always_inline]] inline void Router::send_inline(Cycle now, ActivityCalendar& calendar,
                                                       bool measuring, int out_port, int out_vc,
                                                       Flit& flit) {
  OutputPort& out = outputs_[static_cast<std::size_t>(out_port)];
  flit.vc = static_cast<std::uint8_t>(out_vc);
  if (params_.layout.is_network(out_port)) ++flit.hops;
  out.credits[static_cast<std::size_t>(out_vc)].consume();
  if (staged_) {
    traversing_.push_back({out_port, -1, flit});  // crosses the switch next cycle
    return;
  }
  depart(now, calendar, measuring, out_port, flit);
}

// Removes the front flit of an input VC; the freed slot goes back upstream as a credit.
void Router::pop_input(Cycle now, ActivityCalendar& calendar, int in_port, int vc) {
  pop_input_inline(now, calendar, in_port, vc);
}

[[gnu::always_inline]] inline void Router::pop_input_inline(Cycle now, ActivityCalendar& calendar,
                                                            int in_port, int vc) {
  InputPort& in = inputs_[static_cast<std::size_t>(in_port)];
  InputVc& ivc = in.vcs[static_cast<std::size_t>(vc)];
  ivc.buffer.pop();
  ivc.front_since = now;
  if (ivc.buffer.empty()) {
    std::uint32_t& vmask = busy_vcs_[static_cast<std::size_t>(in_port)];
    vmask &= ~(1u << vc);
    if (vmask == 0) busy_ports_ &= ~(std::uint64_t{1} << in_port);
  }
  if (staged_) {
    // The flit moved into the ST register: it stays counted as buffered, and its slot's
    // credit goes upstream, until it crosses the switch next cycle.
    traversing_.push_back({in_port, vc, Flit{}});
    return;
  }
  --buffered_;
  send_credit(now, calendar, in_port, vc);
}

int Router::switch_traversal(Cycle now, ActivityCalendar& calendar, bool measuring) {
  traversing_now_.swap(traversing_);
  int sent = 0;
  for (const StageSlot& t : traversing_now_) {
    if (t.credit_vc >= 0) {
      --buffered_;
      send_credit(now, calendar, t.port, t.credit_vc);
    } else {
      depart(now, calendar, measuring, t.port, t.flit);
      ++sent;
    }
  }
  traversing_now_.clear();
  return sent;
}

// Speculative switch allocation (Peh and Dally, "A delay model and speculative architecture
// for pipelined routers", HPCA 2001): a head bidding for an output VC bids in the same cycle
// for the switch, for the output port it expects VA to give it: the lowest port of its route
// with a free VC there at the start of the cycle (VA has not run yet). Speculative bids go to
// an allocator of their own; its grants lose to every non-speculative grant on the same input
// or output port and are void unless VA granted the head a VC on that port with a credit.
void Router::collect_speculative_request(const InputVc& ivc, int port, int vc) {
  const int vcs = params_.vcs;
  for (int out = ivc.route.port_lo; out < ivc.route.port_hi; ++out)
    for (int ov = ivc.route.vc_lo; ov < ivc.route.vc_hi; ++ov)
      if (owner_[static_cast<std::size_t>(out * vcs + ov)] < 0) {
        speculative_requests_.push_back({port, vc, out});
        return;
      }
}

void Router::grant_speculative(Cycle now) {
  speculative_grants_.clear();
  speculative_allocator_.allocate(speculative_requests_, speculative_grants_);
  std::uint64_t in_used = ports_taken_in_;
  std::uint64_t out_used = ports_taken_out_;
  if (replica_switch_requests_.empty()) in_used = out_used = 0;
  in_used |= strip_ports_;
  for (const SwitchRequest& g : switch_grants_) {
    in_used |= std::uint64_t{1} << g.in_port;
    out_used |= std::uint64_t{1} << g.out_port;
  }
  for (const SwitchRequest& g : speculative_grants_) {
    if (((in_used >> g.in_port) & 1u) != 0 || ((out_used >> g.out_port) & 1u) != 0) continue;
    InputVc& ivc = inputs_[static_cast<std::size_t>(g.in_port)].vcs[static_cast<std::size_t>(g.vc)];
    if (ivc.state != VcState::kActive || ivc.out_port != g.out_port ||
        !outputs_[static_cast<std::size_t>(g.out_port)]
             .credits[static_cast<std::size_t>(ivc.out_vc)]
             .available())
      continue;  // misspeculated: the grant goes unused this cycle
    ivc.next_at = now;
    switch_grants_.push_back(g);
    in_used |= std::uint64_t{1} << g.in_port;
    out_used |= std::uint64_t{1} << g.out_port;
  }
}

[[gnu::always_inline]] inline int Router::traverse(Cycle now, ActivityCalendar& calendar,
                                                   bool measuring) {
  crossbar_.release();
  for (const SwitchRequest& g : switch_grants_) {
    crossbar_.connect(g.in_port, g.out_port);
    InputVc& ivc = inputs_[static_cast<std::size_t>(g.in_port)].vcs[static_cast<std::size_t>(g.vc)];
    // Sent from its slot: a pop leaves the slot intact until the next push (flit_buffer.h).
    Flit& flit = ivc.buffer.front().flit;
    pop_input_inline(now, calendar, g.in_port, g.vc);
    send_inline(now, calendar, measuring, g.out_port, ivc.out_vc, flit);
    if (flit.tail()) {
      owner_[static_cast<std::size_t>(g.out_port * params_.vcs + ivc.out_vc)] = -1;
      ivc.state = VcState::kIdle;
      active_vcs_[static_cast<std::size_t>(g.in_port)] &= ~(1u << g.vc);
      ivc.out_port = ivc.out_vc = -1;
    }
  }
  return static_cast<int>(switch_grants_.size());
}

int Router::traverse_replicas(Cycle now, ActivityCalendar& calendar, bool measuring,
                              int& replicated) {
  int sent = 0;
  int popped = 0;
  for (const ReplicaGrant& g : replica_grants_) {
    const int in_port = g.input_vc / params_.vcs;
    const int vc = g.input_vc % params_.vcs;
    InputVc& ivc = input_vc(g.input_vc);
    for (std::size_t b = 0; b < ivc.branches.size(); ++b) {
      if (((g.branches >> b) & 1u) == 0) continue;
      ReplicaBranch& br = ivc.branches[b];
      crossbar_.connect_replica(in_port, br.out_port);
      Flit flit =
          ivc.buffer.at(params_.replication == Replication::kSynchronous ? 0 : br.ahead).flit;
      // The full router stamps the branch's target on every flit; the minimal one rewrites
      // only a head flit whose current address advances within it.
      if (!multicast_->strips_addresses() ||
          (flit.head() && multicast_->addresses_per_flit() > 1)) {
        flit.dst = br.target.dst;
        flit.mpos = br.target.mpos;
      }
      send(now, calendar, measuring, br.out_port, br.out_vc, flit);
      ++sent;
      ++br.ahead;
      if (flit.tail()) {
        owner_[static_cast<std::size_t>(br.out_port * params_.vcs + br.out_vc)] = -1;
        br.done = true;
      }
    }
    // The front slot frees once every branch has taken its flit.
    for (;;) {
      bool all_took = !ivc.buffer.empty();
      for (const ReplicaBranch& br : ivc.branches) all_took = all_took && br.ahead > 0;
      if (!all_took) break;
      pop_input(now, calendar, in_port, vc);
      ++popped;
      for (ReplicaBranch& br : ivc.branches) --br.ahead;
    }
    if (std::all_of(ivc.branches.begin(), ivc.branches.end(),
                    [](const ReplicaBranch& br) { return br.done; })) {
      ivc.branches.clear();
      ivc.state = VcState::kIdle;
      active_vcs_[static_cast<std::size_t>(in_port)] &= ~(1u << vc);
    }
  }
  replicated += sent - popped;
  return sent;
}

Cycle Router::oldest_waiting_front() const {
  Cycle oldest = ActivityCalendar::kNever;
  for (std::uint64_t ports = busy_ports_; ports != 0; ports &= ports - 1) {
    const std::size_t p = static_cast<std::size_t>(__builtin_ctzll(ports));
    for (std::uint32_t v = busy_vcs_[p]; v != 0; v &= v - 1)
      oldest =
          std::min(oldest, inputs_[p].vcs[static_cast<std::size_t>(__builtin_ctz(v))].front_since);
  }
  return oldest;
}

void Router::prefetch(int stage) const {
  const auto fetch = [](const void* p) { prefetch_line(p); };
  const auto fetch_range = [](const void* p, std::size_t bytes) { prefetch_bytes(p, bytes); };
  const auto fetch_members = [](const void* from, const void* to) { prefetch_between(from, to); };
  if (stage == 0) {  // the members a step reads (not the VC allocator's, needed only by heads)
    fetch_members(&params_, &vc_allocator_);
    fetch_members(&switch_allocator_, &staged_);
    fetch_members(&staged_, &speculative_allocator_);
    fetch_members(&speculative_requests_, &in_probes_);
    return;
  }
  // Input ports with flits arriving or buffered, and in them the VCs with flits or holding an
  // output VC (a worm streaming through leaves its buffer empty between cycles).
  const std::uint64_t inputs = flits_pending_ | busy_ports_;
  const auto vcs_of = [&](std::size_t p) { return busy_vcs_[p] | active_vcs_[p]; };
  switch (stage) {
    case 1:
      for (std::uint64_t ports = inputs; ports != 0; ports &= ports - 1)
        fetch(&inputs_[static_cast<std::size_t>(__builtin_ctzll(ports))]);
      fetch_range(outputs_.data(), outputs_.size() * sizeof(OutputPort));
      fetch(busy_vcs_.data());
      fetch(active_vcs_.data());
      fetch(switch_requests_.data());
      fetch(switch_grants_.data());
      switch_allocator_.prefetch();
      return;
    case 2:
      for (std::uint64_t ports = inputs; ports != 0; ports &= ports - 1) {
        const std::size_t p = static_cast<std::size_t>(__builtin_ctzll(ports));
        const InputPort& in = inputs_[p];
        if (((flits_pending_ >> p) & 1u) != 0) in.link->flits.prefetch();
        for (std::uint32_t v = vcs_of(p); v != 0; v &= v - 1)
          fetch_range(&in.vcs[static_cast<std::size_t>(__builtin_ctz(v))], sizeof(InputVc));
      }
      for (std::uint64_t ports = credits_pending_; ports != 0; ports &= ports - 1) {
        const OutputPort& out = outputs_[static_cast<std::size_t>(__builtin_ctzll(ports))];
        out.link->credits.prefetch();
        fetch(out.credits.data());
      }
      return;
    default:
      for (std::uint64_t ports = inputs; ports != 0; ports &= ports - 1) {
        const std::size_t p = static_cast<std::size_t>(__builtin_ctzll(ports));
        const InputPort& in = inputs_[p];
        if (in.link != nullptr) in.link->credits.prefetch();
        for (std::uint32_t v = vcs_of(p); v != 0; v &= v - 1) {
          const InputVc& ivc = in.vcs[static_cast<std::size_t>(__builtin_ctz(v))];
          fetch_range(&ivc.buffer.front(), sizeof(FlitBuffer::Entry));
          if (ivc.out_port < 0) continue;
          const OutputPort& out = outputs_[static_cast<std::size_t>(ivc.out_port)];
          if (out.link == nullptr) continue;
          out.link->flits.prefetch();
          fetch(&out.link->upstream);
          fetch(out.credits.data());
        }
      }
      return;
  }
}

}  // namespace wormsim
