#include "flat_routers.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <new>
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
  // A record counts its hops in 16 bits: no route may be longer than kMaxHops (a route visits
  // a node at most once; dimension-order routes cross each dimension once).
  const TopologyConfig& t = config.network.topology;
  long long longest = 0;
  if (config.network.routing.algorithm == RoutingAlgorithm::kHamiltonian)
    longest = node_count(t) - 1LL;
  else if (t.kind == TopologyKind::kHypercube)
    longest = t.hypercube_dimension;
  else
    for (int side : t.dims) longest += side - 1;
  if (longest > kMaxHops)
    return fmt::format(
        "network.dims: a route may take {} hops, more than the {} a flit record counts", longest,
        kMaxHops);
  // A credit counter keeps its last credit's cycle in 48 bits (Credits).
  const SimulationConfig& sim = config.simulation;
  const long double run =
      static_cast<long double>(sim.warmup_cycles) + sim.measure_cycles + sim.drain_max_cycles;
  if (run >= static_cast<long double>(kNoCreditCycle))
    return fmt::format(
        "simulation: a run of up to {} cycles, more than the {} a credit counter "
        "records",
        run, kNoCreditCycle);
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
  words_.assign(n, Words{});
  // Every router's block (see Block): its slices, each aligned for its type, the block a
  // multiple of 64 bytes.
  const auto ins = static_cast<std::size_t>(inputs_);
  const auto outs = static_cast<std::size_t>(outputs_);
  const auto nv = static_cast<std::size_t>(nvcs_);
  std::size_t end = 0;
  const auto place = [&end](std::size_t count, std::size_t size, std::size_t align) {
    const std::size_t at = (end + align - 1) / align * align;
    end = at + count * size;
    return at;
  };
  block_.vcs = place(ins * nv, sizeof(Vc), alignof(Vc));
  block_.busy = place(ins, sizeof(std::uint32_t), alignof(std::uint32_t));
  block_.active = place(ins, sizeof(std::uint32_t), alignof(std::uint32_t));
  block_.credits = place(outs * nv, sizeof(Credits), alignof(Credits));
  block_.owner = place(outs * nv, sizeof(int), alignof(int));
  block_.sa_in = place(ins, sizeof(std::uint16_t), alignof(std::uint16_t));
  block_.sa_out = place(outs, sizeof(std::uint16_t), alignof(std::uint16_t));
  block_.va_in = place(ins * nv, sizeof(std::uint16_t), alignof(std::uint16_t));
  block_.va_out = place(outs * nv, sizeof(std::uint16_t), alignof(std::uint16_t));
  block_.upstream = place(ins, sizeof(Peer), alignof(Peer));
  block_.downstream = place(outs, sizeof(Peer), alignof(Peer));
  // The two slices of link pointers: the size of a pointer is meant.
  block_.in_links =
      place(ins, sizeof(Link*), alignof(Link*));  // NOLINT(bugprone-sizeof-expression)
  block_.out_links =
      place(outs, sizeof(Link*), alignof(Link*));  // NOLINT(bugprone-sizeof-expression)
  block_.carried =
      place(static_cast<std::size_t>(network_), sizeof(std::uint64_t), alignof(std::uint64_t));
  block_.info = place(ins * nv, sizeof(VcInfo), alignof(VcInfo));
  block_.buffers =
      place(ins * nv * static_cast<std::size_t>(depth_), sizeof(Entry), alignof(Entry));
  block_.bytes = (end + 63) / 64 * 64;
  const std::size_t arena_bytes = n * block_.bytes;
  arena_.reset(static_cast<std::byte*>(::operator new[](arena_bytes, std::align_val_t{64})));
  std::memset(arena_.get(), 0, arena_bytes);
  for (std::size_t r = 0; r < n; ++r) {
    std::byte* const b = arena_.get() + r * block_.bytes;
    const auto make = [b](std::size_t offset, std::size_t count, auto value) {
      using T = decltype(value);
      // T is a pointer for the link slices: the size of a pointer is meant.
      for (std::size_t i = 0; i < count; ++i)
        new (b + offset + i * sizeof(T)) T(value);  // NOLINT(bugprone-sizeof-expression)
    };
    make(block_.vcs, ins * nv, Vc{});
    make(block_.busy, ins, std::uint32_t{0});
    make(block_.active, ins, std::uint32_t{0});
    for (std::size_t o = 0; o < outs; ++o)
      make(block_.credits + o * nv * sizeof(Credits), nv,
           Credits{layout.is_network(static_cast<int>(o)) ? depth_ : -1, kNoCreditCycle});
    make(block_.owner, outs * nv, -1);
    make(block_.sa_in, ins, std::uint16_t{0});
    make(block_.sa_out, outs, std::uint16_t{0});
    make(block_.va_in, ins * nv, std::uint16_t{0});
    make(block_.va_out, outs * nv, std::uint16_t{0});
    make(block_.upstream, ins, Peer{});
    make(block_.downstream, outs, Peer{});
    make(block_.in_links, ins, static_cast<Link*>(nullptr));
    make(block_.out_links, outs, static_cast<Link*>(nullptr));
    make(block_.carried, static_cast<std::size_t>(network_), std::uint64_t{0});
    make(block_.info, ins * nv, VcInfo{});
    make(block_.buffers, ins * nv * static_cast<std::size_t>(depth_), Entry{});
  }
  const auto per_router_ivcs = static_cast<std::size_t>(inputs_ * nvcs_);
  vc_requests_.resize(per_router_ivcs);
  vc_choice_.assign(per_router_ivcs, -1);
  vc_mark_.assign(per_router_ivcs, 0);
  requests_.resize(per_router_ivcs);
  grants_.resize(per_router_ivcs);
  sa_vc_mask_.assign(static_cast<std::size_t>(inputs_), 0);
  sa_port_mask_.assign(static_cast<std::size_t>(outputs_), 0);
  sa_pick_.assign(static_cast<std::size_t>(inputs_), -1);
  sa_touched_.assign(static_cast<std::size_t>(outputs_), 0);
  step_ = step_for(nvcs_);
}

