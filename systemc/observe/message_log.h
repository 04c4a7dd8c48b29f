// Simulator-side record of every firmware message: when its send started (alpha), its
// doorbell, its first flit entering the network, its last flit reaching the destination NI,
// and the destination processor's receive (gamma). The collective harness derives latency,
// steps, link usage and path length from it, and the Chrome timeline is drawn from it. It
// also collects contention events between messages (routers report them). Sideband only:
// nothing in the modelled hardware reads it.
#pragma once

#include <cstdint>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "activity_calendar.h"
#include "flit.h"
#include "router_observer.h"

namespace wormsim {

struct MessageRecord {
  static constexpr Cycle kNone = ActivityCalendar::kNever;
  int operation = -1;  // collective operation this message belongs to
  NodeId src = kNoNode;
  NodeId dst = kNoNode;
  std::uint32_t seq = 0;  // per-source sequence number (TXn_SEQ)
  std::uint32_t tag = 0;
  std::uint32_t bytes = 0;
  int tx_channel = -1;
  int rx_channel = -1;
  int packets = 0;
  std::uint64_t flits = 0;
  Cycle send_begin = kNone;     // firmware entered send(): alpha starts
  Cycle doorbell = kNone;       // descriptor queued (alpha done)
  Cycle injected = kNone;       // head flit of the first packet left the NI
  Cycle delivered = kNone;      // tail of the last packet consumed by the destination NI
  Cycle receive_begin = kNone;  // destination firmware took the message: gamma starts
  Cycle received = kNone;       // gamma done: the data is the application's
  int hops = 0;                 // router-to-router links of the (first) packet's path
  // Link usage: sum over packets of flits x links used. A multidestination message has one
  // record per destination (consecutive, in list order); its links are counted once, on the
  // first record, when the source packetises it.
  std::uint64_t flit_hops = 0;
  // Multidestination: the flits its destination list adds to every packet's header, summed
  // over packets (on the first record).
  std::uint64_t list_header_flits = 0;
  // Blocking, in flit-cycles summed over the routers of the path: a head flit's wait for an
  // output VC, from when it was both ready and at the front of its input VC (so not the time
  // queued behind the packet ahead of it) until the grant; plus every cycle a ready flit with
  // a credit lost its output port in switch allocation to another message's flit (a
  // replicating worm: to another replicating worm). Zero on an idle network. A VC held by
  // another packet of the same message counts too (only multi-packet messages on several
  // VCs can see that). Multidestination: on the first record.
  std::uint64_t blocked_cycles = 0;
};

struct ContentionEvent {
  std::size_t waiting = 0;  // message index that waited
  std::size_t holder = 0;   // message index holding the channel
  NodeId router = kNoNode;
  int port = -1;
  Cycle cycle = 0;
};

class MessageLog : public RouterObserver {
 public:
  bool wants_contention() const override { return true; }
  // A doorbell queued message (src, seq); returns its index.
  std::size_t on_doorbell(const MessageRecord& r) {
    const std::size_t i = records_.size();
    records_.push_back(r);
    records_.back().operation = operation_;
    index_[key(r.src, r.seq)] = i;
    return i;
  }
  // A multidestination message (src, seq): one record per destination.
  void on_doorbell_multicast(MessageRecord r, const std::vector<NodeId>& dests) {
    const std::size_t first = records_.size();
    for (NodeId d : dests) {
      r.dst = d;
      records_.push_back(r);
      records_.back().operation = operation_;
    }
    index_[key(r.src, r.seq)] = first;
    copies_[key(r.src, r.seq)] = dests.size();
  }
  MessageRecord* find(NodeId src, std::uint32_t seq) {
    const auto it = index_.find(key(src, seq));
    return it == index_.end() ? nullptr : &records_[it->second];
  }
  // The record of message (src, seq) at destination dst.
  MessageRecord* find(NodeId src, std::uint32_t seq, NodeId dst) {
    for (MessageRecord& r : copies(src, seq))
      if (r.dst == dst) return &r;
    return nullptr;
  }
  // All records of message (src, seq): one, or one per destination of a multidestination one.
  struct Span {
    MessageRecord* first;
    MessageRecord* last;
    MessageRecord* begin() const { return first; }
    MessageRecord* end() const { return last; }
  };
  Span copies(NodeId src, std::uint32_t seq) {
    const auto it = index_.find(key(src, seq));
    if (it == index_.end()) return {nullptr, nullptr};
    const auto c = copies_.find(key(src, seq));
    const std::size_t n = c == copies_.end() ? 1 : c->second;
    MessageRecord* f = &records_[it->second];
    return {f, f + n};
  }
  void map_packet(PacketId packet, NodeId src, std::uint32_t seq) {
    const auto it = index_.find(key(src, seq));
    if (it != index_.end()) packets_[packet] = it->second;
  }
  // Message index of a packet, or -1.
  long message_of(PacketId packet) const {
    const auto it = packets_.find(packet);
    return it == packets_.end() ? -1 : static_cast<long>(it->second);
  }
  void forget_packet(PacketId packet) { packets_.erase(packet); }

  // A flit of `waiting` could not get a channel held by (or granted to) `holder`. Counted once
  // per pair of messages.
  void on_contention(PacketId waiting, PacketId holder, NodeId router, int port,
                     Cycle now) override {
    const long w = message_of(waiting);
    const long h = message_of(holder);
    if (w < 0 || h < 0 || w == h) return;
    if (!contention_pairs_.insert({static_cast<std::size_t>(w), static_cast<std::size_t>(h)})
             .second)
      return;
    contention_.push_back(
        {static_cast<std::size_t>(w), static_cast<std::size_t>(h), router, port, now});
  }

  // Flits of `packet` were blocked for `cycles` (MessageRecord::blocked_cycles).
  void on_blocked(PacketId packet, Cycle cycles) override {
    if (cycles == 0) return;
    const long m = message_of(packet);
    if (m >= 0) records_[static_cast<std::size_t>(m)].blocked_cycles += cycles;
  }
  // A ready flit of `packet` lost the switch to `winner` for one cycle; not counted when both
  // are packets of one message.
  void on_blocked_by(PacketId packet, PacketId winner) override {
    const long m = message_of(packet);
    if (m >= 0 && m != message_of(winner))
      records_[static_cast<std::size_t>(m)].blocked_cycles += 1;
  }

  void set_operation(int op) { operation_ = op; }
  const std::vector<MessageRecord>& records() const { return records_; }
  const std::vector<ContentionEvent>& contention() const { return contention_; }

 private:
  static std::uint64_t key(NodeId src, std::uint32_t seq) {
    return (static_cast<std::uint64_t>(src) << 32) | seq;
  }
  int operation_ = -1;
  std::vector<MessageRecord> records_;
  std::unordered_map<std::uint64_t, std::size_t> index_;
  std::unordered_map<std::uint64_t, std::size_t> copies_;  // multidestination: records per message
  std::unordered_map<PacketId, std::size_t> packets_;
  std::set<std::pair<std::size_t, std::size_t>> contention_pairs_;
  std::vector<ContentionEvent> contention_;
};

}  // namespace wormsim
