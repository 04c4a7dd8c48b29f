// Run statistics. Packets created inside the measurement window [warmup, warmup+measure) are
// "measured"; their latencies are collected whenever they are delivered (including during
// drain). Packet latency = tail consumed at the destination NI - packet created (includes
// source queueing); network latency = tail consumed - head left the source NI. Accepted
// throughput = flits consumed by NIs during the window / (nodes * window cycles); offered
// load likewise with flits created.
//
// Per class (unicast packets, multidestination worms): a worm is one sample, taken when its
// LAST destination consumed the tail (the scoreboard returns its record at every destination,
// with `remaining` empty only at the last); the run-wide latency above has one sample per
// delivery instead. Accepted flits per class count every consumed copy. Blocked flit-cycles
// (router_observer.h: on_blocked + on_blocked_by, as MessageRecord::blocked_cycles defines
// them) are summed per class over the reports routers make inside the window.
//
// Consumption-channel occupancy: a consumption (ejection) channel is busy in every cycle from
// the one in which a head arrives at its NI through the one in which that worm's tail arrives,
// while any worm (on any of its VCs) is open on it; busy cycles inside the covered window,
// per channel. Header flits: the head of every packet plus the extra header flits of
// multidestination worms, counted when the head is injected.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "flit.h"
#include "scoreboard.h"

namespace wormsim {

struct Distribution {
  std::uint64_t count = 0;
  double mean = 0;
  std::uint64_t min = 0;
  std::uint64_t max = 0;
  std::uint64_t p50 = 0;
  std::uint64_t p95 = 0;
  std::uint64_t p99 = 0;
  std::uint64_t bin_width = 1;
  std::vector<std::uint64_t> histogram;  // bin i counts [min + i*width, min + (i+1)*width)

  static Distribution of(std::vector<std::uint32_t> samples, std::size_t bins = 32);
};

// One delivered packet, kept only when the packet log is enabled (tests, experiments).
struct DeliveredPacket {
  PacketId id = 0;
  PacketRecord record;
  Cycle delivered = 0;
  int hops = 0;
};

inline std::size_t class_index(bool multidest) { return multidest ? 1u : 0u; }

struct ClassStats {
  std::uint64_t created = 0;                   // packets (worms) created, whole run
  std::uint64_t measured_created = 0;          // created inside the window
  std::uint64_t completed = 0;                 // delivered to every destination, whole run
  std::uint64_t offered_flits = 0;             // created inside the window (incl. header flits)
  std::uint64_t accepted_flits = 0;            // consumed inside the window (every copy)
  std::uint64_t blocked_flit_cycles = 0;       // of packets created inside the window
  std::vector<std::uint32_t> latency;          // measured packets, at the last destination
  std::vector<std::uint32_t> network_latency;  // likewise
};

class Statistics {
 public:
  Statistics(int nodes, Cycle warmup, Cycle measure)
      : nodes_(nodes), begin_(warmup), end_(warmup + measure) {}

  bool measuring(Cycle now) const { return now >= begin_ && now < end_; }
  // The run ended at `cycle` (exclusive); a run that stops inside the window (deadlock)
  // normalises throughput by the part of the window it covered.
  void stop_at(Cycle cycle) { stopped_ = cycle; }
  Cycle window_begin() const { return begin_; }
  Cycle window_end() const { return end_; }
  // Cycles of the measurement window the run covered.
  Cycle covered_cycles() const {
    const Cycle end = std::min(end_, stopped_);
    return end > begin_ ? end - begin_ : 0;
  }

  void on_created(int flits, Cycle now, bool multidest = false) {
    ++packets_created_;
    ClassStats& k = classes_[class_index(multidest)];
    ++k.created;
    if (measuring(now)) {
      offered_flits_ += static_cast<std::uint64_t>(flits);
      k.offered_flits += static_cast<std::uint64_t>(flits);
      ++k.measured_created;
    }
  }
  void on_flit_injected() { ++flits_injected_; }
  // The head of a packet with `header_flits` header flits was injected.
  void on_header_injected(int header_flits) {
    header_flits_injected_ += static_cast<std::uint64_t>(header_flits);
  }
  // A packet of the class was blocked for `cycles` flit-cycles (a report inside the window).
  void on_blocked(bool multidest, Cycle cycles) {
    classes_[class_index(multidest)].blocked_flit_cycles += cycles;
  }
  // Copies a router made beyond one per buffered flit (multidestination replication).
  void on_flits_replicated(int n) { flits_replicated_ += static_cast<std::uint64_t>(n); }
  // Address flits a minimal path-IR router dropped (docs/multidestination.md).
  void on_flits_stripped(int n) { flits_stripped_ += static_cast<std::uint64_t>(n); }
  void on_flit_ejected(Cycle now, bool multidest = false) {
    ++flits_ejected_;
    if (measuring(now)) {
      ++accepted_flits_;
      ++classes_[class_index(multidest)].accepted_flits;
    }
  }
  // Consumption-channel occupancy: `channels_per_node` channels at each node (0: not tracked).
  void track_consumption(int channels_per_node) {
    consumption_per_node_ = channels_per_node;
    const auto n = static_cast<std::size_t>(nodes_) * static_cast<std::size_t>(channels_per_node);
    consumption_.assign(n, ConsumptionChannel{});
  }
  // A head (opens a worm) or a tail (closes it) arrived at `node`'s consumption `channel`.
  void on_consumption_head(NodeId node, int channel, Cycle now) {
    if (consumption_per_node_ == 0) return;
    ConsumptionChannel& c = consumption_at(node, channel);
    if (c.open++ == 0) c.since = now;
  }
  void on_consumption_tail(NodeId node, int channel, Cycle now) {
    if (consumption_per_node_ == 0) return;
    ConsumptionChannel& c = consumption_at(node, channel);
    if (c.open == 0) return;
    if (--c.open == 0) c.busy += clipped(c.since, now + 1);
  }
  int consumption_channels_per_node() const { return consumption_per_node_; }
  // Busy cycles of every consumption channel inside the covered window, [node * per_node + c];
  // a worm still open when the run stopped counts up to the stop.
  std::vector<Cycle> consumption_busy() const {
    std::vector<Cycle> out;
    out.reserve(consumption_.size());
    for (const ConsumptionChannel& c : consumption_)
      out.push_back(c.busy + (c.open > 0 ? clipped(c.since, end_) : 0));
    return out;
  }
  void enable_packet_log() { log_packets_ = true; }
  const std::vector<DeliveredPacket>& packet_log() const { return packet_log_; }