void FlatRouters::ArenaDelete::operator()(std::byte* p) const {
  ::operator delete[](p, std::align_val_t{64});
}

void FlatRouters::attach(std::deque<Link>& links, int routers) {
  for (Link& l : links) {
    const bool from_router = l.upstream.component < routers;
    const bool to_router = l.downstream.component < routers;
    const auto up = static_cast<std::size_t>(l.upstream.port);
    const auto down = static_cast<std::size_t>(l.downstream.port);
    if (from_router && to_router) {
      const View sender = view(l.upstream.component);
      sender.downstream()[up] = {l.downstream.component, l.downstream.port};
      view(l.downstream.component).upstream()[down] = {l.upstream.component, l.upstream.port};
      sender.out_links()[up] = &l;
    } else if (to_router) {  // injection: an endpoint sends, this router receives
      view(l.downstream.component).in_links()[down] = &l;
      l.flit_watch = &words_[static_cast<std::size_t>(l.downstream.component)].local_flits;
      l.flit_watch_bit = std::uint64_t{1} << l.downstream.port;
    } else if (from_router) {  // ejection
      view(l.upstream.component).out_links()[up] = &l;
      l.credit_watch = &words_[static_cast<std::size_t>(l.upstream.component)].local_credits;
      l.credit_watch_bit = std::uint64_t{1} << l.upstream.port;
    }
  }
}

FlatRouters::Record FlatRouters::compact(const Flit& f) {
  return {f.packet_id, f.src, f.dst,  static_cast<std::uint16_t>(f.hops),
          f.index,     f.vc,  f.type, f.payload_bytes};
}

Flit FlatRouters::expand(const Record& r, bool payload) {
  Flit f;
  f.packet_id = r.packet_id;
  f.src = r.src;
  f.dst = r.dst;
  f.index = r.index;
  f.vc = r.vc;
  f.type = r.type;
  f.hops = r.hops;
  fill_payload_or_length(r.packet_id, r.index, r.payload_bytes, f, !payload);
  return f;
}

FlatRouters::Record FlatRouters::admit(int r, const Flit& flit) const {
  // A synthetic terminal's flit has no message fields and no multicast handle, and its
  // payload is fill_payload's (Terminal::inject), or absent (payload-free endpoints): the
  // header is checked here, the payload end to end by the scoreboard, whose checksum of what
  // was created meets the one of what arrives, rebuilt by expand().
  if (flit.message != 0 || flit.tag != 0 || flit.message_bytes != 0 || flit.offset != 0 ||
      flit.mcast != 0 || flit.mpos != 0)
    throw std::logic_error(fmt::format(
        "r{}: flit {} of packet {} is not a synthetic terminal's flit (it has message or "
        "multicast fields): the flat engine cannot carry it",
        r, flit.index, flit.packet_id));
  return compact(flit);
}

