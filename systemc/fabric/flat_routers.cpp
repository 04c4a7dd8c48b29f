#include "flat_routers.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "scoreboard.h"

namespace wormsim {

std::string FlatRouters::ineligible(const Config& config, int threads) {
  const RouterConfig& r = config.network.router;
  if (config.workload != Workload::kSynthetic)
    return "workload: collective (the flat engine runs synthetic traffic only)";
  if (r.implementation != RouterImplementation::kSystemC)
    return "network.router.implementation: rtl";
  if (r.multidest != MultidestMode::kNone)
    return fmt::format("network.router.multidest: {}", to_string(r.multidest));
  if (config.traffic.multicast_fraction > 0) return "traffic.multicast_fraction > 0";
  if (r.pipeline != PipelineModel::kDelay)
    return fmt::format("network.router.pipeline: {}", to_string(r.pipeline));
  if (r.allocator != AllocatorKind::kSeparableInputFirst)
    return fmt::format("network.router.allocator: {}", to_string(r.allocator));
  if (r.link_latency != 1) return "network.router.link_latency other than 1";
  if (r.credit_latency != 1) return "network.router.credit_latency other than 1";
  if (config.trace.enabled) return "trace.enabled: true (router probes)";
  if (threads > 1)
    return fmt::format("simulation.threads: {} (the flat engine runs on one)", threads);
  return "";
}

FlatRouters::FlatRouters(const Config& config, const Topology& topology, const PortLayout& layout,
                         const RouteCompute& route_compute)
    : routers_(topology.nodes()),
      inputs_(layout.inputs()),
      outputs_(layout.outputs()),
      network_(layout.network),
      nvcs_(config.network.router.vcs),
      depth_(config.network.router.buffer_depth),
      delay_(static_cast<Cycle>(config.network.router.pipeline_depth - 1)),
      route_compute_(route_compute) {
  const auto n = static_cast<std::size_t>(routers_);
  const auto in = n * static_cast<std::size_t>(inputs_);
  const auto out = n * static_cast<std::size_t>(outputs_);
  const auto net = n * static_cast<std::size_t>(network_);
  const auto ivcs = in * static_cast<std::size_t>(nvcs_);
  const auto ovcs = out * static_cast<std::size_t>(nvcs_);
  busy_ports_.assign(n, 0);
  buffered_.assign(n, 0);
  local_flits_.assign(n, 0);
  local_credits_.assign(n, 0);
  for (int p = 0; p < 2; ++p) {
    reg_flits_[p].assign(n, 0);
    reg_credits_[p].assign(n, 0);
    regs_[p].resize(in);
    credit_regs_[p].assign(out, 0);
  }
  busy_vcs_.assign(in, 0);
  active_vcs_.assign(in, 0);
  sa_in_ptr_.assign(in, 0);
  in_links_.assign(in, nullptr);
  upstream_.assign(in, Peer{});
  sa_out_ptr_.assign(out, 0);
  out_links_.assign(out, nullptr);
  downstream_.assign(out, Peer{});
  carried_.assign(net, 0);
  vcs_.assign(ivcs, Vc{});
  buffers_.resize(ivcs * static_cast<std::size_t>(depth_));
  va_in_ptr_.assign(ivcs, 0);
  credits_.resize(ovcs);
  for (std::size_t r = 0; r < n; ++r)
    for (int o = 0; o < outputs_; ++o)
      for (int v = 0; v < nvcs_; ++v)
        credits_[(r * static_cast<std::size_t>(outputs_) + static_cast<std::size_t>(o)) *
                     static_cast<std::size_t>(nvcs_) +
                 static_cast<std::size_t>(v)] = layout.is_network(o) ? depth_ : -1;
  owner_.assign(ovcs, -1);
  va_out_ptr_.assign(ovcs, 0);
  const auto per_router_ivcs = static_cast<std::size_t>(inputs_ * nvcs_);
  vc_requests_.reserve(per_router_ivcs);
  vc_choice_.reserve(per_router_ivcs);
  vc_mark_.assign(per_router_ivcs, 0);
  requests_.reserve(per_router_ivcs);
  grants_.reserve(per_router_ivcs);
  sa_vc_mask_.assign(static_cast<std::size_t>(inputs_), 0);
  sa_port_mask_.assign(static_cast<std::size_t>(outputs_), 0);
  sa_pick_.assign(static_cast<std::size_t>(inputs_), -1);
  sa_touched_.reserve(static_cast<std::size_t>(outputs_));
  for (int r = 0; r < routers_; ++r) views_.push_back(make_view(r));
}

void FlatRouters::attach(std::deque<Link>& links, int routers) {
  for (Link& l : links) {
    const bool from_router = l.upstream.component < routers;
    const bool to_router = l.downstream.component < routers;
    const auto up = static_cast<std::size_t>(l.upstream.component * outputs_ + l.upstream.port);
    const auto down =
        static_cast<std::size_t>(l.downstream.component * inputs_ + l.downstream.port);
    if (from_router && to_router) {
      downstream_[up] = {l.downstream.component, l.downstream.port};
      upstream_[down] = {l.upstream.component, l.upstream.port};
      out_links_[up] = &l;
    } else if (to_router) {  // injection: an endpoint sends, this router receives
      in_links_[down] = &l;
      l.flit_watch = &local_flits_[static_cast<std::size_t>(l.downstream.component)];
      l.flit_watch_bit = std::uint64_t{1} << l.downstream.port;
    } else if (from_router) {  // ejection
      out_links_[up] = &l;
      l.credit_watch = &local_credits_[static_cast<std::size_t>(l.upstream.component)];
      l.credit_watch_bit = std::uint64_t{1} << l.upstream.port;
    }
  }
}

FlatRouters::Record FlatRouters::compact(const Flit& f) {
  return {f.packet_id, f.src, f.dst, f.hops, f.index, f.vc, f.type, f.payload_bytes};
}

Flit FlatRouters::expand(const Record& r) {
  Flit f;
  f.packet_id = r.packet_id;
  f.src = r.src;
  f.dst = r.dst;
  f.index = r.index;
  f.vc = r.vc;
  f.type = r.type;
  f.hops = r.hops;
  fill_payload(r.packet_id, r.index, r.payload_bytes, f);
  return f;
}

FlatRouters::Record FlatRouters::admit(int r, const Flit& flit) const {
  const Record record = compact(flit);
  const Flit rebuilt = expand(record);
  const bool same =
      rebuilt.packet_id == flit.packet_id && rebuilt.src == flit.src && rebuilt.dst == flit.dst &&
      rebuilt.index == flit.index && rebuilt.vc == flit.vc && rebuilt.type == flit.type &&
      rebuilt.payload_bytes == flit.payload_bytes && rebuilt.payload == flit.payload &&
      rebuilt.message == flit.message && rebuilt.tag == flit.tag &&
      rebuilt.message_bytes == flit.message_bytes && rebuilt.offset == flit.offset &&
      rebuilt.mcast == flit.mcast && rebuilt.mpos == flit.mpos && rebuilt.hops == flit.hops;
  if (!same)
    throw std::logic_error(fmt::format(
        "r{}: flit {} of packet {} is not a synthetic terminal's flit (its payload or message "
        "fields are not rebuilt from the packet and index): the flat engine cannot carry it",
        r, flit.index, flit.packet_id));
  return record;
}

int FlatRouters::step(int r, Cycle now, ActivityCalendar& calendar, bool measuring) {
  const auto ri = static_cast<std::size_t>(r);
  const int par = static_cast<int>(now & 1);
  const View& v = views_[ri];
  // Flits from the routers upstream (sent last cycle) and from the endpoint.
  const Register* regs = &regs_[par][ri * static_cast<std::size_t>(inputs_)];
  for (std::uint64_t ports = reg_flits_[par][ri]; ports != 0; ports &= ports - 1) {
    const int p = __builtin_ctzll(ports);
    arrive(v, p, regs[p].flit, now + delay_);
  }
  reg_flits_[par][ri] = 0;
  for (std::uint64_t ports = local_flits_[ri]; ports != 0; ports &= ports - 1) {
    const int p = __builtin_ctzll(ports);
    Link* link = v.in_links[p];
    while (link->flits.ready(now)) {
      arrive(v, p, admit(r, link->flits.front()), link->flits.front_arrival() + delay_);
      link->flits.pop();
    }
    if (link->flits.empty()) local_flits_[ri] &= ~(std::uint64_t{1} << p);
  }
  // Credits.
  const std::uint8_t* credit_regs = &credit_regs_[par][ri * static_cast<std::size_t>(outputs_)];
  for (std::uint64_t ports = reg_credits_[par][ri]; ports != 0; ports &= ports - 1) {
    const int p = __builtin_ctzll(ports);
    int& c = v.credits[p * nvcs_ + credit_regs[p]];
    if (c >= depth_) throw std::logic_error(fmt::format("r{}: credit counter overflow", r));
    ++c;
  }
  reg_credits_[par][ri] = 0;
  for (std::uint64_t ports = local_credits_[ri]; ports != 0; ports &= ports - 1) {
    const int p = __builtin_ctzll(ports);
    Link* link = v.out_links[p];
    while (link->credits.ready(now)) link->credits.pop();  // unlimited at an endpoint
    if (link->credits.empty()) local_credits_[ri] &= ~(std::uint64_t{1} << p);
  }
  int moved = 0;
  if (buffered_[ri] > 0) {
    changed_ = false;
    next_ready_ = ActivityCalendar::kNever;
    allocate_vcs(v, now, measuring);
    allocate_switch(v, now, measuring);
    moved = traverse(v, now, calendar, measuring);
    if (buffered_[ri] > 0) {
      const Cycle wake = (moved > 0 || changed_) ? now + 1 : next_ready_;
      if (wake != ActivityCalendar::kNever) calendar.wake(r, wake);
    }
  }
  return moved;
}

FlatRouters::View FlatRouters::make_view(int r) {
  const auto ri = static_cast<std::size_t>(r);
  const std::size_t in = ri * static_cast<std::size_t>(inputs_);
  const std::size_t out = ri * static_cast<std::size_t>(outputs_);
  const auto nv = static_cast<std::size_t>(nvcs_);
  View v;
  v.r = r;
  v.vcs = &vcs_[in * nv];
  v.buffers = &buffers_[in * nv * static_cast<std::size_t>(depth_)];
  v.busy = &busy_vcs_[in];
  v.active = &active_vcs_[in];
  v.busy_ports = &busy_ports_[ri];
  v.buffered = &buffered_[ri];
  v.credits = &credits_[out * nv];
  v.owner = &owner_[out * nv];
  v.sa_in = &sa_in_ptr_[in];
  v.sa_out = &sa_out_ptr_[out];
  v.va_in = &va_in_ptr_[in * nv];
  v.va_out = &va_out_ptr_[out * nv];
  v.in_links = &in_links_[in];
  v.out_links = &out_links_[out];
  v.upstream = &upstream_[in];
  v.downstream = &downstream_[out];
  v.carried = carried_.data() + ri * static_cast<std::size_t>(network_);
  return v;
}

[[gnu::always_inline]] inline void FlatRouters::arrive(const View& v, int port, const Record& flit,
                                                       Cycle ready) {
  if (flit.vc >= nvcs_)
    throw std::logic_error(fmt::format("r{}: flit on nonexistent VC {}", v.r, flit.vc));
  const int ivc = port * nvcs_ + flit.vc;
  Vc& q = v.vcs[ivc];
  if (q.count == depth_)
    throw std::logic_error(fmt::format("r{}: flit buffer overflow: credit protocol violated", v.r));
  q.front_since = q.count == 0 ? ready : q.front_since;
  Entry& e = slot(v, ivc, q.count);
  e.flit = flit;
  e.ready = ready;
  ++q.count;
  v.busy[port] |= 1u << flit.vc;
  *v.busy_ports |= std::uint64_t{1} << port;
  ++*v.buffered;
}

// VcAllocator::first_free_candidate.
[[gnu::always_inline]] inline int FlatRouters::first_free(const View& v, const RouteResult& route,
                                                          int from) const {
  int wrapped = -1;
  for (int port = route.port_lo; port < route.port_hi; ++port)
    for (int vc = route.vc_lo; vc < route.vc_hi; ++vc) {
      const int o = port * nvcs_ + vc;
      if (v.owner[o] >= 0) continue;
      if (o >= from) return o;
      if (wrapped < 0) wrapped = o;
    }
  return wrapped;
}

// Router::allocate_vcs for the delay model and unicast worms, with VcAllocator::input_first.
[[gnu::always_inline]] inline void FlatRouters::allocate_vcs(const View& v, Cycle now,
                                                             bool measuring) {
  vc_requests_.clear();
  for (std::uint64_t ports = *v.busy_ports; ports != 0; ports &= ports - 1) {
    const int p = __builtin_ctzll(ports);
    for (std::uint32_t m = v.busy[p] & ~v.active[p]; m != 0; m &= m - 1) {
      const int vc = __builtin_ctz(m);
      const int ivc = p * nvcs_ + vc;
      Vc& q = v.vcs[ivc];
      const Entry& front = slot(v, ivc, 0);
      if (q.state == VcState::kIdle) {
        if (!front.flit.head())
          throw std::logic_error(fmt::format(
              "r{}: input {} VC {} has a {} flit of packet {} with no packet in progress", v.r, p,
              vc, to_string(front.flit.type), front.flit.packet_id));
        q.packet = front.flit.packet_id;
        q.head_at = now;
        q.state = VcState::kRouted;
        q.route = route_compute_.route(static_cast<NodeId>(v.r), front.flit.dst, p, vc);
      }
      if (front.ready > now)
        next_ready_ = std::min(next_ready_, front.ready);
      else
        vc_requests_.push_back({ivc, q.route});
    }
  }
  if (vc_requests_.empty()) return;
  const int ovcs = outputs_ * nvcs_;
  const int ivcs = inputs_ * nvcs_;
  const auto update = [](std::uint16_t& ptr, int winner, int n) {
    const int next = winner + 1;
    ptr = static_cast<std::uint16_t>(next < n ? next : 0);
  };
  const auto grant = [&](int input_vc, int o) {
    changed_ = true;
    Vc& q = v.vcs[input_vc];
    q.state = VcState::kActive;
    v.active[input_vc / nvcs_] |= 1u << (input_vc % nvcs_);
    q.out_port = static_cast<std::int16_t>(o / nvcs_);
    q.out_vc = static_cast<std::uint8_t>(o % nvcs_);
    if (measuring) blocked_ += now - std::max(slot(v, input_vc, 0).ready, q.head_at);
    v.owner[o] = input_vc;
  };
  if (vc_requests_.size() == 1) {
    const VcRequest& rq = vc_requests_.front();
    std::uint16_t& in = v.va_in[rq.input_vc];
    const int o = first_free(v, rq.route, in);
    if (o < 0) return;
    update(in, o, ovcs);
    update(v.va_out[o], rq.input_vc, ivcs);
    grant(rq.input_vc, o);
    return;
  }
  // All choices are made against the owners at the start of the allocation, grants after.
  vc_choice_.assign(vc_requests_.size(), -1);
  for (std::size_t i = 0; i < vc_requests_.size(); ++i)
    vc_choice_[i] = first_free(v, vc_requests_[i].route, v.va_in[vc_requests_[i].input_vc]);
  vc_granted_.clear();
  for (std::size_t i = 0; i < vc_requests_.size(); ++i) {
    const int o = vc_choice_[i];
    if (o < 0) continue;
    std::uint16_t& out = v.va_out[o];
    bool contended = false;
    for (std::size_t j = i + 1; j < vc_requests_.size() && !contended; ++j)
      contended = vc_choice_[j] == o;
    if (!contended) {
      const int winner = vc_requests_[i].input_vc;
      update(v.va_in[winner], o, ovcs);
      update(out, winner, ivcs);
      vc_granted_.emplace_back(winner, o);
      continue;
    }
    for (std::size_t j = i; j < vc_requests_.size(); ++j)
      if (vc_choice_[j] == o) vc_mark_[static_cast<std::size_t>(vc_requests_[j].input_vc)] = 1;
    int winner = -1;
    for (int k = 0; k < ivcs && winner < 0; ++k) {
      int c = out + k;
      if (c >= ivcs) c -= ivcs;
      if (vc_mark_[static_cast<std::size_t>(c)] != 0) winner = c;
    }
    for (std::size_t j = i; j < vc_requests_.size(); ++j) {
      if (vc_choice_[j] != o) continue;
      vc_mark_[static_cast<std::size_t>(vc_requests_[j].input_vc)] = 0;
      if (vc_requests_[j].input_vc == winner) update(v.va_in[winner], o, ovcs);
      vc_choice_[j] = -1;
    }
    update(out, winner, ivcs);
    vc_granted_.emplace_back(winner, o);
  }
  for (const auto& [input_vc, o] : vc_granted_) grant(input_vc, o);
}

// Router::allocate_switch for the delay model and unicast worms, with SwitchAllocator's
// grant_all and input_first.
[[gnu::always_inline]] inline void FlatRouters::allocate_switch(const View& v, Cycle now,
                                                                bool measuring) {
  requests_.clear();
  grants_.clear();
  std::uint64_t request_outs = 0;
  bool conflict = false;
  for (std::uint64_t ports = *v.busy_ports; ports != 0; ports &= ports - 1) {
    const int p = __builtin_ctzll(ports);
    bool port_requested = false;
    for (std::uint32_t m = v.busy[p] & v.active[p]; m != 0; m &= m - 1) {
      const int vc = __builtin_ctz(m);
      const int ivc = p * nvcs_ + vc;
      const Vc& q = v.vcs[ivc];
      const Cycle eligible = slot(v, ivc, 0).ready;
      if (eligible > now) {
        next_ready_ = std::min(next_ready_, eligible);
        continue;
      }
      if (v.credits[q.out_port * nvcs_ + q.out_vc] == 0) continue;
      requests_.push_back({p, vc, q.out_port});
      const std::uint64_t out_bit = std::uint64_t{1} << q.out_port;
      conflict |= (request_outs & out_bit) != 0 || port_requested;
      request_outs |= out_bit;
      port_requested = true;
    }
  }
  const auto update = [](std::uint8_t& ptr, int winner, int n) {
    const int next = winner + 1;
    ptr = static_cast<std::uint8_t>(next < n ? next : 0);
  };
  const auto pick_mask = [](std::uint8_t ptr, std::uint64_t mask) {
    const std::uint64_t after = ptr >= 64 ? 0 : mask & (~std::uint64_t{0} << ptr);
    return __builtin_ctzll(after != 0 ? after : mask);
  };
  if (!conflict) {
    for (const Request& q : requests_) {
      update(v.sa_out[q.out_port], q.in_port, inputs_);
      update(v.sa_in[q.in_port], q.vc, nvcs_);
    }
    grants_.swap(requests_);
    return;
  }
  // Stage 1: per input port with requests, one VC; stage 2: per output port, one input port.
  for (const Request& q : requests_)
    sa_vc_mask_[static_cast<std::size_t>(q.in_port)] |= std::uint64_t{1} << q.vc;
  sa_touched_.clear();
  for (const Request& q : requests_) {
    std::uint64_t& mask = sa_vc_mask_[static_cast<std::size_t>(q.in_port)];
    if (mask == 0) continue;
    const int vc = pick_mask(v.sa_in[q.in_port], mask);
    mask = 0;
    sa_pick_[static_cast<std::size_t>(q.in_port)] = vc;
    const int out = v.vcs[q.in_port * nvcs_ + vc].out_port;
    if (sa_port_mask_[static_cast<std::size_t>(out)] == 0) sa_touched_.push_back(out);
    sa_port_mask_[static_cast<std::size_t>(out)] |= std::uint64_t{1} << q.in_port;
  }
  for (int out : sa_touched_) {
    std::uint64_t& mask = sa_port_mask_[static_cast<std::size_t>(out)];
    std::uint8_t& ptr = v.sa_out[out];
    const int in = pick_mask(ptr, mask);
    mask = 0;
    const int vc = sa_pick_[static_cast<std::size_t>(in)];
    update(ptr, in, inputs_);
    update(v.sa_in[in], vc, nvcs_);
    grants_.push_back({in, vc, out});
  }
  if (!measuring) return;
  // A ready flit that lost its output port to another packet (Router::allocate_switch).
  for (const Request& q : requests_)
    for (const Request& g : grants_)
      if (g.out_port == q.out_port && (g.in_port != q.in_port || g.vc != q.vc)) ++blocked_;
}

// Router::traverse with pop_input and send for the delay model.
[[gnu::always_inline]] inline int FlatRouters::traverse(const View& v, Cycle now,
                                                        ActivityCalendar& calendar,
                                                        bool measuring) {
  const int nxt = static_cast<int>((now + 1) & 1);
  for (const Request& g : grants_) {
    const int ivc = g.in_port * nvcs_ + g.vc;
    Vc& q = v.vcs[ivc];
    Record& flit = slot(v, ivc, 0).flit;  // a pop leaves the slot intact until the next push
    // Pop, and the freed slot's credit upstream.
    q.head = static_cast<std::uint16_t>(q.head + 1 == depth_ ? 0 : q.head + 1);
    --q.count;
    if (q.count == 0) {
      q.head = 0;
      v.busy[g.in_port] &= ~(1u << g.vc);
      if (v.busy[g.in_port] == 0) *v.busy_ports &= ~(std::uint64_t{1} << g.in_port);
    }
    q.front_since = now;
    --*v.buffered;
    if (g.in_port < network_) {
      const Peer& up = v.upstream[g.in_port];
      credit_regs_[nxt][static_cast<std::size_t>(up.router * outputs_ + up.port)] =
          static_cast<std::uint8_t>(g.vc);
      reg_credits_[nxt][static_cast<std::size_t>(up.router)] |= std::uint64_t{1} << up.port;
      calendar.wake(up.router, now + 1);
    } else {
      Link* link = v.in_links[g.in_port];
      calendar.wake(link->upstream.component,
                    link->send_credit(now, static_cast<std::uint8_t>(g.vc)));
    }
    // Send.
    const int out_vc = q.out_vc;
    flit.vc = static_cast<std::uint8_t>(out_vc);
    if (!observers_.empty()) {
      const FlitEvent e{now,    static_cast<NodeId>(v.r), g.out_port,
                        out_vc, flit.packet_id,           flit.index};
      for (RouterObserver* o : observers_) o->on_departure(e);
    }
    const int ovc = g.out_port * nvcs_ + out_vc;
    if (g.out_port < network_) {
      ++flit.hops;
      int& c = v.credits[ovc];
      if (c <= 0) throw std::logic_error(fmt::format("r{}: sent without credit", v.r));
      --c;
      if (measuring) ++v.carried[g.out_port];
      const Peer& down = v.downstream[g.out_port];
      regs_[nxt][static_cast<std::size_t>(down.router * inputs_ + down.port)].flit = flit;
      reg_flits_[nxt][static_cast<std::size_t>(down.router)] |= std::uint64_t{1} << down.port;
      calendar.wake(down.router, now + 1);
    } else {
      Link* link = v.out_links[g.out_port];
      if (measuring) ++link->flits_carried;
      calendar.wake(link->downstream.component, link->send_flit(now, expand(flit)));
    }
    if (flit.tail()) {
      v.owner[ovc] = -1;
      q.state = VcState::kIdle;
      v.active[g.in_port] &= ~(1u << g.vc);
      q.out_port = -1;
    }
  }
  return static_cast<int>(grants_.size());
}

std::uint64_t FlatRouters::flits_held() const {
  std::uint64_t n = 0;
  for (int b : buffered_) n += static_cast<std::uint64_t>(b);
  for (const std::vector<std::uint64_t>& parity : reg_flits_)
    for (std::uint64_t m : parity) n += static_cast<std::uint64_t>(__builtin_popcountll(m));
  return n;
}

void FlatRouters::finish() {
  for (int r = 0; r < routers_; ++r)
    for (int p = 0; p < network_; ++p) {
      const std::size_t po = static_cast<std::size_t>(r * outputs_ + p);
      if (out_links_[po] != nullptr)
        out_links_[po]->flits_carried = carried_[static_cast<std::size_t>(r * network_ + p)];
    }
}

void FlatRouters::export_state(const std::vector<std::unique_ptr<Router>>& routers) const {
  for (int r = 0; r < routers_; ++r) {
    Router& router = *routers[static_cast<std::size_t>(r)];
    router.buffered_ = buffered_[static_cast<std::size_t>(r)];
    for (int p = 0; p < inputs_; ++p)
      for (int v = 0; v < nvcs_; ++v) {
        const std::size_t ivc = static_cast<std::size_t>((r * inputs_ + p) * nvcs_ + v);
        const Vc& q = vcs_[ivc];
        InputVc& dst = router.inputs_[static_cast<std::size_t>(p)].vcs[static_cast<std::size_t>(v)];
        dst.buffer = FlitBuffer(depth_);
        for (int i = 0; i < q.count; ++i) {
          int s = q.head + i;
          if (s >= depth_) s -= depth_;
          const Entry& e =
              buffers_[ivc * static_cast<std::size_t>(depth_) + static_cast<std::size_t>(s)];
          dst.buffer.push(expand(e.flit), e.ready);
        }
        dst.state = q.state;
        dst.route = q.route;
        dst.out_port = q.state == VcState::kActive ? q.out_port : -1;
        dst.out_vc = q.state == VcState::kActive ? q.out_vc : -1;
        dst.packet = q.packet;
        dst.head_at = q.head_at;
        dst.front_since = q.front_since;
      }
    for (int o = 0; o < outputs_; ++o)
      for (int v = 0; v < nvcs_; ++v) {
        const std::size_t ovc = static_cast<std::size_t>((r * outputs_ + o) * nvcs_ + v);
        router.owner_[static_cast<std::size_t>(o * nvcs_ + v)] = owner_[ovc];
        if (credits_[ovc] < 0) continue;
        CreditCounter& c =
            router.outputs_[static_cast<std::size_t>(o)].credits[static_cast<std::size_t>(v)];
        c = CreditCounter(depth_);
        for (int k = credits_[ovc]; k < depth_; ++k) c.consume();
      }
  }
}

}  // namespace wormsim