  void on_delivered(PacketId id, const PacketRecord& r, Cycle now, int hops) {
    ++packets_delivered_;
    if (log_packets_) packet_log_.push_back({id, r, now, hops});
    const bool last = r.remaining.empty();  // the last (or only) destination
    ClassStats& k = classes_[class_index(r.multidestination)];
    if (last) ++k.completed;
    if (!r.measured) return;
    latency_.push_back(static_cast<std::uint32_t>(now - r.created));
    network_latency_.push_back(static_cast<std::uint32_t>(now - r.injected));
    hops_.push_back(static_cast<std::uint32_t>(hops));
    if (!last) return;
    k.latency.push_back(static_cast<std::uint32_t>(now - r.created));
    k.network_latency.push_back(static_cast<std::uint32_t>(now - r.injected));
  }

  std::uint64_t flits_injected() const { return flits_injected_; }
  std::uint64_t flits_ejected() const { return flits_ejected_; }
  std::uint64_t flits_replicated() const { return flits_replicated_; }
  std::uint64_t flits_stripped() const { return flits_stripped_; }
  std::uint64_t flits_in_flight() const {
    return flits_injected_ + flits_replicated_ - flits_ejected_ - flits_stripped_;
  }
  std::uint64_t packets_created() const { return packets_created_; }
  std::uint64_t packets_delivered() const { return packets_delivered_; }
  double offered_load() const { return per_node_cycle(offered_flits_); }
  double accepted_throughput() const { return per_node_cycle(accepted_flits_); }
  const std::vector<std::uint32_t>& latencies() const { return latency_; }
  const std::vector<std::uint32_t>& network_latencies() const { return network_latency_; }
  const std::vector<std::uint32_t>& hops() const { return hops_; }
  const ClassStats& by_class(TrafficClass c) const { return classes_[static_cast<std::size_t>(c)]; }
  // Offered load and accepted throughput of a class, per node and cycle of the window.
  double offered_load(TrafficClass c) const { return per_node_cycle(by_class(c).offered_flits); }
  double accepted_throughput(TrafficClass c) const {
    return per_node_cycle(by_class(c).accepted_flits);
  }
  std::uint64_t header_flits_injected() const { return header_flits_injected_; }

 private:
  double per_node_cycle(std::uint64_t flits) const {
    const Cycle cycles = covered_cycles();
    if (cycles == 0) return 0;
    return static_cast<double>(flits) / (static_cast<double>(nodes_) * static_cast<double>(cycles));
  }
  struct ConsumptionChannel {
    std::uint32_t open = 0;  // worms whose head arrived and tail did not
    Cycle since = 0;         // the head arrival that made it busy
    Cycle busy = 0;          // closed busy cycles inside the window
  };
  ConsumptionChannel& consumption_at(NodeId node, int channel) {
    return consumption_[static_cast<std::size_t>(node) *
                            static_cast<std::size_t>(consumption_per_node_) +
                        static_cast<std::size_t>(channel)];
  }
  // Cycles of [from, to) inside the covered window [begin, min(end, stop)).
  Cycle clipped(Cycle from, Cycle to) const {
    const Cycle lo = std::max(from, begin_);
    const Cycle hi = std::min({to, end_, stopped_});
    return hi > lo ? hi - lo : 0;
  }
  int nodes_;
  Cycle begin_;
  Cycle end_;
  Cycle stopped_ = ~Cycle{0};
  std::uint64_t packets_created_ = 0;
  std::uint64_t packets_delivered_ = 0;
  std::uint64_t flits_injected_ = 0;
  std::uint64_t flits_ejected_ = 0;
  std::uint64_t flits_replicated_ = 0;
  std::uint64_t flits_stripped_ = 0;
  std::uint64_t offered_flits_ = 0;
  std::uint64_t accepted_flits_ = 0;
  std::vector<std::uint32_t> latency_;
  std::vector<std::uint32_t> network_latency_;
  std::vector<std::uint32_t> hops_;
  std::uint64_t header_flits_injected_ = 0;
  std::array<ClassStats, kTrafficClasses> classes_{};
  int consumption_per_node_ = 0;
  std::vector<ConsumptionChannel> consumption_;
  bool log_packets_ = false;
  std::vector<DeliveredPacket> packet_log_;
};

}  // namespace wormsim