// Appends `flit`, eligible from cycle `ready`, to input VC `q` of router `router`, whose ring is
// `ring` (depth slots); returns whether the VC was empty (the flit is its front). Both ways into
// a VC use it: from an endpoint's link (step_vcs) and from the router upstream (send_flit).
bool FlatRouters::push(Vc& q, Entry* ring, const Record& flit, Cycle ready, int depth, int router) {
  if (q.count == depth)
    throw std::logic_error(
        fmt::format("r{}: flit buffer overflow: credit protocol violated", router));
  int s = q.head + q.count;
  if (s >= depth) s -= depth;
  ring[s] = {ready, flit};
  const bool empty = q.count == 0;
  if (empty) {
    q.front_since = ready;
    q.front_ready = ready;
  }
  ++q.count;
  return empty;
}

// One step keeps the router's state it touches most (its busy ports, the wake-up it computes,
// the blocked flit-cycles it counts) and the shape of the network in locals, and the requests
// and grants in fixed-capacity scratch arrays: the compiler cannot keep members in registers
// across the stores into the flat arrays.
template <int kVcs>
int FlatRouters::step_vcs(int r, Cycle now, ActivityCalendar& calendar, bool measuring) {
  const auto ri = static_cast<std::size_t>(r);
  const int nv = kVcs > 0 ? kVcs : nvcs_;
  const int depth = depth_;
  const Cycle delay = delay_;
  const View v = view(r);
  Vc* const vcs = v.vcs();
  VcInfo* const info = v.info();
  Entry* const buffers = v.buffers();
  std::uint32_t* const busy = v.busy();
  std::uint32_t* const active = v.active();
  Credits* const credits = v.credits();
  Words& w = words_[ri];
  std::uint64_t busy_ports = w.busy_ports;  // also: whether the router holds flits

  // The flits from the endpoint (those from the routers upstream are in the rings already:
  // send_flit).
  for (std::uint64_t ports = w.local_flits; ports != 0; ports &= ports - 1) {
    const int p = __builtin_ctzll(ports);
    Link* link = v.in_links()[p];
    while (link->flits.ready(now)) {
      const Record flit = admit(r, link->flits.front());
      if (flit.vc >= nv)
        throw std::logic_error(fmt::format("r{}: flit on nonexistent VC {}", r, flit.vc));
      const int ivc = p * nv + flit.vc;
      push(vcs[ivc], buffers + static_cast<std::ptrdiff_t>(ivc) * depth, flit,
           link->flits.front_arrival() + delay, depth, r);
      busy[p] |= 1u << flit.vc;
      busy_ports |= std::uint64_t{1} << p;
      link->flits.pop();
    }
    if (link->flits.empty()) w.local_flits &= ~(std::uint64_t{1} << p);
  }
  for (std::uint64_t ports = w.local_credits; ports != 0; ports &= ports - 1) {
    const int p = __builtin_ctzll(ports);
    Link* link = v.out_links()[p];
    while (link->credits.ready(now)) link->credits.pop();  // unlimited at an endpoint
    if (link->credits.empty()) w.local_credits &= ~(std::uint64_t{1} << p);
  }
  if (busy_ports == 0) return 0;  // nothing arrived, nothing held

  bool changed = false;
  Cycle next_ready = ActivityCalendar::kNever;
  std::uint64_t blocked = 0;
  int* const owner = v.owner();

  // VC allocation: Router::allocate_vcs for the delay model and unicast worms, with
  // VcAllocator::input_first. Heads are routed when they reach the front (send_flit routes
  // those that enter an empty VC).
  VcRequest* const vreq = vc_requests_.data();
  int nvreq = 0;
  for (std::uint64_t ports = busy_ports; ports != 0; ports &= ports - 1) {
    const int p = __builtin_ctzll(ports);
    for (std::uint32_t m = busy[p] & ~active[p]; m != 0; m &= m - 1) {
      const int vc = __builtin_ctz(m);
      const int ivc = p * nv + vc;
      Vc& q = vcs[ivc];
      if (q.state == VcState::kIdle) {  // a head that reached the front behind a tail
        const Record& front = buffers[ivc * depth + q.head].flit;
        if (!front.head())
          throw std::logic_error(fmt::format(
              "r{}: input {} VC {} has a {} flit of packet {} with no packet in progress", r, p, vc,
              to_string(front.type), front.packet_id));
        VcInfo& in = info[ivc];
        in.packet = front.packet_id;
        in.head_at = now;
        q.state = VcState::kRouted;
        in.route = route_compute_.route(static_cast<NodeId>(r), front.dst, p, vc);
      }
      if (q.front_ready > now)
        next_ready = std::min(next_ready, q.front_ready);
      else
        vreq[nvreq++] = {ivc, info[ivc].route};
    }
  }
  if (nvreq > 0) {
    const int ovcs = outputs_ * nv;
    const int ivcs = inputs_ * nv;
    std::uint16_t* const va_in = v.va_in();
    std::uint16_t* const va_out = v.va_out();
    vc_input_first(
        vreq, nvreq, ivcs,
        [&](const RouteResult& route, int from) {
          return first_free_output_vc(route, nv, owner, from);
        },
        [&](int ivc) { return static_cast<int>(va_in[ivc]); },
        [&](int o) { return static_cast<int>(va_out[o]); },
        [&](int ivc, int o) { va_in[ivc] = static_cast<std::uint16_t>(round_robin_next(o, ovcs)); },
        [&](int o, int ivc) {
          va_out[o] = static_cast<std::uint16_t>(round_robin_next(ivc, ivcs));
        },
        vc_choice_.data(), vc_mark_.data(),
        [&](int input_vc, int o) {  // applied at once: the owners are not read any more
          changed = true;
          Vc& q = vcs[input_vc];
          q.state = VcState::kActive;
          active[input_vc / nv] |= 1u << (input_vc % nv);
          q.out_port = static_cast<std::int16_t>(o / nv);
          q.out_vc = static_cast<std::uint8_t>(o % nv);
          if (measuring) blocked += now - std::max(q.front_ready, info[input_vc].head_at);
          owner[o] = input_vc;
        });
  }

  // Switch allocation: Router::allocate_switch for the delay model and unicast worms, with
  // SwitchAllocator's grant_all (no two requests share an input or output port) and
  // input_first otherwise.
  SwitchRequest* const req = requests_.data();
  int nreq = 0;
  std::uint64_t request_outs = 0;
  bool conflict = false;
  for (std::uint64_t ports = busy_ports; ports != 0; ports &= ports - 1) {
    const int p = __builtin_ctzll(ports);
    bool port_requested = false;
    for (std::uint32_t m = busy[p] & active[p]; m != 0; m &= m - 1) {
      const int vc = __builtin_ctz(m);
      const Vc& q = vcs[p * nv + vc];
      if (q.front_ready > now) {
        next_ready = std::min(next_ready, q.front_ready);
        continue;
      }
      if (credits[q.out_port * nv + q.out_vc].available(now) == 0) continue;
      req[nreq++] = {p, vc, q.out_port};
      const std::uint64_t out_bit = std::uint64_t{1} << q.out_port;
      conflict |= (request_outs & out_bit) != 0 || port_requested;
      request_outs |= out_bit;
      port_requested = true;
    }
  }
  std::uint16_t* const sa_in = v.sa_in();
  std::uint16_t* const sa_out = v.sa_out();
  const int inputs = inputs_;
  const auto update_in = [&](int in, int vc) {
    sa_in[in] = static_cast<std::uint16_t>(round_robin_next(vc, nv));
  };
  const auto update_out = [&](int out, int in) {
    sa_out[out] = static_cast<std::uint16_t>(round_robin_next(in, inputs));
  };
  const SwitchRequest* grants = req;
  int ngrants = nreq;
  if (!conflict) {
    switch_grant_all(req, nreq, update_in, update_out);
  } else {
    SwitchRequest* const won = grants_.data();
    ngrants = 0;
    switch_input_first(
        req, nreq, [&](int in) { return static_cast<int>(sa_in[in]); },
        [&](int out) { return static_cast<int>(sa_out[out]); }, update_in, update_out,
        [&](int in, int vc) { return static_cast<int>(vcs[in * nv + vc].out_port); },
        sa_vc_mask_.data(), sa_port_mask_.data(), sa_pick_.data(), sa_touched_.data(),
        [&](int in, int vc, int out) {
          won[ngrants++] = {in, vc, out};
        });
    grants = won;
    // A ready flit that lost its output port to another packet (Router::allocate_switch).
    if (measuring)
      for_each_lost_request(req, nreq, won, ngrants,
                            [&](const SwitchRequest&, const SwitchRequest&) { ++blocked; });
  }

  // Traversal: Router::traverse with pop_input and send for the delay model.
  const int network = network_;
  const bool observed = !observers_.empty();
  for (int k = 0; k < ngrants; ++k) {
    const SwitchRequest g = grants[k];
    const int ivc = g.in_port * nv + g.vc;
    Vc& q = vcs[ivc];
    Record& flit = buffers[ivc * depth + q.head].flit;  // a pop leaves the slot intact
    // Pop, and the freed slot's credit upstream.
    --q.count;
    q.head = static_cast<std::uint16_t>(q.head + 1 == depth ? 0 : q.head + 1);
    q.front_since = now;
    if (q.count == 0) {
      busy[g.in_port] &= ~(1u << g.vc);
      if (busy[g.in_port] == 0) busy_ports &= ~(std::uint64_t{1} << g.in_port);
    } else {
      const Cycle ready = buffers[ivc * depth + q.head].ready;
      q.front_ready = ready;
      // A flit sent this cycle (send_flit) reaches the front when it arrives, as in an empty VC.
      if (ready > now + delay) q.front_since = ready;
    }
    if (g.in_port < network) {
      send_credit(v.upstream()[g.in_port], g.vc, now, calendar);
    } else {
      Link* link = v.in_links()[g.in_port];
      calendar.wake(link->upstream.component,
                    link->send_credit(now, static_cast<std::uint8_t>(g.vc)));
    }
    // Send.
    const int out_vc = q.out_vc;
    flit.vc = static_cast<std::uint8_t>(out_vc);
    if (observed) {
      const FlitEvent e{now,    static_cast<NodeId>(r), g.out_port,
                        out_vc, flit.packet_id,         flit.index};
      for (RouterObserver* o : observers_) o->on_departure(e);
    }
    const int ovc = g.out_port * nv + out_vc;
    if (g.out_port < network) {
      ++flit.hops;
      Credits& c = credits[ovc];
      if (c.available(now) <= 0) throw std::logic_error(fmt::format("r{}: sent without credit", r));
      c.take();
      if (measuring) ++v.carried()[g.out_port];
      send_flit<kVcs>(v.downstream()[g.out_port], out_vc, flit, now, calendar);
    } else {
      Link* link = v.out_links()[g.out_port];
      if (measuring) ++link->flits_carried;
      calendar.wake(link->downstream.component, link->send_flit(now, expand(flit, !payload_free_)));
    }
    if (flit.tail()) {
      owner[ovc] = -1;
      q.state = VcState::kIdle;
      active[g.in_port] &= ~(1u << g.vc);
      q.out_port = -1;
    }
  }
  w.busy_ports = busy_ports;
  blocked_ += blocked;
  if (busy_ports != 0) {
    if (ngrants > 0 || changed)
      calendar.wake_next(r);
    else if (next_ready != ActivityCalendar::kNever)
      calendar.wake(r, next_ready);
  }
  return ngrants;
}

