#include "terminal.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace wormsim {

Terminal::Terminal(const TerminalParams& params, const DestinationPicker& picker,
                   const Topology& topology, const RouteCompute& route_compute,
                   MulticastTable& multicast, Scoreboard& scoreboard, Statistics& stats)
    : params_(params),
      per_flit_(addresses_per_header_flit(params.header_encoding, params.path_ir, params.nodes,
                                          params.flit_bytes)),
      picker_(picker),
      topology_(topology),
      route_compute_(route_compute),
      multicast_(multicast),
      scoreboard_(scoreboard),
      stats_(stats),
      destinations_(params.multicast_pattern, params.multidest, params.multicast_destinations,
                    params.hotspots, topology, route_compute, params.id),
      rng_(params.seed * 0x9e3779b97f4a7c15ull + params.id),
      arrival_probability_(std::min(1.0, params.injection_rate / params.packet_length)),
      queues_(params.layout.model == PortModel::kAllPort
                  ? static_cast<std::size_t>(params.layout.injection)
                  : 1u),
      reassembly_(params.id, params.layout.ejection, params.vcs, false) {
  generate_until_ = params.generate_until;
  unicast_vcs_ = route_compute.injection_vcs(TrafficClass::kUnicast);
  worm_vcs_ = route_compute.injection_vcs(TrafficClass::kMultidest);
  ejection_.assign(static_cast<std::size_t>(params.layout.ejection), nullptr);
  channels_.reserve(static_cast<std::size_t>(params.layout.injection));
  for (int c = 0; c < params.layout.injection; ++c)
    channels_.push_back({InjectionChannel(params.vcs, params.buffer_depth), {}});
}

void Terminal::attach_injection(int channel, Link* link) {
  channels_[static_cast<std::size_t>(channel)].wire.attach(link);
  link->credit_watch = &credits_pending_;
  link->credit_watch_bit = std::uint64_t{1} << channel;
}
void Terminal::attach_ejection(int channel, Link* link) {
  ejection_[static_cast<std::size_t>(channel)] = link;
  link->flit_watch = &eject_pending_;
  link->flit_watch_bit = std::uint64_t{1} << channel;
}

Cycle Terminal::draw_gap() {
  // Cycles without an arrival before the next one, for a Bernoulli arrival in every cycle
  // with probability p: geometric, drawn by inversion (log1p keeps tiny p accurate).
  const double p = arrival_probability_;
  if (p >= 1.0) return 0;
  const double u = 1.0 - std::generate_canonical<double, 53>(rng_);  // (0, 1]
  const double gap = std::floor(std::log(u) / std::log1p(-p));
  return gap >= 1e18 ? Cycle{1} << 60 : static_cast<Cycle>(gap);
}

void Terminal::start(ActivityCalendar& calendar) {
  synthetic_ = params_.injection_rate > 0 && picker_.injects(params_.id);
  if (!synthetic_) return;
  next_arrival_ = draw_gap();
  if (next_arrival_ < params_.generate_until) calendar.wake(params_.component, next_arrival_);
}

void Terminal::schedule_packet(NodeId dst, int length, Cycle at, ActivityCalendar& calendar) {
  auto pos = std::upper_bound(scripted_.begin(), scripted_.end(), at,
                              [](Cycle c, const auto& e) { return c < e.first; });
  scripted_.insert(pos, {at, Scripted{dst, length, {}}});
  next_scripted_ = scripted_.front().first;
  calendar.wake(params_.component, at);
}

void Terminal::schedule_multicast(const std::vector<NodeId>& dests, int length, Cycle at,
                                  ActivityCalendar& calendar) {
  auto pos = std::upper_bound(scripted_.begin(), scripted_.end(), at,
                              [](Cycle c, const auto& e) { return c < e.first; });
  scripted_.insert(pos, {at, Scripted{dests.front(), length, dests}});
  next_scripted_ = scripted_.front().first;
  calendar.wake(params_.component, at);
}

bool Terminal::set_payload_free(bool on) {
  payload_free_ = on;
  reassembly_.set_payload_free(on);
  return true;
}

std::size_t Terminal::queued_packets() const {
  std::size_t n = 0;
  for (const auto& q : queues_) n += q.size();
  if (n != queued_) throw std::logic_error("Terminal: queued packet count out of step");
  return n;
}

