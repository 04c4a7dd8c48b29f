#include "router.h"

#include <algorithm>

#include <fmt/format.h>

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
               const RouteCompute& route_compute)
    : sc_core::sc_module(name),
      params_(params),
      route_compute_(route_compute),
      owner_(static_cast<std::size_t>(params.layout.outputs() * params.vcs), -1),
      vc_allocator_(params.allocator, params.layout.inputs(), params.layout.outputs(), params.vcs),
      switch_allocator_(params.allocator, params.layout.inputs(), params.layout.outputs(),
                        params.vcs),
      crossbar_(params.layout.inputs(), params.layout.outputs()),
      busy_vcs_(static_cast<std::size_t>(params.layout.inputs()), 0),
      in_probes_(static_cast<std::size_t>(params.layout.inputs())),
      out_probes_(static_cast<std::size_t>(params.layout.outputs())),
      occupancy_(static_cast<std::size_t>(params.layout.inputs() * params.vcs), 0) {
  for (int p = 0; p < params.layout.inputs(); ++p)
    inputs_.emplace_back(params.vcs, params.buffer_depth);
  for (int p = 0; p < params.layout.outputs(); ++p)
    outputs_.emplace_back(params.vcs, params.layout.is_network(p) ? params.buffer_depth
                                                                  : CreditCounter::kUnlimited);
}

Router::StepResult Router::step(Cycle now, ActivityCalendar& calendar, bool measuring) {
  try {
    return step_unchecked(now, calendar, measuring);
  } catch (const std::logic_error& e) {
    // Contract violations inside the blocks (buffer overflow, credit bounds, crossbar)
    // name the router and cycle: they are simulator bugs and must be traceable.
    const std::string what = e.what();
    if (what.rfind(name(), 0) == 0) throw;
    throw std::logic_error(fmt::format("{}: cycle {}: {}", name(), now, what));
  }
}

Router::StepResult Router::step_unchecked(Cycle now, ActivityCalendar& calendar, bool measuring) {
  if (probes_enabled_) {
    for (FlitProbe& p : in_probes_) p.clear();
    for (FlitProbe& p : out_probes_) p.clear();
  }
  receive(now);
  StepResult result;
  if (buffered_ > 0) {
    changed_ = false;
    next_ready_ = ActivityCalendar::kNever;
    allocate_vcs(now);
    allocate_switch(now);
    result.moved = traverse(now, calendar, measuring);
    if (buffered_ > 0)
      result.wake_at = (result.moved > 0 || changed_) ? now + 1 : next_ready_;
  }
  if (probes_enabled_) {
    for (std::size_t p = 0; p < inputs_.size(); ++p)
      for (std::size_t v = 0; v < inputs_[p].vcs.size(); ++v)
        occupancy_[p * inputs_[p].vcs.size() + v] =
            static_cast<unsigned>(inputs_[p].vcs[v].buffer.size());
  }
  return result;
}