// A flit's traversal of the link to router `down.router` (port `down.port`, VC `vc`), sent in
// cycle `now`: written into the ring of that input VC and counted there at once, where the
// reference engine's receiver counts it in its step of the next cycle (link latency 1). Nothing
// of the receiver's changes with it before then: the flit is not eligible before its ready
// cycle, and a head entering an empty VC is routed here with its arrival cycle (head_at) as the
// receiver would route it then. So the receiver need not step in the next cycle for it: it is
// woken for the cycle its flit becomes eligible at the front, and not at all for a flit behind
// others (the front's own wake-up comes first). The next cycle is evaluated still
// (visit_next), as in the reference engine.
template <int kVcs>
void FlatRouters::send_flit(const Peer& down, int vc, const Record& flit, Cycle now,
                            ActivityCalendar& calendar) {
  const int nv = kVcs > 0 ? kVcs : nvcs_;
  const int depth = depth_;
  const View d = view(down.router);
  const int ivc = down.port * nv + vc;
  Vc& q = d.vcs()[ivc];
  const Cycle ready = now + 1 + delay_;
  if (push(q, d.buffers() + static_cast<std::ptrdiff_t>(ivc) * depth, flit, ready, depth,
           down.router)) {
    calendar.wake(down.router, ready);
    // The VC was empty: its port's and the router's masks take it (a non-empty one is in them).
    d.busy()[down.port] |= 1u << vc;
    words_[static_cast<std::size_t>(down.router)].busy_ports |= std::uint64_t{1} << down.port;
    if (flit.head()) {
      // An empty VC is idle between packets (a tail leaves it so): the head is routed in its
      // arrival cycle, as the reference engine's receiver routes it when it counts it.
      VcInfo& in = d.info()[ivc];
      in.packet = flit.packet_id;
      in.head_at = now + 1;
      q.state = VcState::kRouted;
      in.route = route_compute_.route(static_cast<NodeId>(down.router), flit.dst, down.port, vc);
    }
  }
  calendar.visit_next();
}