PacketId Terminal::create_packet(NodeId dst, int length, Cycle now, std::vector<NodeId> dests,
                                 bool software) {
  const PacketId id = sequence_++ * static_cast<PacketId>(params_.nodes) + params_.id;
  PacketRecord record;
  record.src = params_.id;
  record.dst = dst;
  std::uint32_t mcast = 0;
  int headers = 1;
  if (!dests.empty()) {
    headers = header_flits(params_.header_encoding, dests.size(), params_.nodes, params_.flit_bytes,
                           params_.path_ir);
    length += headers - 1;
    record.multidestination = true;
    record.remaining = dests;
    if (params_.path_ir == PathIr::kMinimal) {
      record.strip_path = dests;
      record.strip_per_flit = per_flit();
    }
    mcast = multicast_.add(params_.multidest, params_.id, std::move(dests), length);
  }
  record.length = static_cast<std::uint32_t>(length);
  record.created = now;
  record.measured = !software && stats_.measuring(now);
  record.software_multicast = software;
  std::uint64_t h = kChecksumSeed;
  Flit scratch;
  for (int i = 0; i < length; ++i) {
    fill_payload_or_length(id, static_cast<std::uint32_t>(i), payload_bytes(i, headers), scratch,
                           payload_free_);
    h = checksum_step(h, scratch, payload_free_);
  }
  record.checksum = h;
  if (effects_ != nullptr) {
    effects_->created(id, record, length, now);
  } else {
    scoreboard_.on_created(id, record);
    stats_.on_created(length, now, record.multidestination);
  }
  int channel = 0;
  if (params_.layout.model == PortModel::kAllPort && dst != params_.id)
    channel = route_compute_.first_hop_port(params_.id, dst);
  queue_for(channel).push_back({id, dst, length, mcast, headers});
  ++queued_;
  return id;
}

// A multicast created by this node: a multidestination worm, or on unicast routers the
// source's sends of a software multicast (entering the queue now, in sending order).
void Terminal::create_multicast(std::vector<NodeId> dests, int length, Cycle now) {
  if (params_.multidest != MultidestMode::kNone) {
    const NodeId first = dests.front();
    create_packet(first, length, now, std::move(dests));
    return;
  }
  if (software_ == nullptr)
    throw std::logic_error(fmt::format(
        "node {}: a multicast on unicast routers needs attach_software_multicast()", params_.id));
  dests.push_back(params_.id);
  std::vector<NodeId> chain = routing_ordered_chain(route_compute_, topology_, std::move(dests));
  const auto root =
      static_cast<std::uint32_t>(std::find(chain.begin(), chain.end(), params_.id) - chain.begin());
  for (const SoftwareMulticast::Packet& p :
       software_->begin(std::move(chain), root, length, now, stats_.measuring(now)))
    create_software(p, now);
}

void Terminal::create_software(const SoftwareMulticast::Packet& p, Cycle now) {
  software_->on_created(create_packet(p.dst, p.length, now, {}, true), p.hop);
}

Terminal::StepResult Terminal::step_deferred(Cycle now, ActivityCalendar& calendar, bool measuring,
                                             EndpointEffects& effects) {
  effects_ = &effects;
  try {
    const StepResult r = step(now, calendar, measuring);
    effects_ = nullptr;
    return r;
  } catch (...) {
    effects_ = nullptr;
    throw;
  }
}

Terminal::StepResult Terminal::step(Cycle now, ActivityCalendar& calendar, bool measuring) {
  StepResult result;
  result.moved = eject(now, calendar);
  collect_watched_credits(credits_pending_, now, [this](int c) -> InjectionChannel& {
    return channels_[static_cast<std::size_t>(c)].wire;
  });
  if (synthetic_ && next_arrival_ == now && now < generate_until_) {
    if (params_.multicast_fraction > 0 &&
        std::generate_canonical<double, 53>(rng_) < params_.multicast_fraction) {
      std::vector<NodeId> dests = destinations_.draw(rng_);
      if (!dests.empty()) create_multicast(std::move(dests), params_.packet_length, now);
    } else if (const NodeId dst = picker_.pick(params_.id, rng_); dst != kNoNode) {
      create_packet(dst, params_.packet_length, now);
    }
    next_arrival_ = now + 1 + draw_gap();
    if (next_arrival_ < generate_until_) wake(calendar, params_.component, next_arrival_);
  }
  if (next_scripted_ <= now) {
    while (!scripted_.empty() && scripted_.front().first <= now) {
      Scripted& p = scripted_.front().second;
      if (p.dests.empty())
        create_packet(p.dst, p.length, now);
      else
        create_multicast(std::move(p.dests), p.length, now);
      scripted_.pop_front();
    }
    next_scripted_ = scripted_.empty() ? ActivityCalendar::kNever : scripted_.front().first;
  }
  if (next_forward_ <= now) {
    while (!forwards_.empty() && forwards_.front().first <= now) {
      create_software(forwards_.front().second, now);
      forwards_.pop_front();
    }
    next_forward_ = forwards_.empty() ? ActivityCalendar::kNever : forwards_.front().first;
  }
  const int injected = inject(now, calendar, measuring);
  result.moved += injected;
  // Without an injection this cycle, nothing changes before a credit arrives or the next
  // packet is due (both wake this NI).
  result.busy = injected > 0 && (queued_ > 0 || tx_busy_ != 0);
  return result;
}

