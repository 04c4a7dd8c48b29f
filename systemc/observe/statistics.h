// Run statistics. Packets created inside the measurement window [warmup, warmup+measure) are
// "measured"; their latencies are collected whenever they are delivered (including during
// drain). Packet latency = tail consumed at the destination NI - packet created (includes
// source queueing); network latency = tail consumed - head left the source NI. Accepted
// throughput = flits consumed by NIs during the window / (nodes * window cycles); offered
// load likewise with flits created.
#pragma once

#include <algorithm>
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

  void on_created(int flits, Cycle now) {
    ++packets_created_;
    if (measuring(now)) offered_flits_ += static_cast<std::uint64_t>(flits);
  }
  void on_flit_injected() { ++flits_injected_; }
  // Copies a router made beyond one per buffered flit (multidestination replication).
  void on_flits_replicated(int n) { flits_replicated_ += static_cast<std::uint64_t>(n); }
  void on_flit_ejected(Cycle now) {
    ++flits_ejected_;
    if (measuring(now)) ++accepted_flits_;
  }
  void enable_packet_log() { log_packets_ = true; }
  const std::vector<DeliveredPacket>& packet_log() const { return packet_log_; }

  void on_delivered(PacketId id, const PacketRecord& r, Cycle now, int hops) {
    ++packets_delivered_;
    if (log_packets_) packet_log_.push_back({id, r, now, hops});
    if (!r.measured) return;
    latency_.push_back(static_cast<std::uint32_t>(now - r.created));
    network_latency_.push_back(static_cast<std::uint32_t>(now - r.injected));
    hops_.push_back(static_cast<std::uint32_t>(hops));
  }

  std::uint64_t flits_injected() const { return flits_injected_; }
  std::uint64_t flits_ejected() const { return flits_ejected_; }
  std::uint64_t flits_replicated() const { return flits_replicated_; }
  std::uint64_t flits_in_flight() const {
    return flits_injected_ + flits_replicated_ - flits_ejected_;
  }
  std::uint64_t packets_created() const { return packets_created_; }
  std::uint64_t packets_delivered() const { return packets_delivered_; }
  double offered_load() const { return per_node_cycle(offered_flits_); }
  double accepted_throughput() const { return per_node_cycle(accepted_flits_); }
  const std::vector<std::uint32_t>& latencies() const { return latency_; }
  const std::vector<std::uint32_t>& network_latencies() const { return network_latency_; }
  const std::vector<std::uint32_t>& hops() const { return hops_; }

 private:
  double per_node_cycle(std::uint64_t flits) const {
    const Cycle cycles = covered_cycles();
    if (cycles == 0) return 0;
    return static_cast<double>(flits) / (static_cast<double>(nodes_) * static_cast<double>(cycles));
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
  std::uint64_t offered_flits_ = 0;
  std::uint64_t accepted_flits_ = 0;
  std::vector<std::uint32_t> latency_;
  std::vector<std::uint32_t> network_latency_;
  std::vector<std::uint32_t> hops_;
  bool log_packets_ = false;
  std::vector<DeliveredPacket> packet_log_;
};

}  // namespace wormsim