// A credit for output port `up.port`, VC `vc` of router `up.router`, sent in cycle `now`: the
// reference engine's router counts it in the next cycle. It is counted at once, with the cycle
// it was sent in (Credits), and not available before the next (Credits::available), so
// the router need not step in the next cycle for it: it is woken then only if the counter was
// 0 (a flit of it may wait for this credit; with credits left, none waits). The next cycle is
// evaluated still (visit_next), as in the reference engine.
void FlatRouters::send_credit(const Peer& up, int vc, Cycle now, ActivityCalendar& calendar) {
  Credits& c = view(up.router).credits()[up.port * nvcs_ + vc];
  if (c.count() >= depth_)
    throw std::logic_error(fmt::format("r{}: credit counter overflow", up.router));
  if (c.count() == 0) calendar.wake_next(up.router);
  c.give(now);
  calendar.visit_next();
}

FlatRouters::StepFn FlatRouters::step_for(int vcs) {
  switch (vcs) {
    case 1: return &FlatRouters::step_vcs<1>;
    case 2: return &FlatRouters::step_vcs<2>;
    case 4: return &FlatRouters::step_vcs<4>;
    default: return &FlatRouters::step_vcs<0>;
  }
}

std::uint64_t FlatRouters::flits_held() const {
  std::uint64_t n = 0;
  const int ivcs = inputs_ * nvcs_;
  for (int r = 0; r < routers_; ++r) {
    const Vc* vcs = view(r).vcs();
    for (int i = 0; i < ivcs; ++i) n += static_cast<std::uint64_t>(vcs[i].count);
  }
  return n;
}