int Terminal::inject(Cycle now, ActivityCalendar& calendar, bool measuring) {
  if (queued_ == 0 && tx_busy_ == 0) return 0;
  int moved = 0;
  const RouteResult& unicast = unicast_vcs_;
  const RouteResult& worms = worm_vcs_;
  for (int c = 0; c < static_cast<int>(channels_.size()); ++c) {
    Channel& ch = channels_[static_cast<std::size_t>(c)];
    if (!ch.wire.busy()) {
      std::deque<Pending>& q = queue_for(c);
      if (q.empty()) continue;
      const RouteResult& vcs = q.front().mcast != 0 ? worms : unicast;
      if (!ch.wire.start(q.front().length, vcs.vc_lo, vcs.vc_hi)) continue;
      ch.packet = q.front();
      q.pop_front();
      --queued_;
      tx_busy_ |= std::uint64_t{1} << c;
    }
    if (!ch.wire.can_send()) continue;
    Flit flit;
    flit.packet_id = ch.packet.id;
    flit.src = params_.id;
    flit.dst = ch.packet.dst;
    flit.mcast = ch.packet.mcast;
    flit.index = static_cast<std::uint16_t>(ch.wire.next_flit());
    if (flit.mcast != 0 && per_flit() > 0)
      flit.dst = address_flit_target(multicast_.at(flit.mcast), flit.index, per_flit());
    const bool head = ch.wire.next_flit() == 0;
    const bool tail = ch.wire.next_is_tail();
    flit.type = head ? (tail ? FlitType::kHeadTail : FlitType::kHead)
                     : (tail ? FlitType::kTail : FlitType::kBody);
    fill_payload_or_length(flit.packet_id, flit.index,
                           payload_bytes(flit.index, ch.packet.header_flits), flit, payload_free_);
    if (effects_ != nullptr) {
      if (head) effects_->head_injected(flit.packet_id, now, ch.packet.header_flits);
      effects_->wake(ch.wire.receiver(), ch.wire.send(now, measuring, flit));
      effects_->flit_injected();
    } else {
      if (head) {
        scoreboard_.on_injected(flit.packet_id, now);
        stats_.on_header_injected(ch.packet.header_flits);
      }
      ch.wire.send(now, calendar, measuring, stats_, flit);
    }
    if (!ch.wire.busy()) tx_busy_ &= ~(std::uint64_t{1} << c);
    ++moved;
  }
  return moved;
}

int Terminal::eject(Cycle now, ActivityCalendar& calendar) {
  int moved = 0;
  for (std::uint64_t pending = eject_pending_; pending != 0; pending &= pending - 1) {
    const int c = __builtin_ctzll(pending);
    Link* link = ejection_[static_cast<std::size_t>(c)];
    while (link->flits.ready(now)) {
      consume(c, link->flits.front(), now, calendar);
      link->flits.pop();
      ++moved;
    }
    if (link->flits.empty()) eject_pending_ &= ~(std::uint64_t{1} << c);
  }
  return moved;
}

void Terminal::consume(int channel, const Flit& flit, Cycle now, ActivityCalendar& calendar) {
  if (effects_ != nullptr) {
    // A deferred step runs only without multicasts (SyntheticNetwork): a tail completes a
    // unicast packet, whose delivery the commit makes.
    if (flit.mcast != 0)
      throw std::logic_error(
          fmt::format("node {}: flit of multidestination worm {} in a deferred step", params_.id,
                      flit.packet_id));
    if (const PacketReassembly::Packet* p = reassembly_.accept(channel, flit, now, *effects_))
      effects_->delivered(flit.packet_id, params_.id, p->first, p->flits, p->checksum, now,
                          flit.hops);
    return;
  }
  const PacketReassembly::Packet* p = reassembly_.accept(channel, flit, now, scoreboard_, stats_);
  if (p == nullptr) return;
  if (const PacketRecord* rec = scoreboard_.on_delivered(flit.packet_id, params_.id, p->first,
                                                         p->flits, p->checksum, now)) {
    stats_.on_delivered(flit.packet_id, *rec, now, flit.hops);
    if (flit.mcast != 0) multicast_.consumed(flit.mcast);
    if (rec->software_multicast && software_ != nullptr)
      receive_software(flit.packet_id, now, calendar);
  }
}

// The node's software forwards a software multicast packet it consumed in cycle `now`: each
// forward enters the queue forward_cycles after the node's previous one (step() creates those
// due now; later ones wake this node and hold the run open).
void Terminal::receive_software(PacketId id, Cycle now, ActivityCalendar& calendar) {
  if (!software_->on_delivered(id, now, received_sends_)) return;
  const Cycle f = software_->forward_cycles();
  for (const SoftwareMulticast::Packet& p : received_sends_) {
    software_free_ = std::max(software_free_, now) + f;
    forwards_.emplace_back(software_free_, p);
    next_forward_ = forwards_.front().first;
    if (software_free_ > now) {
      calendar.wake(params_.component, software_free_);
      if (host_ != nullptr) host_->hold_until(software_free_);
    }
  }
}

}  // namespace wormsim