void Router::receive(Cycle now) {
  const Cycle pipeline_delay = static_cast<Cycle>(params_.pipeline_depth - 1);
  for (std::uint64_t ports = flits_pending_; ports != 0; ports &= ports - 1) {
    const int p = __builtin_ctzll(ports);
    InputPort& in = inputs_[static_cast<std::size_t>(p)];
    Link* link = in.link;
    while (link->flits.ready(now)) {
      const Flit& f = link->flits.front();
      if (f.vc >= in.vcs.size())
        throw std::logic_error(fmt::format("{}: flit on nonexistent VC {}", name(), f.vc));
      in.vcs[f.vc].buffer.push(f, link->flits.front_arrival() + pipeline_delay);
      busy_vcs_[static_cast<std::size_t>(p)] |= 1u << f.vc;
      busy_ports_ |= std::uint64_t{1} << p;
      if (probes_enabled_) in_probes_[static_cast<std::size_t>(p)].show(f);
      link->flits.pop();
      ++buffered_;
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

void Router::allocate_vcs(Cycle now) {
  vc_requests_.clear();
  const int vcs = params_.vcs;
  for (std::uint64_t ports = busy_ports_; ports != 0; ports &= ports - 1) {
    const int p = __builtin_ctzll(ports);
    for (std::uint32_t vmask = busy_vcs_[static_cast<std::size_t>(p)]; vmask != 0; vmask &= vmask - 1) {
      const int v = __builtin_ctz(vmask);
      InputVc& ivc = inputs_[static_cast<std::size_t>(p)].vcs[static_cast<std::size_t>(v)];
      if (ivc.state == VcState::kActive) continue;
      const FlitBuffer::Entry& front = ivc.buffer.front();
      if (ivc.state == VcState::kIdle) {
        if (!front.flit.head())
          throw std::logic_error(fmt::format("{}: input {} VC {} has a {} flit of packet {} "
                                             "with no packet in progress",
                                             name(), p, v, to_string(front.flit.type),
                                             front.flit.packet_id));
        ivc.route = route_compute_.route(params_.id, front.flit.dst, p, v);
        ivc.packet = front.flit.packet_id;
        ivc.state = VcState::kRouted;  // routing alone needs no re-evaluation: VA follows below
      }
      if (front.ready <= now)
        vc_requests_.push_back({p * vcs + v, ivc.route});
      else
        next_ready_ = std::min(next_ready_, front.ready);
    }
  }
  if (vc_requests_.empty()) return;
  vc_grants_.clear();
  vc_allocator_.allocate(vc_requests_, owner_, vc_grants_);
  if (!vc_grants_.empty()) changed_ = true;
  for (const VcGrant& g : vc_grants_) {
    InputVc& ivc = inputs_[static_cast<std::size_t>(g.input_vc / vcs)]
                       .vcs[static_cast<std::size_t>(g.input_vc % vcs)];
    ivc.state = VcState::kActive;
    ivc.out_port = g.out_port;
    ivc.out_vc = g.out_vc;
    owner_[static_cast<std::size_t>(g.out_port * vcs + g.out_vc)] = g.input_vc;
  }
  if (contention_log_ != nullptr) report_vc_contention(now);
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
          contention_log_->on_contention(ivc.packet, packet_of(holder), params_.id, port, now);
      }
  }
}

void Router::allocate_switch(Cycle now) {
  switch_requests_.clear();
  for (std::uint64_t ports = busy_ports_; ports != 0; ports &= ports - 1) {
    const int p = __builtin_ctzll(ports);
    const InputPort& in = inputs_[static_cast<std::size_t>(p)];
    for (std::uint32_t vmask = busy_vcs_[static_cast<std::size_t>(p)]; vmask != 0; vmask &= vmask - 1) {
      const int v = __builtin_ctz(vmask);
      const InputVc& ivc = in.vcs[static_cast<std::size_t>(v)];
      if (ivc.state != VcState::kActive) continue;
      if (ivc.buffer.front().ready > now) {
        next_ready_ = std::min(next_ready_, ivc.buffer.front().ready);
        continue;
      }
      if (!outputs_[static_cast<std::size_t>(ivc.out_port)]
               .credits[static_cast<std::size_t>(ivc.out_vc)]
               .available())
        continue;
      switch_requests_.push_back({p, v, ivc.out_port});
    }
  }
  switch_grants_.clear();
  switch_allocator_.allocate(switch_requests_, switch_grants_);
  if (contention_log_ == nullptr) return;
  // A flit ready to go that lost its output port to another packet this cycle.
  for (const SwitchRequest& r : switch_requests_) {
    const PacketId mine = inputs_[static_cast<std::size_t>(r.in_port)].vcs[static_cast<std::size_t>(r.vc)].packet;
    for (const SwitchRequest& g : switch_grants_) {
      if (g.out_port != r.out_port || (g.in_port == r.in_port && g.vc == r.vc)) continue;
      const PacketId other = inputs_[static_cast<std::size_t>(g.in_port)].vcs[static_cast<std::size_t>(g.vc)].packet;
      contention_log_->on_contention(mine, other, params_.id, r.out_port, now);
    }
  }
}

int Router::traverse(Cycle now, ActivityCalendar& calendar, bool measuring) {
  crossbar_.release();
  for (const SwitchRequest& g : switch_grants_) {
    crossbar_.connect(g.in_port, g.out_port);
    InputPort& in = inputs_[static_cast<std::size_t>(g.in_port)];
    InputVc& ivc = in.vcs[static_cast<std::size_t>(g.vc)];
    OutputPort& out = outputs_[static_cast<std::size_t>(g.out_port)];
    Flit flit = ivc.buffer.front().flit;
    ivc.buffer.pop();
    --buffered_;
    if (ivc.buffer.empty()) {
      std::uint32_t& vmask = busy_vcs_[static_cast<std::size_t>(g.in_port)];
      vmask &= ~(1u << g.vc);
      if (vmask == 0) busy_ports_ &= ~(std::uint64_t{1} << g.in_port);
    }
    flit.vc = static_cast<std::uint8_t>(ivc.out_vc);
    if (params_.layout.is_network(g.out_port)) ++flit.hops;
    out.credits[static_cast<std::size_t>(ivc.out_vc)].consume();
    if (probes_enabled_) out_probes_[static_cast<std::size_t>(g.out_port)].show(flit);
    if (measuring) ++out.link->flits_carried;
    calendar.wake(out.link->downstream.component, out.link->send_flit(now, flit));
    // The freed buffer slot goes back upstream as a credit.
    calendar.wake(in.link->upstream.component,
                  in.link->send_credit(now, static_cast<std::uint8_t>(g.vc)));
    if (flit.tail()) {
      owner_[static_cast<std::size_t>(g.out_port * params_.vcs + ivc.out_vc)] = -1;
      ivc.state = VcState::kIdle;
      ivc.out_port = ivc.out_vc = -1;
    }
  }
  return static_cast<int>(switch_grants_.size());
}

}  // namespace wormsim