void FlatRouters::finish() {
  for (int r = 0; r < routers_; ++r) {
    const View v = view(r);
    for (int p = 0; p < network_; ++p)
      if (v.out_links()[p] != nullptr) v.out_links()[p]->flits_carried = v.carried()[p];
  }
}

void FlatRouters::export_state(const std::vector<std::unique_ptr<Router>>& routers) const {
  for (int r = 0; r < routers_; ++r) export_router(r, *routers[static_cast<std::size_t>(r)]);
}

// The reference engine's state after cycle now_: a flit or credit sent in cycle now_ is still on
// its link there (send_flit, send_credit), and a head that has arrived is routed.
void FlatRouters::export_router(int r, Router& router) const {
  const View view_r = view(r);
  int buffered = 0;
  for (int p = 0; p < inputs_; ++p)
    for (int v = 0; v < nvcs_; ++v) {
      const int ivc = p * nvcs_ + v;
      const Vc& q = view_r.vcs()[ivc];
      const VcInfo& in = view_r.info()[ivc];
      InputVc& dst = router.inputs_[static_cast<std::size_t>(p)].vcs[static_cast<std::size_t>(v)];
      dst.buffer = FlitBuffer(depth_);
      for (int i = 0; i < q.count; ++i) {
        int s = q.head + i;
        if (s >= depth_) s -= depth_;
        const Entry& e = view_r.buffers()[ivc * depth_ + s];
        if (e.ready - delay_ > now_) break;  // on the link
        dst.buffer.push(expand(e.flit, true), e.ready);
        ++buffered;
      }
      dst.state = q.state;
      dst.route = in.route;
      dst.out_port = q.state == VcState::kActive ? q.out_port : -1;
      dst.out_vc = q.state == VcState::kActive ? q.out_vc : -1;
      dst.packet = in.packet;
      dst.head_at = in.head_at;
      dst.front_since = q.front_since;
      // A head routed on its way into an empty VC (send_flit) and still on the link.
      if (q.state == VcState::kRouted && dst.buffer.empty()) dst.state = VcState::kIdle;
    }
  router.buffered_ = buffered;
  for (int o = 0; o < outputs_; ++o)
    for (int v = 0; v < nvcs_; ++v) {
      const int ovc = o * nvcs_ + v;
      router.owner_[static_cast<std::size_t>(ovc)] = view_r.owner()[ovc];
      const Credits& x = view_r.credits()[ovc];
      if (x.count() < 0) continue;
      const int credits = x.available(now_);  // one sent in cycle now_ is on the link
      CreditCounter& c =
          router.outputs_[static_cast<std::size_t>(o)].credits[static_cast<std::size_t>(v)];
      c = CreditCounter(depth_);
      for (int k = credits; k < depth_; ++k) c.consume();
    }
}

}  // namespace wormsim
